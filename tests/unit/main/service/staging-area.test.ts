// Files a browser sends: where each goes, how long a batch waits for its job, and when it goes.

import { spawn, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_NAME_BYTES, StagingArea } from '../../../../main/service/staging-area.ts';

async function area(ttlMs = 1000) {
  const root = await mkdtemp(path.join(os.tmpdir(), 'barge-staging-'));
  let now = 0;
  const staging = await StagingArea.open({ root, unstartedTtlMs: ttlMs, now: () => now });
  return {
    root,
    staging,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe('the staging area', () => {
  it('puts each file below its batch, in a folder of its user only, and refuses paths that leave it', async () => {
    const { root, staging } = await area();
    const batch = await staging.create();
    expect((await stat(path.join(root, batch))).mode & 0o777).toBe(0o700);
    expect(await staging.fileFor(batch, 'photos/a.jpg')).toMatchObject({
      file: path.join(root, batch, 'photos', 'a.jpg'),
      stagingRoot: root,
    });
    for (const bad of ['../evil', '/etc/passwd', 'a//b', 'dir/'])
      await expect(staging.fileFor(batch, bad)).rejects.toMatchObject({ code: 'InvalidPath' });
    await expect(staging.fileFor('no-such-batch', 'a.txt')).rejects.toMatchObject({ code: 'NoSuchStaging' });
    await staging.close();
  });

  it('refuses, in words, a name longer than the disk takes (255 bytes) and a path longer than the system takes', async () => {
    const { staging } = await area();
    const batch = await staging.create();
    await expect(staging.fileFor(batch, 'n'.repeat(MAX_NAME_BYTES))).resolves.toBeDefined();
    for (const name of ['n'.repeat(MAX_NAME_BYTES + 1), `${'é'.repeat(128)}.txt`, `${'d'.repeat(300)}/a.txt`]) {
      await expect(staging.fileFor(batch, name)).rejects.toMatchObject({
        code: 'InvalidPath',
        message: expect.stringContaining('at most 255 bytes'),
      });
    }
    const deep = Array.from({ length: 20 }, () => 'p'.repeat(250)).join('/');
    await expect(staging.fileFor(batch, deep)).rejects.toMatchObject({
      code: 'InvalidPath',
      message: expect.stringContaining('too long'),
    });
    await staging.close();
  });

  it('expires a batch never started, counted from its last file; a claimed one does not expire', async () => {
    const { root, staging, advance } = await area(1000);
    const waiting = await staging.create();
    const claimed = await staging.create();
    advance(800);
    await writeFile((await staging.fileFor(waiting, 'a.txt')).file, 'a');
    await writeFile((await staging.fileFor(claimed, 'b.txt')).file, 'b');
    expect(staging.claim(claimed, ['b.txt'])).toEqual([path.join(root, claimed, 'b.txt')]);
    advance(800);
    staging.expire();
    expect(await readdir(root)).toEqual(expect.arrayContaining([waiting, claimed]));
    advance(300);
    staging.expire();
    await expect(staging.fileFor(waiting, 'c.txt')).rejects.toMatchObject({ code: 'NoSuchStaging' });
    for (let i = 0; (await readdir(root)).includes(waiting) && i < 100; i++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await readdir(root)).toEqual([claimed]);
    await staging.close();
  });

  it('claims a batch once, by single names; removes it when its job is done, or its start failed', async () => {
    const { root, staging } = await area();
    const batch = await staging.create();
    expect(() => staging.claim(batch, ['a/b'])).toThrow(expect.objectContaining({ code: 'InvalidPath' }));
    staging.claim(batch, ['a']);
    expect(() => staging.claim(batch, ['a'])).toThrow(expect.objectContaining({ code: 'NoSuchStaging' }));
    staging.started(batch, 'job-1');
    staging.jobsDone(['other-job']);
    expect(await readdir(root)).toEqual([batch]);
    staging.jobsDone(['job-1']);
    for (let i = 0; (await readdir(root)).length > 0 && i < 100; i++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await readdir(root)).toEqual([]);
    const failed = await staging.create();
    staging.claim(failed, ['x']);
    await staging.discard(failed);
    expect(await readdir(root)).toEqual([]);
    await staging.create();
    await staging.close();
    expect(await readdir(root)).toEqual([]);
  });
});

describe('what hosts killed before left behind', () => {
  it('is removed when a host starts, unless a running host owns it; a host names its own folder after its process', async () => {
    const temporaryDir = await mkdtemp(path.join(os.tmpdir(), 'barge-tmp-'));
    const ended = spawnSync(process.execPath, ['-e', '']).pid;
    const running = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
    const leftover = async (name: string) => {
      await mkdir(path.join(temporaryDir, name, 'batch'), { recursive: true });
      await writeFile(path.join(temporaryDir, name, 'batch', 'a.txt'), 'staged');
      return name;
    };
    try {
      const killed = await leftover(`barge-web-uploads-${ended}-AbC123`);
      const otherHost = await leftover(`barge-web-uploads-${running.pid}-XyZ789`);
      // The older naming says nothing of its owner: it goes once untouched for a day.
      const oldUntouched = await leftover('barge-web-uploads-Old123');
      const twoDaysAgo = new Date(Date.now() - 2 * 24 * 3600 * 1000);
      await utimes(path.join(temporaryDir, oldUntouched, 'batch'), twoDaysAgo, twoDaysAgo);
      await utimes(path.join(temporaryDir, oldUntouched), twoDaysAgo, twoDaysAgo);
      const oldRecent = await leftover('barge-web-uploads-New456');
      const unrelated = await leftover('barge-web-uploads-notes');
      // A link named like a leftover is neither followed nor removed.
      const elsewhere = await mkdtemp(path.join(os.tmpdir(), 'barge-elsewhere-'));
      await writeFile(path.join(elsewhere, 'keep.txt'), 'keep');
      const link = `barge-web-uploads-${ended}-Link12`;
      await symlink(elsewhere, path.join(temporaryDir, link));

      const staging = await StagingArea.open({ temporaryDir });
      const left = await readdir(temporaryDir);
      expect(left).not.toContain(killed);
      expect(left).not.toContain(oldUntouched);
      expect(left).toEqual(expect.arrayContaining([otherHost, oldRecent, unrelated, link]));
      expect(await readdir(elsewhere)).toEqual(['keep.txt']);
      expect(path.dirname(staging.root)).toBe(temporaryDir);
      expect(path.basename(staging.root)).toMatch(new RegExp(`^barge-web-uploads-${process.pid}-[A-Za-z0-9]{6}$`));
      await staging.close();
    } finally {
      running.kill();
    }
  });
});
