// The host's folders as a picker sees them: names of subfolders only, never above or beside the
// download root, however the path is written or where a link leads.

import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listHostFolders } from '../../../../../main/engine/disk/host-folders.ts';

let base: string;
let root: string;
let outside: string;

beforeEach(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'barge-folders-'));
  root = path.join(base, 'root');
  outside = path.join(base, 'outside');
  await mkdir(path.join(root, 'photos', '2024'), { recursive: true });
  await mkdir(path.join(root, 'music'));
  await mkdir(path.join(root, 'item10'));
  await mkdir(path.join(root, 'item9'));
  await mkdir(path.join(root, '.hidden'));
  await writeFile(path.join(root, 'notes.txt'), 'not a folder');
  await mkdir(path.join(outside, 'secret-folder'), { recursive: true });
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

const confined = { start: '/nowhere' } as const;

describe("listing the host's folders", () => {
  it('lists the root by default: subfolders only, sorted by name as a person reads, hidden ones left out', async () => {
    const listing = await listHostFolders(undefined, { ...confined, root });
    expect(listing).toEqual({
      path: root,
      parent: undefined,
      folders: ['item9', 'item10', 'music', 'photos'],
      truncated: false,
    });
  });

  it('goes down into a folder and says its parent; up stops at the root', async () => {
    const listing = await listHostFolders(path.join(root, 'photos'), { ...confined, root });
    expect(listing).toMatchObject({ path: path.join(root, 'photos'), parent: root, folders: ['2024'] });
    expect((await listHostFolders(path.join(root, 'photos', '2024'), { ...confined, root })).parent).toBe(
      path.join(root, 'photos'),
    );
  });

  it("refuses a relative path: it would be taken from the host's working folder", async () => {
    await expect(listHostFolders('photos', { ...confined, root })).rejects.toMatchObject({ code: 'RelativePath' });
    await expect(listHostFolders('./photos', { ...confined, root })).rejects.toMatchObject({ code: 'RelativePath' });
  });

  it.each([
    ['the root\'s parent, through ".."', () => path.join(root, '..')],
    ['a sibling, through ".."', () => `${root}/photos/../../outside`],
    ['an absolute path elsewhere', () => outside],
    ["the system's top", () => '/'],
    ['a home folder', () => path.join(os.homedir(), '.ssh')],
    ['a name that only begins like the root', () => `${root}-other`],
  ])('refuses %s', async (_what, asked) => {
    await expect(listHostFolders(asked(), { ...confined, root })).rejects.toMatchObject({
      code: 'OutsideDownloadRoot',
    });
  });

  it('refuses to go through a symbolic link that leads out of the root, and does not show it', async () => {
    await symlink(outside, path.join(root, 'escape'));
    await symlink(path.join(root, 'music'), path.join(root, 'tunes'));
    await symlink(path.join(base, 'gone'), path.join(root, 'broken'));
    await expect(listHostFolders(path.join(root, 'escape'), { ...confined, root })).rejects.toMatchObject({
      code: 'OutsideDownloadRoot',
    });
    await expect(
      listHostFolders(path.join(root, 'escape', 'secret-folder'), { ...confined, root }),
    ).rejects.toMatchObject({ code: 'OutsideDownloadRoot' });
    // Through the link, a missing path answers as an existing one does: nothing tells what is there.
    await expect(
      listHostFolders(path.join(root, 'escape', 'no-such-folder'), { ...confined, root }),
    ).rejects.toMatchObject({ code: 'OutsideDownloadRoot' });
    await expect(listHostFolders(path.join(root, 'escape', 'a', 'b'), { ...confined, root })).rejects.toMatchObject({
      code: 'OutsideDownloadRoot',
    });
    // Inside the root, a missing folder is simply missing.
    await expect(
      listHostFolders(path.join(root, 'photos', 'no-such-folder'), { ...confined, root }),
    ).rejects.toMatchObject({ code: 'NoSuchFolder' });
    // A link to a folder inside the root is a folder like any other; one out, or to nothing, is not shown.
    expect((await listHostFolders(undefined, { ...confined, root })).folders).toEqual([
      'item9',
      'item10',
      'music',
      'photos',
      'tunes',
    ]);
  });

  it('takes a root that is itself a link by its real folder, and still refuses what lies outside it', async () => {
    // The root may be a link (as /tmp is on macOS): what counts is what lies below its real path.
    const linkedRoot = path.join(base, 'linked-root');
    await symlink(root, linkedRoot);
    expect((await listHostFolders(undefined, { ...confined, root: linkedRoot })).folders).toContain('photos');
    await expect(listHostFolders(outside, { ...confined, root: linkedRoot })).rejects.toMatchObject({
      code: 'OutsideDownloadRoot',
    });
  });

  it('makes a root that is not there yet, as a download would, and lists it empty', async () => {
    const fresh = path.join(base, 'fresh', 'root');
    expect(await listHostFolders(undefined, { ...confined, root: fresh })).toEqual({
      path: fresh,
      parent: undefined,
      folders: [],
      truncated: false,
    });
  });

  it('says plainly when a folder is missing or is a file', async () => {
    await expect(listHostFolders(path.join(root, 'nope'), { ...confined, root })).rejects.toMatchObject({
      code: 'NoSuchFolder',
      message: `There is no folder ${path.join(root, 'nope')}.`,
    });
    await expect(listHostFolders(path.join(root, 'notes.txt'), { ...confined, root })).rejects.toMatchObject({
      code: 'NotAFolder',
    });
  });

  it('names at most the limit, and says there are more', async () => {
    const listing = await listHostFolders(undefined, { ...confined, root, limit: 2 });
    expect(listing.folders).toHaveLength(2);
    expect(listing.truncated).toBe(true);
  });

  it('without a root, lists from the start folder and goes up to the top', async () => {
    const listing = await listHostFolders(undefined, { start: path.join(root, 'photos') });
    expect(listing).toMatchObject({ path: path.join(root, 'photos'), parent: root, folders: ['2024'] });
    expect((await listHostFolders('/', { start: root })).parent).toBeUndefined();
  });
});
