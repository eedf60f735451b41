import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { JobSummary } from '../../../src/jobs.ts';

/** Notifications the stand-in browser showed. */
let shown: { title: string; body?: string; tag?: string }[];

/** The browser's Notification API as a stand-in: a permission, a prompt that answers `answer`. */
function stubBrowser(answer: NotificationPermission): { requestPermission: ReturnType<typeof vi.fn> } {
  const requestPermission = vi.fn(async () => {
    FakeNotification.permission = answer;
    return answer;
  });
  class FakeNotification {
    static permission: NotificationPermission = 'default';
    static requestPermission = requestPermission;
    onclick: (() => void) | null = null;
    constructor(title: string, options: NotificationOptions = {}) {
      shown.push({ title, body: options.body, tag: options.tag });
    }
    close() {}
  }
  const stored = new Map<string, string>();
  vi.stubGlobal('Notification', FakeNotification);
  vi.stubGlobal('isSecureContext', true);
  vi.stubGlobal('localStorage', {
    getItem: (key: string) => stored.get(key) ?? null,
    setItem: (key: string, value: string) => stored.set(key, value),
    removeItem: (key: string) => stored.delete(key),
  });
  return { requestPermission };
}

const START = 1_000_000;
const running: JobSummary = {
  id: 'j1',
  kind: 'upload',
  name: 'photos → s3://b/',
  state: { status: 'running' },
  createdAt: START,
  startedAt: START,
  progress: {
    objectsDone: 0,
    objectsFailed: 0,
    objectsTotal: 2,
    bytesDone: 0,
    bytesTotal: 2048,
    totalsKnown: true,
    bytesPerSecond: 0,
    etaSeconds: undefined,
  },
};
const completed = (endedAt: number) =>
  ({
    type: 'jobs',
    jobs: [
      {
        id: 'j1',
        state: { status: 'completed' },
        progress: { ...running.progress, objectsDone: 2, bytesDone: 2048 },
        startedAt: START,
        endedAt,
      },
    ],
  }) as const;

async function loadStore() {
  return (await import('../../../renderer/store/notifications-store.ts')).useNotifications;
}

beforeEach(() => {
  shown = [];
  vi.resetModules();
});
afterEach(() => vi.unstubAllGlobals());

it("asks the browser only when turned on; then tells of a long transfer's end, once; turned off, it tells nothing", async () => {
  const browser = stubBrowser('granted');
  const notifications = await loadStore();
  expect(browser.requestPermission).not.toHaveBeenCalled();
  expect(notifications.getState()).toMatchObject({ enabled: false, support: 'default' });

  // Before notices are on: followed, not told.
  notifications.getState().received({ type: 'job', job: running });
  notifications.getState().received(completed(START + 60_000));
  expect(shown).toEqual([]);

  await notifications.getState().enable();
  expect(browser.requestPermission).toHaveBeenCalledTimes(1);
  expect(notifications.getState()).toMatchObject({ enabled: true, support: 'granted' });
  expect(localStorage.getItem('barge.notify')).toBe('on');
  // A retry, run for a minute: told, under the job's tag.
  notifications.getState().received({ type: 'jobs', jobs: [{ ...running, startedAt: START + 100_000 }] });
  notifications
    .getState()
    .received({ type: 'jobs', jobs: [{ ...completed(START + 160_000).jobs[0], startedAt: START + 100_000 }] });
  expect(shown).toEqual([
    { title: 'Upload finished', body: 'photos → s3://b/\n2 objects, 2.00 KiB in 1m00s.', tag: 'barge-job-j1' },
  ]);
  // A quick one is not.
  notifications.getState().received({ type: 'job', job: { ...running, id: 'quick' } });
  notifications.getState().received({ type: 'jobs', jobs: [{ ...completed(START + 3_000).jobs[0], id: 'quick' }] });
  expect(shown).toHaveLength(1);

  notifications.getState().disable();
  expect(localStorage.getItem('barge.notify')).toBeNull();
  notifications.getState().received({ type: 'jobs', jobs: [{ ...running, startedAt: START + 200_000 }] });
  notifications
    .getState()
    .received({ type: 'jobs', jobs: [{ ...completed(START + 260_000).jobs[0], startedAt: START + 200_000 }] });
  expect(shown).toHaveLength(1);
});

it('stays off where the browser refuses, and where a page has no Notification API', async () => {
  stubBrowser('denied');
  const notifications = await loadStore();
  await notifications.getState().enable();
  expect(notifications.getState()).toMatchObject({ enabled: false, support: 'denied' });
  expect(localStorage.getItem('barge.notify')).toBeNull();

  vi.unstubAllGlobals();
  vi.resetModules();
  vi.stubGlobal('localStorage', { getItem: () => null, setItem: () => undefined, removeItem: () => undefined });
  const without = await loadStore();
  expect(without.getState().support).toBe('unsupported');
  await without.getState().enable();
  expect(without.getState().enabled).toBe(false);
});
