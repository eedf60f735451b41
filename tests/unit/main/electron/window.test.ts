// The Electron window's security settings, checked without Electron's binary: the window factory
// takes the BrowserWindow class, so a stand-in records what the real one would be given.

import type { BrowserWindow, BrowserWindowConstructorOptions, WebContents } from 'electron';
import { describe, expect, it } from 'vitest';
import {
  createMainWindow,
  denyAllPermissions,
  isSafeExternalUrl,
  isTrustedSender,
  lockDown,
} from '../../../../main/electron/window.ts';

describe('the Electron window', () => {
  it('refuses every permission a page asks for or checks', () => {
    let request: ((contents: unknown, permission: string, callback: (granted: boolean) => void) => void) | undefined;
    let check: ((...args: unknown[]) => boolean) | undefined;
    denyAllPermissions({
      setPermissionRequestHandler: (handler: typeof request) => {
        request = handler;
      },
      setPermissionCheckHandler: (handler: typeof check) => {
        check = handler;
      },
    } as never);
    const answers: boolean[] = [];
    for (const permission of ['media', 'notifications', 'geolocation', 'clipboard-read', 'hid', 'openExternal'])
      request!(undefined, permission, (granted) => answers.push(granted));
    expect(answers).toEqual([false, false, false, false, false, false]);
    expect(check!(undefined, 'media', 'app://barge', {})).toBe(false);
  });

  it('is created with context isolation, the sandbox, no Node and web security on', () => {
    let given: BrowserWindowConstructorOptions | undefined;
    class RecordingWindow {
      constructor(options: BrowserWindowConstructorOptions) {
        given = options;
      }
      once() {}
    }
    createMainWindow(
      RecordingWindow as unknown as new (o: BrowserWindowConstructorOptions) => BrowserWindow,
      '/app/preload.cjs',
    );
    expect(given?.webPreferences).toMatchObject({
      preload: '/app/preload.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    });
  });

  it('blocks navigation away from the app and new windows; only http(s) links go to the system browser', () => {
    const handlers: Record<string, (event: { preventDefault(): void }, url: string) => void> = {};
    let openHandler: ((details: { url: string }) => { action: string }) | undefined;
    const contents = {
      on: (name: string, handler: (event: { preventDefault(): void }, url: string) => void) => {
        handlers[name] = handler;
      },
      setWindowOpenHandler: (handler: typeof openHandler) => {
        openHandler = handler;
      },
    } as unknown as WebContents;
    const opened: string[] = [];
    lockDown(contents, async (url) => {
      opened.push(url);
    });

    let prevented = 0;
    const event = {
      preventDefault: () => {
        prevented += 1;
      },
    };
    handlers['will-navigate']!(event, 'https://evil.example/');
    handlers['will-navigate']!(event, 'app://barge/index.html');
    expect(prevented).toBe(1);
    expect(openHandler!({ url: 'https://docs.example/help' })).toEqual({ action: 'deny' });
    expect(openHandler!({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
    expect(opened).toEqual(['https://docs.example/help']);
  });

  it('trusts IPC only from the app page in the top frame', () => {
    expect(isTrustedSender('app://barge/index.html', true)).toBe(true);
    expect(isTrustedSender('app://barge/index.html', false)).toBe(false);
    expect(isTrustedSender('https://evil.example/', true)).toBe(false);
    expect(isTrustedSender(undefined, true)).toBe(false);
    expect(isSafeExternalUrl('javascript:alert(1)')).toBe(false);
  });
});
