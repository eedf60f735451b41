// The main window and the rules every web page in the app lives by.

import type { BrowserWindow, BrowserWindowConstructorOptions, Session, WebContents } from 'electron';
import { APP_ORIGIN } from '../../src/contract/ipc-channels.ts';
import { secureWebPreferences } from './secure-web-preferences.ts';

export type WindowConstructor = new (options: BrowserWindowConstructorOptions) => BrowserWindow;

export function createMainWindow(Window: WindowConstructor, preload: string): BrowserWindow {
  const window = new Window({
    width: 1400,
    height: 860,
    minWidth: 900,
    minHeight: 560,
    title: 'Barge',
    show: false,
    webPreferences: secureWebPreferences(preload),
  });
  window.once('ready-to-show', () => window.show());
  return window;
}

/** Only http(s) links leave the app, and only to the system browser. */
export function isSafeExternalUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:';
  } catch {
    return false;
  }
}

/** No navigation away from the app, no new windows; links go to the system browser after a check. */
export function lockDown(contents: WebContents, openExternal: (url: string) => Promise<void>): void {
  contents.on('will-navigate', (event, url) => {
    if (!url.startsWith(`${APP_ORIGIN}/`)) event.preventDefault();
  });
  contents.setWindowOpenHandler(({ url }) => {
    if (isSafeExternalUrl(url)) void openExternal(url);
    return { action: 'deny' };
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

/**
 * Every permission a page could ask for (camera, microphone, notifications, geolocation, clipboard,
 * HID, serial...) is refused, asked or checked: the window needs none.
 */
export function denyAllPermissions(
  session: Pick<Session, 'setPermissionRequestHandler' | 'setPermissionCheckHandler'>,
): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
}

/** Whether an IPC message comes from our own window's top frame, showing our own page. */
export function isTrustedSender(frameUrl: string | undefined, isMainFrame: boolean): boolean {
  return isMainFrame && frameUrl !== undefined && frameUrl.startsWith(`${APP_ORIGIN}/`);
}
