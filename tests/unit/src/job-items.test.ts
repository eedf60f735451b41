import { expect, it } from 'vitest';
import { formatItemsCsv, itemsFileName } from '../../../src/job-items.ts';

it("writes a job's items as CSV, quoting where needed, with a field a spreadsheet would run as a formula made text", () => {
  const csv = [
    ...formatItemsCsv([
      { source: '/data/a.txt', destination: 's3://b/a.txt', size: 12, state: 'done' },
      {
        source: '=HYPERLINK("http://evil")',
        destination: 's3://b/x',
        state: 'failed',
        code: 'ENOENT',
        message: 'Cannot read it: "gone", really',
      },
      {
        source: 's3://b/k (version 1)',
        destination: '',
        state: 'failed',
        code: 'ObjectLocked',
        message: '-1 tries\nleft',
      },
    ]),
  ].join('');
  expect(csv).toBe(
    [
      'source,destination,size,state,code,message',
      '/data/a.txt,s3://b/a.txt,12,done,,',
      `"'=HYPERLINK(""http://evil"")",s3://b/x,,failed,ENOENT,"Cannot read it: ""gone"", really"`,
      // Shown as an escape: a CSV row is one line, whatever a message holds.
      `s3://b/k (version 1),,,failed,ObjectLocked,'-1 tries\\nleft`,
      '',
    ].join('\n'),
  );
  expect([...formatItemsCsv([])].join('')).toBe('source,destination,size,state,code,message\n');
});

it("names the file after what it holds, the job's kind and its ID", () => {
  expect(itemsFileName('download', '1a2b3c4d-5e6f', 'failed')).toBe('barge-errors-download-1a2b3c4d.csv');
  expect(itemsFileName('delete', '1a2b3c4d-5e6f', 'all')).toBe('barge-items-delete-1a2b3c4d.csv');
});
