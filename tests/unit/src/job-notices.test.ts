import { describe, expect, it } from 'vitest';
import { jobEndNotice, JobWatcher, NOTICE_AFTER_MS } from '../../../src/job-notices.ts';
import type { JobSummary, JobUpdate } from '../../../src/jobs.ts';

const START = 1_000_000;

function job(over: Partial<JobSummary> = {}): JobSummary {
  return {
    id: 'j1',
    kind: 'upload',
    name: 'photos → s3://b/',
    state: { status: 'running' },
    createdAt: START,
    startedAt: START,
    progress: {
      objectsDone: 0,
      objectsFailed: 0,
      objectsTotal: 1500,
      bytesDone: 0,
      bytesTotal: 48 * 1024 * 1024,
      totalsKnown: true,
      bytesPerSecond: 0,
      etaSeconds: undefined,
    },
    ...over,
  };
}

function ended(status: 'completed' | 'failed' | 'cancelled', ms: number, over: Partial<JobSummary> = {}): JobSummary {
  const state =
    status === 'failed'
      ? ({ status, error: { code: 'ENOENT', message: '3 of 1,500 failed; first: …' } } as const)
      : { status };
  return job({
    state,
    endedAt: START + ms,
    progress: { ...job().progress, objectsDone: 1500, bytesDone: 48 * 1024 * 1024 },
    ...over,
  });
}

describe("a job's end is news", () => {
  it('when it ran longer than 10 s and completed or failed, in words that say what moved or what failed', () => {
    expect(jobEndNotice(ended('completed', 42_000))).toEqual({
      id: 'j1',
      title: 'Upload finished',
      body: 'photos → s3://b/\n1,500 objects, 48.0 MiB in 42s.',
    });
    const failed = ended('failed', 75_000, {
      kind: 'download',
      progress: { ...job().progress, objectsDone: 1497, objectsFailed: 3 },
    });
    expect(jobEndNotice(failed)).toEqual({
      id: 'j1',
      title: 'Download failed',
      body: 'photos → s3://b/\n3 of 1,500 objects failed.',
    });
    // Failed as a whole: its error says why.
    const whole = job({
      state: { status: 'failed', error: { code: 'NoSuchBucket', message: 'The bucket does not exist.' } },
      endedAt: START + 11_000,
    });
    expect(jobEndNotice(whole)?.body).toBe('photos → s3://b/\nThe bucket does not exist.');
    expect(jobEndNotice(ended('completed', 30_000, { kind: 'delete', name: 'Delete logs' }))?.body).toBe(
      'Delete logs\n1,500 objects in 30s.',
    );
  });

  it("shows a name's control characters, bidi overrides and line separators escaped: a notification reorders nothing", () => {
    const name = 'invoice-\u202efdp.exe\u2028\x9b → s3://b/';
    expect(jobEndNotice(ended('completed', 42_000, { name }))?.body).toBe(
      'invoice-\\u202efdp.exe\\u2028\\x9b → s3://b/\n1,500 objects, 48.0 MiB in 42s.',
    );
    const whole = job({
      name,
      state: { status: 'failed', error: { code: 'UnsafeKey', message: 'The key "a\u202eb" …' } },
      endedAt: START + 11_000,
    });
    expect(jobEndNotice(whole)?.body).toBe('invoice-\\u202efdp.exe\\u2028\\x9b → s3://b/\nThe key "a\\u202eb" …');
  });

  it('not for a job of 10 s or less, one cancelled, a dry run, or one still running', () => {
    expect(jobEndNotice(ended('completed', NOTICE_AFTER_MS))).toBeUndefined();
    expect(jobEndNotice(ended('completed', NOTICE_AFTER_MS + 1))).toBeDefined();
    expect(jobEndNotice(ended('cancelled', 60_000))).toBeUndefined();
    expect(jobEndNotice(ended('completed', 60_000, { kind: 'delete', dryRun: true }))).toBeUndefined();
    expect(jobEndNotice(job({ endedAt: START + 60_000 }))).toBeUndefined();
    expect(jobEndNotice(ended('completed', 60_000, { startedAt: undefined }))).toBeUndefined();
  });
});

describe('the job watcher', () => {
  const update = (summary: JobSummary): JobUpdate => ({
    id: summary.id,
    state: summary.state,
    progress: summary.progress,
    startedAt: summary.startedAt,
    endedAt: summary.endedAt,
  });

  it('tells of a long job once, when it is seen to end; a retry is a new run, told again', () => {
    const watcher = new JobWatcher();
    expect(watcher.take({ type: 'job', job: job() })).toEqual([]);
    expect(watcher.take({ type: 'jobs', jobs: [update(job())] })).toEqual([]);
    const failed = ended('failed', 20_000, { progress: { ...job().progress, objectsDone: 1499, objectsFailed: 1 } });
    expect(watcher.take({ type: 'jobs', jobs: [update(failed)] })).toEqual([
      expect.objectContaining({ title: 'Upload failed' }),
    ]);
    // The same end again (another batch, a 'job' event for its questions): told once.
    expect(watcher.take({ type: 'jobs', jobs: [update(failed)] })).toEqual([]);
    expect(watcher.take({ type: 'job', job: failed })).toEqual([]);
    const retried = job({ startedAt: START + 30_000 });
    expect(watcher.take({ type: 'jobs', jobs: [update(retried)] })).toEqual([]);
    const done = ended('completed', 45_000, { startedAt: START + 30_000 });
    // 15 s from the retry's start: told again.
    expect(watcher.take({ type: 'jobs', jobs: [update(done)] })).toEqual([
      expect.objectContaining({ title: 'Upload finished' }),
    ]);
  });

  it('does not tell of a job first seen already ended, nor of numbers for a job it has not met', () => {
    const watcher = new JobWatcher();
    expect(watcher.take({ type: 'job', job: ended('completed', 60_000) })).toEqual([]);
    expect(watcher.take({ type: 'jobs', jobs: [update(ended('completed', 60_000, { id: 'stranger' }))] })).toEqual([]);
    expect(watcher.take({ type: 'settings', settings: {} as never })).toEqual([]);
  });

  it('says how far the jobs under way are, by bytes; -1 when none is; a dry run does not count', () => {
    const watcher = new JobWatcher();
    expect(watcher.progress()).toBe(-1);
    watcher.take({ type: 'job', job: job({ progress: { ...job().progress, bytesDone: 30, bytesTotal: 100 } }) });
    watcher.take({
      type: 'job',
      job: job({ id: 'j2', progress: { ...job().progress, bytesDone: 10, bytesTotal: 100 } }),
    });
    watcher.take({
      type: 'job',
      job: job({
        id: 'count',
        kind: 'delete',
        dryRun: true,
        progress: { ...job().progress, bytesDone: 0, bytesTotal: 1000 },
      }),
    });
    expect(watcher.progress()).toBeCloseTo(0.2);
    watcher.take({ type: 'jobs-removed', ids: ['j2'] });
    expect(watcher.progress()).toBeCloseTo(0.3);
    watcher.take({ type: 'jobs', jobs: [update(ended('completed', 1000))] });
    expect(watcher.progress()).toBe(-1);
    // No bytes (a delete by key): by objects.
    watcher.take({
      type: 'job',
      job: job({
        id: 'd',
        kind: 'delete',
        progress: { ...job().progress, objectsDone: 1, objectsTotal: 4, bytesDone: 0, bytesTotal: 0 },
      }),
    });
    expect(watcher.progress()).toBeCloseTo(0.25);
  });
});
