// The BargeApi of a browser talking to the web host over one WebSocket.
//
// The access token comes in the URL's fragment (#token=…), which the browser sends to no server.
// The page keeps it in sessionStorage (this origin's only, and gone with the tab), takes it out of
// the address bar at once, and presents it among the socket's protocols (so the socket opens only
// with it) and on uploads.

import type { ApiEvent, BargeApi, FilesToUpload, MethodName, MethodParams, MethodResults, PickedFile } from '../../src/contract/api.ts';
import { API_PATH, apiProtocols, stagedFileAnswerSchema, stagedFileUrl } from '../../src/contract/api.ts';
import type { Result } from '../../src/contract/result.ts';
import type { JobSummary } from '../../src/jobs.ts';

type Pending = (result: Result<unknown>) => void;

const TOKEN_KEY = 'barge-token';
const UNREACHABLE = 'Cannot reach the Barge host. Is "npm run serve" still running?';

function accessToken(): string {
  const fromFragment = /(?:^#|&)token=([A-Za-z0-9_-]+)/.exec(location.hash)?.[1];
  if (fromFragment) {
    sessionStorage.setItem(TOKEN_KEY, fromFragment);
    history.replaceState(null, '', location.pathname);
  }
  return sessionStorage.getItem(TOKEN_KEY) ?? '';
}

export function createWebClient(): BargeApi {
  const token = accessToken();
  const listeners = new Set<(event: ApiEvent) => void>();
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let socket: Promise<WebSocket> | undefined;

  function connect(): Promise<WebSocket> {
    socket ??= new Promise<WebSocket>((resolve, reject) => {
      const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${API_PATH}`, apiProtocols(token));
      let opened = false;
      ws.onopen = () => {
        opened = true;
        resolve(ws);
      };
      ws.onclose = () => {
        socket = undefined;
        if (!opened) {
          void whyRefused().then((message) => reject(new Error(message)));
          return;
        }
        for (const [id, settle] of pending) {
          pending.delete(id);
          settle({ ok: false, error: { code: 'Disconnected', message: 'The connection to the Barge host closed.' } });
        }
        // Reconnect while anyone listens, so progress keeps coming after a host restart.
        if (listeners.size > 0) setTimeout(() => void connect().catch(() => undefined), 1000);
      };
      ws.onmessage = (message) => {
        const data = JSON.parse(String(message.data)) as { id?: number; result?: Result<unknown>; event?: ApiEvent };
        if (data.event) for (const listener of listeners) listener(data.event);
        else if (typeof data.id === 'number') {
          pending.get(data.id)?.(data.result!);
          pending.delete(data.id);
        }
      };
    });
    return socket;
  }

  /** Why the socket did not open: a browser is not told why an upgrade was refused, so the host is asked. */
  async function whyRefused(): Promise<string> {
    const answer = await fetch(API_PATH, { headers: { authorization: `Bearer ${token}` } }).catch(() => undefined);
    if (answer?.status === 401) return 'The host refused the access token. Open the URL that "npm run serve" printed.';
    if (answer?.status === 503) {
      const said = (await answer.json().catch(() => undefined)) as { error?: { message?: unknown } } | undefined;
      if (typeof said?.error?.message === 'string') return said.error.message;
    }
    return UNREACHABLE;
  }

  async function call<M extends MethodName>(method: M, params: MethodParams<M>): Promise<Result<MethodResults[M]>> {
    let ws: WebSocket;
    try {
      ws = await connect();
    } catch (error) {
      return { ok: false, error: { code: 'Disconnected', message: (error as Error).message } };
    }
    const id = nextId++;
    return new Promise((resolve) => {
      pending.set(id, resolve as Pending);
      ws.send(JSON.stringify({ id, method, params }));
    });
  }

  // A page may not name the host's files: it sends them to a staging batch, which the upload takes.
  // The job starts first, saying what is coming, so it is on screen from the first byte (its first
  // phase counts them arriving, with a rate and Cancel); the files follow, one after another.
  async function uploadFiles({ connectionId, bucket, prefix, dropped }: FilesToUpload): Promise<Result<JobSummary>> {
    const files = await dropped.files();
    const entries = new Set<string>();
    const folders = new Set<string>();
    let bytes = 0;
    for (const { file, relativePath } of files) {
      const [top, ...below] = relativePath.split('/');
      entries.add(top!);
      if (below.length > 0) folders.add(top!);
      bytes += file.size;
    }
    if (entries.size === 0) return { ok: false, error: { code: 'NothingToUpload', message: 'There are no files in what was dropped.' } };
    const staged = await call('uploads.stage', {});
    if (!staged.ok) return staged;
    const { stagingId } = staged.value;
    const arriving = { files: files.length, bytes, folders: [...folders] };
    const started = await call('jobs.upload', { connectionId, bucket, prefix, staged: { stagingId, entries: [...entries], arriving } });
    if (started.ok) void sendFiles(stagingId, files);
    return started;
  }

  /**
   * The files of a started upload, in order. One refused, or cut off (Cancel), ends the sending:
   * the host has failed or stopped the job, and its row says why.
   */
  async function sendFiles(stagingId: string, files: readonly PickedFile[]): Promise<void> {
    for (const { file, relativePath } of files) {
      const sent = await sendStagedFile(stagingId, relativePath, file);
      if (!sent.ok) return;
    }
  }

  async function sendStagedFile(stagingId: string, relativePath: string, file: File): Promise<Result<null>> {
    try {
      const response = await fetch(stagedFileUrl(stagingId, relativePath), { method: 'PUT', body: file, headers: { authorization: `Bearer ${token}` } });
      const answer = stagedFileAnswerSchema.safeParse(await response.json().catch(() => undefined));
      return answer.success ? answer.data : { ok: false, error: { code: 'InvalidAnswer', message: `The host answered ${response.status} to a file of the upload.` } };
    } catch {
      return { ok: false, error: { code: 'Disconnected', message: UNREACHABLE } };
    }
  }

  return {
    call,
    subscribe(listener) {
      listeners.add(listener);
      void connect().catch(() => undefined);
      return () => listeners.delete(listener);
    },
    uploadFiles,
    // A browser's own dialogs see only its own disk: the window browses the host's folders itself
    // (FolderPicker, through fs.listFolders).
    async pickFolder() {
      return undefined;
    },
  };
}
