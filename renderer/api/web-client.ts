// The BargeApi of a browser talking to the web host over one WebSocket.
//
// The access token comes in the URL's fragment (#token=…), which the browser sends to no server.
// The page keeps it in sessionStorage (this origin's only, and gone with the tab), takes it out of
// the address bar at once, and presents it among the socket's protocols (so the socket opens only
// with it) and on uploads. When the host goes, the window hears it at once (`watchHost`) and tries
// again by itself, with the same token, further apart each time (host-link.ts).

import type {
  ApiEvent,
  BargeApi,
  FilesToUpload,
  HostLink,
  MethodName,
  MethodParams,
  MethodResults,
  PickedFile,
} from '../../src/contract/api.ts';
import { API_PATH, apiProtocols, stagedFileAnswerSchema, stagedFileUrl } from '../../src/contract/api.ts';
import type { Result } from '../../src/contract/result.ts';
import type { JobSummary } from '../../src/jobs.ts';
import { reconnectDelayMs, SILENCE_CHECK_MS, SILENCE_LIMIT_MS } from './host-link.ts';

type Pending = (result: Result<unknown>) => void;

const TOKEN_KEY = 'barge-token';
/** Said by a call made while the host is gone: the notice at the top names the command that starts it. */
const UNREACHABLE = 'The Barge host is not answering: this window connects again by itself once it runs.';

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
  const linkListeners = new Set<(link: HostLink) => void>();
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let socket: Promise<WebSocket> | undefined;
  let link: HostLink = { state: 'connected' };
  /** Tries since the host was lost: each waits longer (host-link.ts). */
  let attempts = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let lastHeard = Date.now();

  function setLink(next: HostLink): void {
    link = next;
    for (const listener of linkListeners) listener(next);
  }

  /** The host is gone (or did not answer a try): the next try is set, further off each time. */
  function lost(): void {
    const delay = reconnectDelayMs(attempts++);
    clearTimeout(retryTimer);
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      void connect().catch(() => undefined);
    }, delay);
    setLink({ state: 'lost', nextTryAt: Date.now() + delay });
  }

  /** The socket is over: its calls fail in words, and the window tries again by itself. */
  function closed(ws: WebSocket): void {
    ws.onclose = null;
    ws.onmessage = null;
    socket = undefined;
    for (const [id, settle] of pending) {
      pending.delete(id);
      settle({ ok: false, error: { code: 'Disconnected', message: 'The connection to the Barge host closed.' } });
    }
    lost();
  }

  function connect(): Promise<WebSocket> {
    socket ??= new Promise<WebSocket>((resolve, reject) => {
      const ws = new WebSocket(
        `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${API_PATH}`,
        apiProtocols(token),
      );
      let opened = false;
      ws.onopen = () => {
        opened = true;
        lastHeard = Date.now();
        attempts = 0;
        clearTimeout(retryTimer);
        retryTimer = undefined;
        resolve(ws);
        if (link.state !== 'connected') setLink({ state: 'connected' });
      };
      ws.onclose = () => {
        if (opened) return closed(ws);
        socket = undefined;
        void whyRefused().then(({ message, tokenRefused }) => {
          // Another token (the host was started again without BARGE_TOKEN): trying again would not help.
          if (tokenRefused) setLink({ state: 'refused', message });
          else lost();
          reject(new Error(message));
        });
      };
      ws.onmessage = (message) => {
        lastHeard = Date.now();
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

  // A host that went silent (a tunnel dropped, a machine asleep) is lost, as one that closed. A
  // check that comes late found this page busy or asleep, not the host silent: its words may be
  // waiting behind the check, so the silence is counted afresh.
  let lastCheck = Date.now();
  setInterval(() => {
    const now = Date.now();
    const late = now - lastCheck > 2 * SILENCE_CHECK_MS;
    lastCheck = now;
    if (late) {
      lastHeard = now;
      return;
    }
    void socket?.then(
      (ws) => {
        if (ws.readyState !== WebSocket.OPEN || Date.now() - lastHeard < SILENCE_LIMIT_MS) return;
        closed(ws);
        ws.close();
      },
      () => undefined,
    );
  }, SILENCE_CHECK_MS);

  /** Why the socket did not open: a browser is not told why an upgrade was refused, so the host is asked. */
  async function whyRefused(): Promise<{ message: string; tokenRefused: boolean }> {
    const answer = await fetch(API_PATH, { headers: { authorization: `Bearer ${token}` } }).catch(() => undefined);
    if (answer?.status === 401)
      return {
        message: 'The host refused the access token. Open the URL it printed when it started.',
        tokenRefused: true,
      };
    if (answer?.status === 503) {
      const said = (await answer.json().catch(() => undefined)) as { error?: { message?: unknown } } | undefined;
      if (typeof said?.error?.message === 'string') return { message: said.error.message, tokenRefused: false };
    }
    return { message: UNREACHABLE, tokenRefused: false };
  }

  async function call<M extends MethodName>(method: M, params: MethodParams<M>): Promise<Result<MethodResults[M]>> {
    // While the host is gone, a click does not knock on it between the window's own tries.
    if (link.state === 'lost' && !socket) return { ok: false, error: { code: 'Disconnected', message: UNREACHABLE } };
    if (link.state === 'refused') return { ok: false, error: { code: 'Disconnected', message: link.message } };
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
  async function uploadFiles({
    connectionId,
    bucket,
    prefix,
    dropped,
    ifExists,
    uploadOptions,
  }: FilesToUpload): Promise<Result<JobSummary>> {
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
    if (entries.size === 0)
      return { ok: false, error: { code: 'NothingToUpload', message: 'There are no files in what was dropped.' } };
    const staged = await call('uploads.stage', {});
    if (!staged.ok) return staged;
    const { stagingId } = staged.value;
    const arriving = { files: files.length, bytes, folders: [...folders] };
    const started = await call('jobs.upload', {
      connectionId,
      bucket,
      prefix,
      staged: { stagingId, entries: [...entries], arriving },
      ifExists,
      uploadOptions,
    });
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
      const response = await fetch(stagedFileUrl(stagingId, relativePath, file.lastModified), {
        method: 'PUT',
        body: file,
        headers: { authorization: `Bearer ${token}` },
      });
      const answer = stagedFileAnswerSchema.safeParse(await response.json().catch(() => undefined));
      return answer.success
        ? answer.data
        : {
            ok: false,
            error: { code: 'InvalidAnswer', message: `The host answered ${response.status} to a file of the upload.` },
          };
    } catch {
      return { ok: false, error: { code: 'Disconnected', message: UNREACHABLE } };
    }
  }

  return {
    call,
    subscribe(listener) {
      listeners.add(listener);
      if (link.state === 'connected') void connect().catch(() => undefined);
      return () => listeners.delete(listener);
    },
    watchHost(listener) {
      linkListeners.add(listener);
      return () => linkListeners.delete(listener);
    },
    uploadFiles,
    // A browser's own dialogs see only its own disk: the window browses the host's folders itself
    // (FolderPicker, through fs.listFolders).
    async pickFolder() {
      return undefined;
    },
  };
}
