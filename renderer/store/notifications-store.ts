// Notifications in a browser: a transfer longer than 10 s that finishes or fails is told through the
// browser's Notification API, once the user has turned them on (a click: browsers ask for the
// permission only then, never on load). Which ends are news is src/job-notices.ts's, which the
// desktop app's main process uses too (there the app tells, through Electron, and the window does not).

import { create } from 'zustand';
import type { ApiEvent } from '../../src/contract/api.ts';
import { JobWatcher } from '../../src/job-notices.ts';

/** What the browser allows: its own permission, or 'unsupported' (no API here, or not a secure context). */
export type NotificationSupport = NotificationPermission | 'unsupported';

interface NotificationsState {
  /** The user turned notices on (kept in this browser). */
  readonly enabled: boolean;
  readonly support: NotificationSupport;
  /** Turn notices on: asks the browser's permission first (call it from a click). */
  enable(): Promise<void>;
  disable(): void;
  /** An engine event: a long job that has just ended is told, if notices are on and allowed. */
  received(event: ApiEvent): void;
}

const ENABLED_KEY = 'barge.notify';

/** The browser's Notification API, where a page may use it. */
function browserNotification(): typeof Notification | undefined {
  return typeof Notification === 'undefined' || !globalThis.isSecureContext ? undefined : Notification;
}

function support(): NotificationSupport {
  return browserNotification()?.permission ?? 'unsupported';
}

const watcher = new JobWatcher();

export const useNotifications = create<NotificationsState>((set, get) => ({
  enabled: globalThis.localStorage?.getItem(ENABLED_KEY) === 'on',
  support: support(),
  async enable() {
    const api = browserNotification();
    const permission = api ? await api.requestPermission() : 'unsupported';
    const enabled = permission === 'granted';
    if (enabled) localStorage.setItem(ENABLED_KEY, 'on');
    set({ enabled, support: permission });
  },
  disable() {
    localStorage.removeItem(ENABLED_KEY);
    set({ enabled: false });
  },
  received(event) {
    // Followed whether or not notices are on: one turned on mid-job tells of that job's end.
    const notices = watcher.take(event);
    const api = browserNotification();
    if (notices.length === 0 || !get().enabled || api?.permission !== 'granted') return;
    // One per job (its tag): a newer end of the same job replaces the older.
    for (const notice of notices) {
      const shown = new api(notice.title, { body: notice.body, tag: `barge-job-${notice.id}` });
      // A click brings the window's tab forward.
      shown.onclick = () => {
        globalThis.focus();
        shown.close();
      };
    }
  },
}));
