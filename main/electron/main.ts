// The Electron shell: one window, the engine in the main process, and the IPC between them.
//
// Thin on purpose: everything the window can do goes through the same service the web host uses
// (main/service/barge-service.ts). This file wires Electron to it: the app:// scheme that serves the
// window with its content security policy, the IPC handlers (sender checked, payload validated by
// the service), safeStorage for secrets, and the native folder picker.

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, dialog, ipcMain, Notification, protocol, safeStorage, session, shell } from 'electron';
import mime from 'mime';
import { IPC_CHANNELS } from '../../src/contract/ipc-channels.ts';
import { failure } from '../../src/contract/result.ts';
import { createRuntime } from '../service/runtime.ts';
import { FileSecretStore } from '../service/secret-store.ts';
import { CONTENT_SECURITY_POLICY } from '../../src/content-security-policy.ts';
import { createMainWindow, denyAllPermissions, isTrustedSender, lockDown } from './window.ts';
import { showJobNotices } from './job-notices.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const rendererDir = path.join(here, '..', 'renderer');

protocol.registerSchemesAsPrivileged([
  { scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } },
]);

app.enableSandbox();

await app.whenReady();

protocol.handle('app', async (request) => {
  const url = new URL(request.url);
  const file = path.resolve(rendererDir, decodeURIComponent(url.pathname).replace(/^\/+/, '') || 'index.html');
  if (url.host !== 'barge' || !file.startsWith(rendererDir + path.sep))
    return new Response('Not found', { status: 404 });
  try {
    return new Response(await readFile(file), {
      headers: {
        'content-type': mime.getType(file) ?? 'application/octet-stream',
        'content-security-policy': CONTENT_SECURITY_POLICY,
      },
    });
  } catch {
    return new Response('Not found', { status: 404 });
  }
});

denyAllPermissions(session.defaultSession);

// Secrets encrypted with the operating system's keychain, through safeStorage's asynchronous API,
// in a file of their own (the web host keeps plain ones in secrets.json: pointed at the same folder,
// neither reads the other's).
const dataDir = app.getPath('userData');
const secrets = new FileSecretStore(path.join(dataDir, 'secrets.safe-storage.json'), {
  encode: async (plain) => (await safeStorage.encryptStringAsync(plain)).toString('base64'),
  decode: async (stored) => (await safeStorage.decryptStringAsync(Buffer.from(stored, 'base64'))).result,
});
const service = await createRuntime({
  host: 'electron',
  dataDir,
  secrets,
  warn: (message) => console.warn(message),
  downloadFolder: app.getPath('downloads'),
});

app.on('web-contents-created', (_event, contents) => lockDown(contents, (url) => shell.openExternal(url)));

const window = createMainWindow(BrowserWindow, path.join(here, 'preload.cjs'));

// On Linux without a keyring (no GNOME Keyring, no KWallet) safeStorage falls back to a key written
// in Chromium's source: "encrypted" secrets are then as good as plain text. Say so.
if (process.platform === 'linux' && safeStorage.getSelectedStorageBackend() === 'basic_text') {
  const warning =
    'No system keyring was found (GNOME Keyring or KWallet), so saved secret keys are protected only by a ' +
    'fixed key: anyone who can read your files can read them. ' +
    'Install and unlock a keyring, or use AWS profiles (~/.aws) instead of saving secret keys in Barge.';
  console.warn(`Barge: ${warning}`);
  void dialog.showMessageBox(window, {
    type: 'warning',
    title: 'Secrets are not encrypted',
    message: 'Saved secret keys are not protected by a keyring',
    detail: warning,
  });
}

ipcMain.handle(IPC_CHANNELS.call, (event, method: unknown, params: unknown) => {
  if (!isTrustedSender(event.senderFrame?.url, event.senderFrame === event.sender.mainFrame))
    return failure('Forbidden', 'Refused: not from the Barge window.');
  return service.dispatch(String(method), params);
});
ipcMain.handle(IPC_CHANNELS.pickFolder, async (event, defaultPath: unknown) => {
  if (!isTrustedSender(event.senderFrame?.url, event.senderFrame === event.sender.mainFrame)) return undefined;
  const result = await dialog.showOpenDialog(window, {
    properties: ['openDirectory', 'createDirectory'],
    defaultPath: typeof defaultPath === 'string' ? defaultPath : undefined,
  });
  return result.canceled ? undefined : result.filePaths[0];
});
service.subscribe((event) => {
  if (!window.isDestroyed()) window.webContents.send(IPC_CHANNELS.event, event);
});
// Long transfers that end are told by the system, and those under way shown on the taskbar or dock
// icon (Windows shows notifications only of an app with an ID: electron-builder's appId).
if (process.platform === 'win32') app.setAppUserModelId('dev.barge.app');
showJobNotices((listener) => service.subscribe(listener), window, Notification);

await window.loadURL('app://barge/index.html');

app.on('window-all-closed', () => {
  void service.close().finally(() => app.quit());
});
