import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { expect, it } from 'vitest';
import { JobRow, jobRowHeight } from '../../../renderer/components/TransfersPanel.tsx';
import type { JobView } from '../../../renderer/store/jobs-store.ts';

const job = (over: Partial<JobView['progress']>, warnings: JobView['itemWarnings'] = []): JobView => ({
  id: 'j1',
  kind: 'download',
  name: 'photos',
  state: { status: 'completed' },
  createdAt: 0,
  itemErrors: [],
  itemWarnings: warnings,
  progress: {
    objectsDone: 3,
    objectsFailed: 0,
    objectsTotal: 3,
    bytesDone: 30,
    bytesTotal: 30,
    totalsKnown: true,
    bytesPerSecond: 0,
    etaSeconds: undefined,
    ...over,
  },
});

const render = (snapshot: JobView) =>
  renderToStaticMarkup(createElement(JobRow, { job: snapshot, onAct: () => undefined }));

it('a finished download with objects checked for size only says so on its row, with each object and why', () => {
  const html = render(
    job({ objectsSizeOnly: 2 }, [
      {
        item: 's3://b/k',
        code: 'SizeOnly',
        message: 's3://b/k was checked for its size only: the store reports no checksum.',
      },
    ]),
  );
  expect(html).toContain('2 objects checked for size only');
  expect(html).toContain('title="s3://b/k was checked for its size only: the store reports no checksum."');
  expect(render(job({ objectsSizeOnly: 0 }))).not.toContain('size only');
});

it('a finished job shows its average speed, how long it took and when it ended, never "ETA ?"', () => {
  const ended = new Date(2026, 2, 1, 14, 3, 12).getTime();
  const html = render({
    ...job({ bytesDone: 50_000_000, bytesTotal: 50_000_000 }),
    startedAt: ended - 4_000,
    endedAt: ended,
  });
  expect(html).toContain('avg 11.9 MiB/s');
  expect(html).toContain('took 4.0s, ended 2026-03-01 14:03<');
  expect(html).toContain('title="took 4.0s, ended 2026-03-01 14:03:12"');
  // All of it moved: the size once, not "47.7 MiB / 47.7 MiB".
  expect(html).toContain('>47.7 MiB<');
  expect(html).not.toContain('?');
  expect(html).not.toContain('0.0 MiB/s');
});

it('a running job still counting says so, with its ETA as a lower bound', () => {
  const running = {
    ...job({ totalsKnown: false, bytesPerSecond: 1e6, etaSeconds: undefined }),
    state: { status: 'running' },
  } as const;
  expect(render(running)).toContain('counting…');
  expect(render({ ...running, progress: { ...running.progress, etaSeconds: 65 } })).toContain(
    'ETA 1m05s or more (counting…)',
  );
  expect(
    render({ ...running, progress: { ...running.progress, totalsKnown: true, etaSeconds: undefined } }),
  ).not.toContain('?');
});

it("pace: a delete is timed in objects per second; today's end time shows without its date", async () => {
  const { jobPace } = await import('../../../renderer/job-text.ts');
  const now = new Date(2026, 2, 1, 18, 0, 0).getTime();
  const ended = new Date(2026, 2, 1, 14, 3, 12).getTime();
  const deleted = {
    ...job({ bytesDone: 0, bytesTotal: 0, objectsDone: 3000, objectsTotal: 3000 }),
    startedAt: ended - 1500,
    endedAt: ended,
  };
  expect(jobPace(deleted, now)).toEqual({
    rate: 'avg 2,000 objects/s',
    timing: 'took 1.5s, ended 14:03',
    detail: 'took 1.5s, ended 14:03:12',
  });
  // The sizes a delete counts are no bytes moved: still objects a second.
  const sized = {
    ...deleted,
    kind: 'delete' as const,
    progress: { ...deleted.progress, bytesDone: 6_900, bytesTotal: 6_900 },
  };
  expect(jobPace(sized, now).rate).toBe('avg 2,000 objects/s');
  // An upload of as many tiny files moves its bytes in KiB/s, beside the objects a second it keeps.
  expect(jobPace({ ...sized, kind: 'upload' }, now).rate).toBe('avg 4.5 KiB/s, 2,000 objects/s');
});

