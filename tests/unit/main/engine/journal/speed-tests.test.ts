// The journal keeps each connection's last speed test on each endpoint (schema 7), a journal of schema 6
// taking the new table as it opens.

import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { Journal } from '../../../../../main/engine/journal/journal.ts';

it('opens a journal of schema 6 as schema 7, and keeps the last speed test of each connection on each endpoint', async () => {
  const file = path.join(await mkdtemp(path.join(os.tmpdir(), 'barge-journal-unit-')), 'journal.sqlite');
  const six = await Journal.open(file);
  six.close();
  const { DatabaseSync } = await import('node:sqlite');
  const old = new DatabaseSync(file);
  // As Barge of schema 6 left it: no speed_tests table.
  old.exec('DROP TABLE speed_tests; PRAGMA user_version = 6;');
  old.close();

  const journal = await Journal.open(file);
  journal.saveSpeedTest({ endpoint: 'loopback:9000', connectionRef: 'a', measuredAt: 1, result: '{"n":1}' });
  journal.saveSpeedTest({ endpoint: 'loopback:9000', connectionRef: 'a', measuredAt: 2, result: '{"n":2}' });
  journal.saveSpeedTest({ endpoint: 'loopback:9000', connectionRef: 'b', measuredAt: 3, result: '{"n":3}' });
  journal.saveSpeedTest({ endpoint: 'elsewhere:443', connectionRef: 'a', measuredAt: 4, result: '{"n":4}' });
  journal.close();

  const again = await Journal.open(file);
  const version = new DatabaseSync(file).prepare('PRAGMA user_version').get() as { user_version: number };
  expect(version.user_version).toBe(7);
  // A connection's own last result, then (for a connection with none there) the endpoint's newest.
  expect(again.lastSpeedTest('loopback:9000', 'a')?.result).toBe('{"n":2}');
  expect(again.lastSpeedTest('loopback:9000', 'c')?.result).toBe('{"n":3}');
  expect(again.lastSpeedTest('loopback:9000', undefined)?.result).toBe('{"n":3}');
  expect(again.lastSpeedTest('nowhere:80', 'a')).toBeUndefined();
  again.close();
});
