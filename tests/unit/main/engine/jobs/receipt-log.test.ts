import { expect, it } from 'vitest';
import { ReceiptLog } from '../../../../../main/engine/jobs/receipt-log.ts';

it("keeps every object a job without a journal finished, one line per key, by key, a retry's line replacing the first", () => {
  const log = new ReceiptLog();
  expect([...log.all()]).toEqual([]);
  log.add(
    {
      key: 'b.txt',
      path: '/up/b.txt',
      size: 2,
      etag: '"e2"',
      checksum: 'CRC32:AAAAAA==',
      verified: 'store-checksum',
      mtimeMs: 5,
    },
    100,
  );
  log.add({ key: 'a.txt', path: '/up/a.txt', size: 1, etag: '"e1"' }, 101);
  log.add({ key: 'b.txt', path: '/up/b.txt', size: 3, etag: '"e3"' }, 102);
  expect([...log.all()]).toEqual([
    { key: 'a.txt', path: '/up/a.txt', size: 1, etag: '"e1"', finishedAt: 101 },
    { key: 'b.txt', path: '/up/b.txt', size: 3, etag: '"e3"', finishedAt: 102 },
  ]);
  log.close();
  expect([...log.all()]).toEqual([]);
});