it('a job of small files shows objects and bytes a second, live and on average; one file, its bytes alone', async () => {
  const { jobPace } = await import('../../../renderer/job-text.ts');
  // 10,000 objects of 50 bytes at 770 a second: 37.6 KiB/s, which "0.0 MiB/s" hid.
  const small = {
    ...job({
      objectsDone: 4_000,
      objectsTotal: 10_000,
      bytesDone: 200_000,
      bytesTotal: 500_000,
      bytesPerSecond: 38_500,
      objectsPerSecond: 770,
      etaSeconds: 7.8,
    }),
    state: { status: 'running' },
  } as const;
  expect(jobPace(small)).toMatchObject({ rate: '37.6 KiB/s, 770 objects/s', timing: 'ETA 8s' });
  const ended = new Date(2026, 2, 1, 14, 3, 12).getTime();
  const done = {
    ...job({ objectsDone: 10_000, objectsTotal: 10_000, bytesDone: 500_000, bytesTotal: 500_000 }),
    startedAt: ended - 13_000,
    endedAt: ended,
  };
  expect(jobPace(done).rate).toBe('avg 37.6 KiB/s, 769 objects/s');
  const one = {
    ...job({
      objectsDone: 0,
      objectsTotal: 1,
      bytesDone: 50 * 1024 ** 2,
      bytesTotal: 100 * 1024 ** 2,
      bytesPerSecond: 25 * 1024 ** 2,
      objectsPerSecond: 0,
      etaSeconds: 2,
    }),
    state: { status: 'running' },
  } as const;
  expect(jobPace(one).rate).toBe('25.0 MiB/s');
  // A delete runs at its count a second.
  expect(jobPace({ ...small, kind: 'delete' }).rate).toBe('770 objects/s');
});

it('an upload whose files are still on their way to the host shows them arriving: bytes, rate, ETA and files, not "counting…"', () => {
  const receiving: JobView = {
    ...job({ objectsDone: 0, objectsTotal: 0, bytesDone: 0, bytesTotal: 0, totalsKnown: false }),
    kind: 'upload',
    state: { status: 'running' },
    progress: {
      ...job({}).progress,
      objectsDone: 0,
      objectsTotal: 0,
      bytesDone: 0,
      bytesTotal: 0,
      totalsKnown: false,
      phase: {
        kind: 'receiving',
        filesDone: 1,
        filesTotal: 3,
        bytesDone: 512 * 1024 ** 2,
        bytesTotal: 1024 ** 3,
        bytesPerSecond: 100 * 1024 ** 2,
        etaSeconds: 5.12,
      },
    },
  };
  const html = render(receiving);
  expect(html).toContain('aria-label="Sending photos to the host"');
  expect(html).toContain('aria-valuenow="50"');
  expect(html).toContain('>512 MiB / 1.00 GiB<');
  expect(html).toContain('>100 MiB/s<');
  expect(html).toContain('>sending to the host, 1 of 3 files, ETA 5s<');
  expect(html).not.toContain('counting…');
  // Cancel is there from the first byte.
  expect(html).toContain('Cancel');
});

it('a job that kept more files than it lists says how many it kept in all, not the 1,000 it lists', () => {
  // The job keeps the first 1,000 warnings to show one by one; its count goes on past them.
  const listed = Array.from({ length: 1_000 }, (_, i) => ({
    item: `/dl/f${i}`,
    code: 'Exists',
    message: `/dl/f${i} is already there: skipped, as asked.`,
  }));
  const html = render(job({ objectsDone: 2_000, objectsTotal: 2_000, objectsKept: 2_000 }, listed));
  expect(html).toContain('2,000 files were already there and kept');
  expect(html).not.toContain('1,000 files');
});

it('a row is as tall as the notes it shows: one that failed and kept files has room for both lines, not half of one', () => {
  const plain = jobRowHeight(job({}));
  const kept = job({ objectsKept: 1 }, [
    { item: 's3://b/a.txt', code: 'Exists', message: 's3://b/a.txt is already there: it was kept, as asked.' },
  ]);
  const failed = {
    ...job({ objectsFailed: 1, objectsKept: 1 }),
    state: { status: 'failed', error: { code: 'ObjectExists', message: '1 of 2 failed' } },
  } as const;
  expect(render(kept)).toContain('1 file was already there and kept');
  expect(jobRowHeight(kept)).toBeGreaterThanOrEqual(plain + 20);
  expect(jobRowHeight(failed)).toBeGreaterThanOrEqual(plain + 2 * 20);
});

it('a job that kept every file it found (already there) shows no average speed: nothing moved', async () => {
  const { jobPace } = await import('../../../renderer/job-text.ts');
  const ended = new Date(2026, 2, 1, 14, 3, 12).getTime();
  const kept = {
    ...job({ objectsDone: 3, objectsKept: 3, bytesDone: 97, bytesTotal: 97 }),
    startedAt: ended - 17,
    endedAt: ended,
  };
  expect(jobPace(kept).rate).toBe('');
  // One of them downloaded: an average again.
  expect(jobPace({ ...kept, progress: { ...kept.progress, objectsKept: 2 } }).rate).toMatch(/^avg /);
});
