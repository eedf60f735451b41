import { afterEach, expect, it } from 'vitest';
import { ItemLog } from '../../../../../main/engine/jobs/item-log.ts';
import type { JobItem } from '../../../../../src/jobs.ts';

const logs: ItemLog[] = [];
afterEach(() => {
  for (const log of logs.splice(0)) log.close();
});

function newLog(limits: ConstructorParameters<typeof ItemLog>[0] = {}): ItemLog {
  const log = new ItemLog(limits);
  logs.push(log);
  return log;
}

const done = (n: number): JobItem => ({ source: `/src/f${n}`, destination: `s3://b/f${n}`, size: n, state: 'done' });
const failed = (n: number): JobItem => ({
  source: `/src/f${n}`,
  destination: `s3://b/f${n}`,
  size: n,
  state: 'failed',
  code: 'ENOENT',
  message: `f${n} is gone`,
});

it.each([
  ['in memory', 1_000],
  ['on disk', 3],
])('lists items in the order they ended, and pages through all or the failed ones (%s)', (_where, memoryItems) => {
  const log = newLog({ memoryItems });
  for (let n = 0; n < 30; n++) log.add(n % 10 === 3 ? failed(n) : done(n));
  log.add({ source: '/src/pipe', destination: '', state: 'skipped', code: 'Skipped', message: 'a named pipe' });
  expect(log.spilled).toBe(memoryItems < 31);
  expect(log.page('all', 0, 2)).toEqual({ items: [done(0), done(1)], total: 31 });
  expect(log.page('all', 29, 10)).toEqual({
    items: [
      done(29),
      { source: '/src/pipe', destination: '', state: 'skipped', code: 'Skipped', message: 'a named pipe' },
    ],
    total: 31,
  });
  expect(log.page('failed', 0, 10)).toEqual({ items: [failed(3), failed(13), failed(23)], total: 3 });
  expect(log.page('failed', 1, 1)).toEqual({ items: [failed(13)], total: 3 });
  expect([...log.all('failed')]).toEqual([failed(3), failed(13), failed(23)]);
  expect([...log.all('all')]).toHaveLength(31);
  // A size unknown stays unknown (a key deleted by name is not looked up first).
  log.add({ source: 's3://b/k', destination: '', state: 'done' });
  expect(log.page('all', 31, 1).items).toEqual([{ source: 's3://b/k', destination: '', state: 'done' }]);
});

it.each([
  ['in memory', 1_000],
  ['on disk', 2],
])("a retry of the failed items writes each one's new outcome over it (%s)", (_where, memoryItems) => {
  const log = newLog({ memoryItems });
  for (const item of [done(0), failed(1), failed(2), failed(3), done(4)]) log.add(item);
  log.retrying();
  expect(log.page('failed', 0, 10).total).toBe(0);
  expect(log.page('all', 0, 10).items.map((item) => item.state)).toEqual([
    'done',
    'retrying',
    'retrying',
    'retrying',
    'done',
  ]);
  log.add(done(2));
  log.add(failed(1));
  // Not one of the items being retried: a new line.
  log.add(done(9));
  log.settle(false);
  expect(log.page('all', 0, 10)).toEqual({ items: [done(0), failed(1), done(2), done(3), done(4), done(9)], total: 6 });
  expect(log.page('failed', 0, 10)).toEqual({ items: [failed(1)], total: 1 });

  // A retry that was stopped leaves what it did not come back to failed, as it was.
  log.retrying();
  log.settle(true);
  expect(log.page('failed', 0, 10)).toEqual({ items: [failed(1)], total: 1 });
});

it('lists at most its limit of items; failures past it are still listed', () => {
  const log = newLog({ memoryItems: 2, maxListed: 3 });
  for (let n = 0; n < 5; n++) log.add(done(n));
  log.add(failed(5));
  expect(log.page('all', 0, 10)).toEqual({ items: [done(0), done(1), done(2), failed(5)], total: 4 });
  expect(log.unlisted).toBe(2);
  log.clear();
  expect(log.page('all', 0, 10)).toEqual({ items: [], total: 0 });
  expect(log.unlisted).toBe(0);
  expect(log.spilled).toBe(false);
});

it('holds 100,000 items with a bounded part of them in memory', () => {
  const log = newLog();
  for (let n = 0; n < 100_000; n++) log.add(n === 77_777 ? failed(n) : done(n));
  expect(log.spilled).toBe(true);
  expect(log.page('all', 99_998, 5)).toEqual({ items: [done(99_998), done(99_999)], total: 100_000 });
  expect(log.page('failed', 0, 5)).toEqual({ items: [failed(77_777)], total: 1 });
});
