// The desktop app's notifications and taskbar progress, checked without Electron's binary: the
// Notification class and the window are stand-ins that record what the real ones would be told.

import type { NotificationConstructorOptions } from 'electron';
import { expect, it } from 'vitest';
import { notificationText, showJobNotices } from '../../../../main/electron/job-notices.ts';
import type { NoticeWindow, NotificationClass } from '../../../../main/electron/job-notices.ts';
import type { ApiEvent } from '../../../../src/contract/api.ts';
import type { JobSummary } from '../../../../src/jobs.ts';

const START = 1_000_000;
const job: JobSummary = {
  id: 'j1',
  kind: 'download',
  name: 'photos in s3://b/',
  state: { status: 'running' },
  createdAt: START,
  startedAt: START,
  progress: {
    objectsDone: 0,
    objectsFailed: 0,
    objectsTotal: 4,
    bytesDone: 0,
    bytesTotal: 400,
    totalsKnown: true,
    bytesPerSecond: 0,
    etaSeconds: undefined,
  },
};

/** The notices module over stand-ins: what it showed, the click listeners, the bar, the window's calls. */
function stage() {
  const shown: NotificationConstructorOptions[] = [];
  const clicks: (() => void)[] = [];
  class FakeNotification {
    static isSupported() {
      return true;
    }
    constructor(options: NotificationConstructorOptions) {
      shown.push(options);
    }
    on(event: string, listener: () => void) {
      if (event === 'click') clicks.push(listener);
      return this;
    }
    show() {}
  }
  const bars: number[] = [];
  const calls: string[] = [];
  const window: NoticeWindow = {
    isDestroyed: () => false,
    setProgressBar: (progress: number) => bars.push(progress),
    isMinimized: () => true,
    restore: () => calls.push('restore'),
    show: () => calls.push('show'),
    focus: () => calls.push('focus'),
  };
  let emit: (event: ApiEvent) => void = () => undefined;
  showJobNotices(
    (listener) => {
      emit = listener;
      return () => undefined;
    },
    window,
    FakeNotification as unknown as NotificationClass,
  );
  return { shown, clicks, bars, calls, emit: (event: ApiEvent) => emit(event) };
}

it("tells of a long job's end with a notification that brings the window forward, and shows the transfers under way on the icon", () => {
  const { shown, clicks, bars, calls, emit } = stage();
  emit({ type: 'job', job });
  emit({ type: 'jobs', jobs: [{ ...job, progress: { ...job.progress, bytesDone: 100 } }] });
  emit({ type: 'jobs', jobs: [{ ...job, progress: { ...job.progress, bytesDone: 101 } }] });
  emit({
    type: 'jobs',
    jobs: [
      {
        ...job,
        state: { status: 'failed', error: { code: 'NoSuchKey', message: '1 of 4 failed' } },
        endedAt: START + 30_000,
        progress: { ...job.progress, objectsDone: 3, objectsFailed: 1, bytesDone: 300 },
      },
    ],
  });
  expect(bars).toEqual([0, 0.25, -1]);
  expect(shown).toEqual([{ title: 'Download failed', body: 'photos in s3://b/\n1 of 4 objects failed.' }]);
  clicks[0]!();
  expect(calls).toEqual(['restore', 'show', 'focus']);
});

// On Linux, Electron hands a notification's text to libnotify as it is, and notification servers
// that read body markup (GNOME Shell, KDE, xfce4-notifyd, dunst, mako) would draw <b>, <a href> and
// <img> from a key a store's other user chose (a job's name holds its keys' folder).
it.runIf(process.platform === 'linux')('escapes markup in what it hands to a Linux notification', () => {
  const { shown, emit } = stage();
  const folder =
    '<b>Session expired</b> <a href="https://evil.example/login">Sign in again</a> & <img src="https://evil.example/t.png">';
  const named = { ...job, name: `2 files in s3://shared/${folder}/` };
  emit({ type: 'job', job: named });
  emit({
    type: 'jobs',
    jobs: [
      {
        ...named,
        state: { status: 'completed' },
        endedAt: START + 30_000,
        progress: { ...named.progress, objectsDone: 4, bytesDone: 400 },
      },
    ],
  });
  expect(shown).toHaveLength(1);
  const body = String(shown[0]!.body);
  expect(body).not.toMatch(/<a |<b>|<img /);
  expect(body).toContain('&lt;a href=');
});

it('leaves the text as it is where notifications take no markup', () => {
  expect(notificationText('a <b> & c', 'darwin')).toBe('a <b> & c');
  expect(notificationText('a <b> & c', 'win32')).toBe('a <b> & c');
  expect(notificationText('a <b> & c', 'linux')).toBe('a &lt;b&gt; &amp; c');
});
