// On Linux, Electron hands a Notification's body to libnotify as it is
// (shell/browser/notifications/linux/libnotify_notification.cc: notify_notification_new(title, body)),
// and notification servers that advertise "body-markup" (GNOME Shell, KDE, xfce4-notifyd, dunst, mako)
// read it as Pango markup: <b>, <i>, <u>, <a href>, <img>, and entities. A job's name holds the folder
// its keys are in (commonParent), and a failed job's message holds whole keys: text a store's other
// users choose. Such text must reach the body escaped (&amp; &lt; &gt;), or a key draws a link in a
// system notification the desktop presents as Barge's, and a stray "&" or "<" blanks the body on
// servers that fail to parse it.

import type { NotificationConstructorOptions } from 'electron';
import { expect, it } from 'vitest';
import { notificationText, showJobNotices } from '../../../../main/electron/job-notices.ts';
import type { NoticeWindow, NotificationClass } from '../../../../main/electron/job-notices.ts';
import type { ApiEvent } from '../../../../src/contract/api.ts';
import type { JobSummary } from '../../../../src/jobs.ts';

const START = 1_000_000;
// Two keys downloaded from a folder a store's other user named.
const folder = '<b>Session expired</b> <a href="https://evil.example/login">Sign in again</a> & <img src="https://evil.example/t.png">';
const job: JobSummary = {
  id: 'j1', kind: 'download', name: `2 files in s3://shared/${folder}/`, state: { status: 'running' }, createdAt: START, startedAt: START,
  progress: { objectsDone: 0, objectsFailed: 0, objectsTotal: 2, bytesDone: 0, bytesTotal: 200, totalsKnown: true, bytesPerSecond: 0, etaSeconds: undefined },
};

it.runIf(process.platform === 'linux')('escapes markup in what it hands to a Linux notification', () => {
  const shown: NotificationConstructorOptions[] = [];
  class FakeNotification {
    static isSupported() {
      return true;
    }
    constructor(options: NotificationConstructorOptions) {
      shown.push(options);
    }
    on() {
      return this;
    }
    show() {}
  }
  const window: NoticeWindow = { isDestroyed: () => false, setProgressBar: () => undefined, isMinimized: () => false, restore: () => undefined, show: () => undefined, focus: () => undefined };
  let emit: (event: ApiEvent) => void = () => undefined;
  showJobNotices((listener) => {
    emit = listener;
    return () => undefined;
  }, window, FakeNotification as unknown as NotificationClass);
  emit({ type: 'job', job });
  emit({ type: 'jobs', jobs: [{ ...job, state: { status: 'completed' }, endedAt: START + 30_000, progress: { ...job.progress, objectsDone: 2, bytesDone: 200 } }] });
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
