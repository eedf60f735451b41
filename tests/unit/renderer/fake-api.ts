// A fake of the window's API for the store tests: answers per method, and every call recorded.

import type {
  ApiEvent,
  BargeApi,
  FilesToUpload,
  HostLink,
  MethodName,
  MethodParams,
  MethodResults,
} from '../../../src/contract/api.ts';
import type { Result } from '../../../src/contract/result.ts';
import type { JobSnapshot } from '../../../src/jobs.ts';
import { setApi } from '../../../renderer/store/api.ts';

type Answer<M extends MethodName> = MethodResults[M] | Error | ((params: MethodParams<M>) => MethodResults[M] | Error);
export type Answers = { [M in MethodName]?: Answer<M> };

export interface FakeApi extends BargeApi {
  readonly calls: { method: string; params: unknown }[];
  /** Push an event to every subscriber, as the engine would. */
  emit(event: ApiEvent): void;
  /** Tell every watcher the link to the host changed, as a browser's client would. */
  link(link: HostLink): void;
  /** What the next uploadFiles answers. */
  uploadAnswer: Result<JobSnapshot>;
  /** What the next pickFolder answers. */
  picked: string | undefined;
}

/** A fake API, set as the one the stores talk through. An Error answer becomes a failed result. */
export function useFakeApi(answers: Answers = {}): FakeApi {
  const listeners = new Set<(event: ApiEvent) => void>();
  const watchers = new Set<(link: HostLink) => void>();
  const fake: FakeApi = {
    calls: [],
    uploadAnswer: { ok: false, error: { code: 'NotSet', message: 'no upload answer set' } },
    picked: undefined,
    async call<M extends MethodName>(method: M, params: MethodParams<M>): Promise<Result<MethodResults[M]>> {
      fake.calls.push({ method, params });
      const answer = (answers as Record<string, unknown>)[method] as Answer<M> | undefined;
      if (answer === undefined) return { ok: false, error: { code: 'NotFaked', message: `${method} is not faked` } };
      const value =
        typeof answer === 'function' ? (answer as (p: MethodParams<M>) => MethodResults[M] | Error)(params) : answer;
      return value instanceof Error
        ? { ok: false, error: { code: 'Refused', message: value.message } }
        : { ok: true, value };
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    emit(event) {
      for (const listener of listeners) listener(event);
    },
    watchHost(watcher) {
      watchers.add(watcher);
      return () => watchers.delete(watcher);
    },
    link(link) {
      for (const watcher of watchers) watcher(link);
    },
    async uploadFiles(request: FilesToUpload) {
      fake.calls.push({ method: 'uploadFiles', params: request });
      return fake.uploadAnswer;
    },
    async pickFolder(defaultPath: string) {
      fake.calls.push({ method: 'pickFolder', params: defaultPath });
      return fake.picked;
    },
  };
  setApi(fake);
  return fake;
}

export function jobSnapshot(id: string, over: Partial<JobSnapshot> = {}): JobSnapshot {
  return {
    id,
    kind: 'upload',
    name: id,
    state: { status: 'running' },
    itemErrors: [],
    createdAt: 0,
    progress: {
      objectsDone: 0,
      objectsFailed: 0,
      objectsTotal: 1,
      bytesDone: 0,
      bytesTotal: 1,
      totalsKnown: true,
      bytesPerSecond: 0,
      etaSeconds: undefined,
    },
    ...over,
  };
}
