// The desktop app tells of its jobs outside its window: a system notification when a transfer longer
// than 10 s finishes or fails (src/job-notices.ts decides, as it does for the web host's window),
// and how far the transfers under way are on the taskbar or dock icon. Fed the service's events in
// the main process, so it works with the window hidden or minimised; typed against Electron's own
// classes, which are handed in (tested without Electron's binary).

import type { BrowserWindow, Notification, NotificationConstructorOptions } from 'electron';
import type { ApiEvent } from '../../src/contract/api.ts';
import { JobWatcher } from '../../src/job-notices.ts';

export interface NotificationClass {
  new (options: NotificationConstructorOptions): Notification;
  isSupported(): boolean;
}

export type NoticeWindow = Pick<
  BrowserWindow,
  'isDestroyed' | 'setProgressBar' | 'isMinimized' | 'restore' | 'show' | 'focus'
>;

/**
 * Follow `subscribe`'s events: notifications for long jobs that end, the icon's progress bar for those under way.
 * Returns the unsubscribe.
 */
/**
 * On Linux, Electron hands a notification's text to libnotify as it is, and most notification
 * servers (GNOME, KDE, xfce, dunst, mako) read the body as markup: a key named "<a href=…>" would
 * draw a link in a notice the desktop shows as Barge's. Escaped, it reads as typed.
 */
export function notificationText(text: string, platform: NodeJS.Platform = process.platform): string {
  return platform === 'linux' ? text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;') : text;
}

export function showJobNotices(
  subscribe: (listener: (event: ApiEvent) => void) => () => void,
  window: NoticeWindow,
  NotificationClass: NotificationClass,
): () => void {
  const watcher = new JobWatcher();
  // Held until clicked or closed: a notification nothing refers to may be collected, and its click lost.
  const open = new Set<Notification>();
  let bar = -1;
  return subscribe((event) => {
    if (window.isDestroyed()) return;
    for (const notice of watcher.take(event)) {
      if (!NotificationClass.isSupported()) break;
      const notification = new NotificationClass({
        title: notificationText(notice.title),
        body: notificationText(notice.body),
      });
      open.add(notification);
      notification.on('click', () => {
        open.delete(notification);
        if (window.isMinimized()) window.restore();
        window.show();
        window.focus();
      });
      notification.on('close', () => open.delete(notification));
      notification.show();
    }
    // In whole percent: the icon is redrawn only when its bar moves.
    const progress = watcher.progress();
    const next = progress < 0 ? -1 : Math.round(progress * 100) / 100;
    if (next !== bar) {
      bar = next;
      window.setProgressBar(next);
    }
  });
}
