// Connections: the list, the one in use, and the host the window runs against.

import { create } from 'zustand';
import type { HostInfo } from '../../src/contract/api.ts';
import type { ConnectionCheck, ConnectionInput, ConnectionSummary } from '../../src/contract/models.ts';
import { api, request } from './api.ts';

interface ConnectionsState {
  readonly connections: readonly ConnectionSummary[];
  readonly selectedId: string | undefined;
  readonly host: HostInfo | undefined;
  readonly error: string | undefined;
  /** What the last Test found (or "Testing…" while it runs); cleared when another connection is picked. */
  readonly testStatus: string | undefined;
  /** The connection form, when open: for a new connection, or to edit one. */
  readonly form: ConnectionSummary | 'new' | undefined;
  openForm(form: ConnectionSummary | 'new' | undefined): void;
  load(): Promise<void>;
  select(id: string | undefined): void;
  add(input: ConnectionInput): Promise<ConnectionSummary>;
  edit(id: string, input: ConnectionInput): Promise<ConnectionSummary>;
  remove(id: string): Promise<void>;
  /** Test the connection in use: can it list buckets? */
  test(): Promise<void>;
  /** The demo store's start as it goes: its last line, and whether it is under way or failed. */
  readonly demo: { readonly state: 'starting' | 'failed'; readonly line: string } | undefined;
  /** Start the local demo store (the host builds and seeds it the first time) and use it. */
  openDemo(): Promise<void>;
  /** A line of the demo store's start, from the host's events. */
  demoProgress(line: string): void;
  /**
   * Check a connection as typed in the form, without saving it (`id`: the one being edited, whose
   * stored secret stands in for an empty field). A failed check resolves with what failed; only a
   * draft that is no connection at all rejects.
   */
  check(input: ConnectionInput, id?: string): Promise<ConnectionCheck>;
  /** A folder on the host's machine to download into, or undefined if the user cancelled. */
  pickFolder(defaultPath: string): Promise<string | undefined>;
}

const SELECTED_KEY = 'barge.connection';

export const useConnections = create<ConnectionsState>((set, get) => ({
  connections: [],
  selectedId: undefined,
  host: undefined,
  error: undefined,
  testStatus: undefined,
  form: undefined,
  demo: undefined,
  async openDemo() {
    if (get().demo?.state === 'starting') return;
    set({ demo: { state: 'starting', line: 'Starting the demo store…' } });
    try {
      const opened = await request('demo.open', {});
      await get().load();
      get().select(opened.id);
      set({ demo: undefined });
    } catch (error) {
      set({ demo: { state: 'failed', line: (error as Error).message } });
    }
  },
  demoProgress(line) {
    if (get().demo?.state === 'starting') set({ demo: { state: 'starting', line } });
  },
  openForm(form) {
    set({ form });
  },
  async load() {
    try {
      const [connections, host] = await Promise.all([request('connections.list', {}), request('host.info', {})]);
      const remembered = localStorage.getItem(SELECTED_KEY);
      const known = (id: string | null | undefined): id is string => connections.some((c) => c.id === id);
      const current = get().selectedId;
      // The only connection is the one in use (`npm run demo`'s store, the environment's).
      const selectedId =
        connections.length === 1
          ? connections[0]!.id
          : known(current)
            ? current
            : known(remembered)
              ? remembered
              : connections[0]?.id;
      set({ connections, host, selectedId, error: undefined });
    } catch (error) {
      set({ error: (error as Error).message });
    }
  },
  select(id) {
    if (id) localStorage.setItem(SELECTED_KEY, id);
    set({ selectedId: id, testStatus: undefined });
  },
  async add(input) {
    const added = await request('connections.add', input);
    await get().load();
    get().select(added.id);
    return added;
  },
  async edit(id, input) {
    const edited = await request('connections.edit', { id, input });
    await get().load();
    return edited;
  },
  async remove(id) {
    await request('connections.remove', { id });
    if (get().selectedId === id) set({ selectedId: undefined });
    await get().load();
  },
  async test() {
    const id = get().selectedId;
    if (!id) return;
    set({ testStatus: 'Testing…' });
    try {
      const { buckets } = await request('connections.test', { id });
      set({ testStatus: `Connected: ${buckets} bucket${buckets === 1 ? '' : 's'}.` });
    } catch (error) {
      set({ testStatus: (error as Error).message });
    }
  },
  check(input, id) {
    return request('connections.check', id === undefined ? { input } : { input, id });
  },
  pickFolder(defaultPath) {
    return api().pickFolder(defaultPath);
  },
}));
