import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { walkPath } from '../../../../../main/engine/disk/local-files.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'barge-upload-walk-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

it('stats files on the loop yet lets it go while it walks a large folder', async () => {
  // Each file is stat-ed on the loop (through the thread pool it cost ~60 µs of it): a walk of a
  // large folder must still let timers and sockets run between batches, or every transfer waits on it.
  const files = 1_000;
  await mkdir(path.join(dir, 'f'));
  await Promise.all(
    Array.from({ length: files }, (_, i) => writeFile(path.join(dir, 'f', `n${i}`), 'x'.repeat(i % 7))),
  );
  let turns = 0;
  let walking = true;
  const turn = () => {
    turns += 1;
    if (walking) setImmediate(turn);
  };
  setImmediate(turn);
  const sizes = new Map<string, number>();
  // Read as a transfer reads it: item by item, never waiting on anything else.
  for await (const entry of walkPath(path.join(dir, 'f'), 'up/')) if (entry.ok) sizes.set(entry.key, entry.size);
  walking = false;
  expect(sizes.size).toBe(files);
  expect(sizes.get('up/n13')).toBe(13 % 7);
  expect(turns).toBeGreaterThanOrEqual(3);
});
