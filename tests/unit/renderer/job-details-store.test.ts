import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { BargeApi } from '../../../src/contract/api.ts';
import type { Result } from '../../../src/contract/result.ts';
import type { JobItem } from '../../../src/jobs.ts';
import { setApi } from '../../../renderer/store/api.ts';
import { PAGE_SIZE, useJobDetails } from '../../../renderer/store/job-details-store.ts';
import { useJobs } from '../../../renderer/store/jobs-store.ts';

const saved: { fileName: string; text: string | readonly BlobPart[]; type: string }[] = [];
vi.mock('../../../renderer/save-file.ts', () => ({
  saveFile: (fileName: string, text: string | readonly BlobPart[], type: string) =>
    saved.push({ fileName, text, type }),
}));

/** A call the test answers when it chooses. */
interface Pending {
  readonly method: string;
  readonly params: Record<string, unknown>;
  answer(result: Result<unknown>): Promise<void>;
}

let pending: Pending[];

beforeEach(() => {
  pending = [];
  saved.length = 0;
  const api: BargeApi = {
    call: (method, params) =>
      new Promise((resolve) => {
        pending.push({
          method,
          params: params as Record<string, unknown>,
          answer: async (result) => {
            resolve(result as never);
            // Let the store take the answer in.
            for (let i = 0; i < 5; i++) await Promise.resolve();
          },
        });
      }),
    subscribe: () => () => undefined,
    uploadFiles: async () => ({ ok: false, error: { code: 'NotSet', message: 'not used' } }),
    pickFolder: async () => undefined,
  };
  setApi(api);
});

afterEach(() => useJobDetails.getState().close());

const item = (n: number, state: JobItem['state'] = 'done'): JobItem => ({
  source: `/src/f${n}`,
  destination: `s3://b/f${n}`,
  size: n,
  state,
});
const page = (offset: number, count: number, total: number) =>
  ({
    ok: true,
    value: { items: Array.from({ length: count }, (_, i) => item(offset + i)), total, unlisted: 0 },
  }) as const;

/** The calls still out, and takes them off the list. */
function taken(): Pending[] {
  return pending.splice(0);
}

it('opens on the first page; rows scrolled to fetch their own pages once, and pages far from the screen are let go', async () => {
  useJobDetails.getState().open('j1');
  const [first] = taken();
  expect(first).toMatchObject({
    method: 'jobs.details',
    params: { id: 'j1', filter: 'all', offset: 0, limit: PAGE_SIZE },
  });
  await first!.answer(page(0, PAGE_SIZE, 100_000));
  expect(useJobDetails.getState()).toMatchObject({ jobId: 'j1', total: 100_000 });
  expect(useJobDetails.getState().pages.get(0)?.[7]).toEqual(item(7));

  useJobDetails.getState().show(PAGE_SIZE * 50 - 3, PAGE_SIZE * 50 + 10);
  const asked = taken();
  expect(asked.map((call) => call.params.offset)).toEqual([PAGE_SIZE * 49, PAGE_SIZE * 50]);
  // The same rows again: nothing asked twice.
  useJobDetails.getState().show(PAGE_SIZE * 50 - 3, PAGE_SIZE * 50 + 10);
  expect(taken()).toEqual([]);
  await asked[0]!.answer(page(PAGE_SIZE * 49, PAGE_SIZE, 100_000));
  await asked[1]!.answer(page(PAGE_SIZE * 50, PAGE_SIZE, 100_000));
  expect([...useJobDetails.getState().pages.keys()].sort((a, b) => a - b)).toEqual([49, 50]);
});

it('a job that moves on while a page is out is read again once, when it answers', async () => {
  useJobDetails.getState().open('j1');
  const [first] = taken();
  useJobDetails.getState().refresh();
  useJobDetails.getState().refresh();
  expect(taken()).toEqual([]);
  await first!.answer(page(0, 2, 2));
  const [again] = taken();
  expect(again).toMatchObject({ method: 'jobs.details', params: { offset: 0 } });
  await again!.answer({ ok: true, value: { items: [item(0), item(1, 'failed')], total: 2, unlisted: 0 } });
  expect(useJobDetails.getState().pages.get(0)).toEqual([item(0), item(1, 'failed')]);
  expect(taken()).toEqual([]);
});

