import { describe, expect, it } from 'vitest';
import { HISTORY_POINTS, mergeJobs, pushBounded } from '../../../renderer/store/jobs-store.ts';
import type { JobSnapshot } from '../../../src/jobs.ts';

function job(id: string, createdAt: number, bytesPerSecond = 0): JobSnapshot {
  return {
    id, kind: 'upload', name: id, state: { status: 'running' }, itemErrors: [], createdAt,
    progress: { objectsDone: 0, objectsFailed: 0, objectsTotal: 1, bytesDone: 0, bytesTotal: 1, totalsKnown: true, bytesPerSecond, etaSeconds: undefined },
  };
}

describe('jobs store', () => {
  it('keeps a bounded speed history', () => {
    let history: number[] = [];
    for (let i = 0; i < HISTORY_POINTS + 10; i++) history = pushBounded(history, i);
    expect(history).toHaveLength(HISTORY_POINTS);
    expect(history.at(-1)).toBe(HISTORY_POINTS + 9);
    expect(history[0]).toBe(10);
  });

  it('merges batches: new jobs first (newest on top), updates in place, history per job', () => {
    let state = mergeJobs(new Map(), [], new Map(), [job('a', 1, 10), job('b', 2, 20)]);
    expect(state.order).toEqual(['b', 'a']);
    state = mergeJobs(state.jobs, state.order, state.history, [job('a', 1, 30), job('c', 3)]);
    expect(state.order).toEqual(['c', 'b', 'a']);
    expect(state.jobs.get('a')!.progress.bytesPerSecond).toBe(30);
    expect(state.history.get('a')).toEqual([10, 30]);
    expect(state.history.get('b')).toEqual([20]);
  });

  it('handles a thousand jobs in one batch', () => {
    const batch = Array.from({ length: 1000 }, (_, i) => job(`j${i}`, i));
    const state = mergeJobs(new Map(), [], new Map(), batch);
    expect(state.order).toHaveLength(1000);
    expect(state.order[0]).toBe('j999');
  });
});
