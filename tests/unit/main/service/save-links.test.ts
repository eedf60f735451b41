// Links a browser follows to save one object: each stands for that object, once, for a minute
// (followed while the store failed to give it, it stands for it again).

import { describe, expect, it } from 'vitest';
import { MAX_WAITING_SAVE_LINKS, SAVE_LINK_TTL_MS, SaveLinks } from '../../../../main/service/save-links.ts';
import { savedFileName } from '../../../../main/service/barge-service.ts';

const target = { connectionId: 'c1', bucket: 'b', key: 'photos/a.jpg' };

describe('save links', () => {
  it('stands for its object once: a link followed again, or never made, stands for nothing', () => {
    const links = new SaveLinks();
    const name = links.offer(target);
    expect(name).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(links.take(name)?.target).toEqual(target);
    expect(links.take(name)).toBeUndefined();
    expect(links.take('made-up')).toBeUndefined();
  });

  it('stands for its object again once given back (its object was not sent), until its minute is up; no one else follows it meanwhile', () => {
    let now = 1_000;
    const links = new SaveLinks({ now: () => now });
    const name = links.offer(target);
    const taken = links.take(name)!;
    expect(links.take(name)).toBeUndefined();
    taken.giveBack();
    const again = links.take(name)!;
    expect(again.target).toEqual(target);
    now += SAVE_LINK_TTL_MS;
    again.giveBack();
    expect(links.take(name)).toBeUndefined();
  });

  it('is gone once a minute has passed unfollowed', () => {
    let now = 1_000;
    const links = new SaveLinks({ now: () => now });
    const name = links.offer(target);
    now += SAVE_LINK_TTL_MS;
    expect(links.take(name)).toBeUndefined();
  });

  it('keeps a bounded number waiting: stale ones make room, fresh ones do not', () => {
    let now = 0;
    const links = new SaveLinks({ now: () => now });
    for (let i = 0; i < MAX_WAITING_SAVE_LINKS; i++) links.offer(target);
    expect(() => links.offer(target)).toThrow(expect.objectContaining({ code: 'TooManySaveLinks' }));
    now += SAVE_LINK_TTL_MS;
    expect(links.take(links.offer(target))?.target).toEqual(target);
  });

  it('gives each a name of its own', () => {
    const links = new SaveLinks();
    const names = new Set(Array.from({ length: 100 }, () => links.offer(target)));
    expect(names.size).toBe(100);
  });
});

describe('the name an object is saved under', () => {
  it.each([
    ['photos/a.jpg', 'a.jpg'],
    ['a.jpg', 'a.jpg'],
    ['photos/2024/', '2024'],
    ['tab\there\u0007.txt', 'tabhere.txt'],
    ['/', 'download'],
    ['a/..', 'download'],
    ['été/résumé.pdf', 'résumé.pdf'],
    // A name that would read as a PDF, a CSI, a NEL and a line separator: none reaches the browser.
    ['in/invoice-\u202efdp.exe', 'invoice-fdp.exe'],
    ['csi\u009b2J\u0085\u2028.txt', 'csi2J.txt'],
  ])('%j is saved as %j', (key, name) => {
    expect(savedFileName(key)).toBe(name);
  });
});