it('the failed items are a list of their own; an answer for the list shown before is dropped', async () => {
  useJobDetails.getState().open('j1');
  const [all] = taken();
  useJobDetails.getState().setFilter('failed');
  const [failed] = taken();
  expect(failed).toMatchObject({ params: { id: 'j1', filter: 'failed', offset: 0 } });
  await failed!.answer({ ok: true, value: { items: [item(3, 'failed')], total: 1, unlisted: 0 } });
  await all!.answer(page(0, 5, 5));
  expect(useJobDetails.getState()).toMatchObject({ filter: 'failed', total: 1 });
  expect(useJobDetails.getState().pages.get(0)).toEqual([item(3, 'failed')]);
});

it('exports the list shown as CSV, and retries the failed items; a refusal is said in words', async () => {
  useJobDetails.getState().open('j1', 'failed');
  await taken()[0]!.answer(page(0, 1, 1));
  const exporting = useJobDetails.getState().exportCsv();
  const [csv] = taken();
  expect(csv).toMatchObject({ method: 'jobs.detailsCsv', params: { id: 'j1', filter: 'failed' } });
  // A page at a time: the next asked where the last ended, until none is left.
  await csv!.answer({
    ok: true,
    value: { fileName: 'barge-errors-upload-j1.csv', text: 'source,destination\na,b\n', next: 1 },
  });
  const [second] = taken();
  expect(second).toMatchObject({ method: 'jobs.detailsCsv', params: { id: 'j1', filter: 'failed', offset: 1 } });
  await second!.answer({ ok: true, value: { fileName: 'barge-errors-upload-j1.csv', text: 'c,d\n' } });
  await exporting;
  expect(saved).toMatchObject([{ fileName: 'barge-errors-upload-j1.csv', type: 'text/csv' }]);
  expect(await new Blob([...(saved[0]!.text as BlobPart[])]).text()).toBe('source,destination\na,b\nc,d\n');

  const retrying = useJobDetails.getState().retryFailed();
  const [retry] = taken();
  expect(retry).toMatchObject({ method: 'jobs.retryFailed', params: { id: 'j1' } });
  await retry!.answer({ ok: true, value: null });
  await retrying;
  expect(useJobDetails.getState().notice).toBe('Retrying the failed items…');
  // Read again at once: the failed items are retrying now.
  expect(taken().map((call) => call.method)).toEqual(['jobs.details']);

  const refused = useJobDetails.getState().retryFailed();
  await taken()[0]!.answer({
    ok: false,
    error: { code: 'FailedWhole', message: 'This job failed as a whole: retry the whole job.' },
  });
  await refused;
  expect(useJobDetails.getState().error).toBe('This job failed as a whole: retry the whole job.');
});

it('says a retry has ended once a run begun after it finishes, even one never seen running, and how it went', async () => {
  useJobDetails.getState().open('j1', 'failed');
  await taken()[0]!.answer(page(0, 2, 2));
  const { jobMoved } = useJobDetails.getState();
  jobMoved({ finished: true, failed: 2, startedAt: 1000 });
  const retrying = useJobDetails.getState().retryFailed();
  await taken()[0]!.answer({ ok: true, value: null });
  await retrying;
  expect(useJobDetails.getState().notice).toBe('Retrying the failed items…');
  // The run it goes on from, seen again, is not the retry's end.
  jobMoved({ finished: true, failed: 2, startedAt: 1000 });
  expect(useJobDetails.getState().notice).toBe('Retrying the failed items…');
  jobMoved({ finished: true, failed: 1, startedAt: 2000 });
  expect(useJobDetails.getState().notice).toBe('The retry ended: 1 item failed again.');

  // A retry whose run ends before its answer comes: said ended, not "Retrying" after all.
  const quick = useJobDetails.getState().retryFailed();
  const [call] = taken().filter((pending) => pending.method === 'jobs.retryFailed');
  jobMoved({ finished: false, failed: 0, startedAt: 3000 });
  jobMoved({ finished: true, failed: 0, startedAt: 3000 });
  await call!.answer({ ok: true, value: null });
  await quick;
  expect(useJobDetails.getState().notice).toBe('The retry ended: every item is done.');
});

it('asks which answer to retry with when the same one would fail items again, and retries with the one chosen', async () => {
  useJobDetails.getState().open('j1', 'failed');
  await taken()[0]!.answer(page(0, 2, 2));
  const asking = useJobDetails.getState().retryFailed();
  const question =
    '2 items failed because their files were already there: retried the same way, they would fail again. Choose whether to replace them, keep both, or skip them.';
  await taken()[0]!.answer({ ok: false, error: { code: 'ChoiceNeeded', message: question } });
  await asking;
  expect(useJobDetails.getState()).toMatchObject({ choice: question, error: undefined, notice: undefined });
  const answered = useJobDetails.getState().retryFailed('rename');
  const [retry] = taken();
  expect(retry).toMatchObject({ method: 'jobs.retryFailed', params: { id: 'j1', ifExists: 'rename' } });
  expect(useJobDetails.getState().choice).toBeUndefined();
  await retry!.answer({ ok: true, value: null });
  await answered;
  expect(useJobDetails.getState().notice).toBe('Retrying the failed items…');
});

it("a job row's Retry on files that were already there opens the details and asks there, rather than failing them again", async () => {
  const failed = (rerun: 'needs-choice' | undefined) => ({
    id: rerun ? 'j9' : 'j10',
    kind: 'download' as const,
    name: 'twice',
    state: { status: 'failed' as const, error: { code: 'ItemsFailed', message: '1 item failed.' } },
    createdAt: 0,
    startedAt: 5,
    conflicts: [],
    progress: {
      objectsDone: 0,
      objectsFailed: 1,
      objectsTotal: 1,
      bytesDone: 0,
      bytesTotal: 0,
      totalsKnown: true,
      bytesPerSecond: 0,
      etaSeconds: undefined,
    },
    itemErrors: [
      {
        item: 's3://b/twice/a.txt',
        code: rerun ? 'FileExists' : 'ECONNRESET',
        message: 'a.txt is already there.',
        ...(rerun ? { rerun } : {}),
      },
    ],
  });
  useJobs.getState().replaceAll([failed('needs-choice')] as never);
  const retrying = useJobs.getState().control('retry', 'j9');
  expect(useJobDetails.getState()).toMatchObject({ jobId: 'j9', filter: 'failed' });
  expect(pending.map((call) => call.method)).toEqual(['jobs.details', 'jobs.retryFailed']);
  // The dialog sees the job as it failed before the answer comes: that run is not the retry's end.
  useJobDetails.getState().jobMoved({ finished: true, failed: 1, startedAt: 5 });
  expect(useJobDetails.getState().notice).toBeUndefined();
  await pending[1]!.answer({
    ok: false,
    error: { code: 'ChoiceNeeded', message: '1 item failed because its file was already there.' },
  });
  await retrying;
  expect(useJobDetails.getState().choice).toBe('1 item failed because its file was already there.');
  expect(useJobDetails.getState().notice).toBeUndefined();

  // Any other failure: the row retries the job, as before.
  pending.length = 0;
  useJobDetails.getState().close();
  useJobs.getState().replaceAll([failed(undefined)] as never);
  void useJobs.getState().control('retry', 'j10');
  expect(pending.map((call) => call.method)).toEqual(['jobs.retry']);
});

it("a job row's Retry that is asked back (ChoiceNeeded) says no retry ended: nothing ran", async () => {
  const job = {
    id: 'j11',
    kind: 'upload' as const,
    name: 'twice',
    state: { status: 'failed' as const, error: { code: 'ItemsFailed', message: '2 items failed.' } },
    createdAt: 0,
    startedAt: 500,
    endedAt: 600,
    conflicts: [],
    progress: {
      objectsDone: 0,
      objectsFailed: 2,
      objectsTotal: 2,
      bytesDone: 0,
      bytesTotal: 5,
      totalsKnown: true,
      bytesPerSecond: 0,
      etaSeconds: undefined,
    },
    itemErrors: [1, 2].map((n) => ({
      item: `s3://b/f${n}`,
      code: 'ObjectExists',
      message: `f${n} is already there.`,
      rerun: 'needs-choice' as const,
    })),
  };
  useJobs.getState().replaceAll([job] as never);
  const retrying = useJobs.getState().control('retry', 'j11');
  // The details dialog, opened by the row, tells the store where the job is: its one run so far.
  useJobDetails.getState().jobMoved({ finished: true, failed: 2, startedAt: 500 });
  const call = pending.find((pending) => pending.method === 'jobs.retryFailed')!;
  await call.answer({
    ok: false,
    error: { code: 'ChoiceNeeded', message: '2 items failed because their objects were already there.' },
  });
  await retrying;
  expect(useJobDetails.getState()).toMatchObject({
    choice: '2 items failed because their objects were already there.',
    notice: undefined,
  });
});
