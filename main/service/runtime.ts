// One runtime for every host: the engine, its journal, the connection registry, the secret store
// and the service over them, built the same way for the command line, the web host and the
// Electron app. A host says what it is and what it allows; it never builds the parts itself, and
// then talks to the service only: a capability added to the service reaches all three.

import path from 'node:path';
import type { HostInfo } from '../../src/contract/api.ts';
import type { IfExists } from '../../src/if-exists.ts';
import { internalAddressProblem, internalEndpointProblem } from '../../src/internal-endpoints.ts';
import { ownAddressProblem, ownEndpointProblem } from './own-addresses.ts';
import type { SettingsPatch } from '../../src/settings.ts';
import { Engine } from '../engine/engine.ts';
import type { JournalHost } from '../engine/engine.ts';
import { createBargeService } from './barge-service.ts';
import type { BargeService } from './barge-service.ts';
import { ConnectionRegistry } from './connection-registry.ts';
import { openJournalIn } from './data-dir.ts';
import { FileSecretStore } from './secret-store.ts';
import { StagingArea } from './staging-area.ts';
import type { StagingOptions } from './staging-area.ts';
import type { SecretStore } from './secret-store.ts';
import type { DemoStoreLauncher } from './demo-store.ts';

export type HostKind = HostInfo['kind'] | 'cli';

export interface RuntimeOptions {
  readonly host: HostKind;
  /** Where saved connections, secrets and the journal live. */
  readonly dataDir: string;
  /** Said once when something works less well than it should (a journal that cannot be opened). */
  readonly warn: (message: string) => void;
  readonly env?: NodeJS.ProcessEnv;
  readonly settings?: SettingsPatch;
  /** Record jobs so they survive a crash (default true). */
  readonly journal?: boolean;
  /** A host's own keeping of secrets (Electron: the system keychain); default a 0600 file in the data folder. */
  readonly secrets?: SecretStore;
  /**
   * A host reachable by others refuses endpoints on internal addresses (metadata services, loopback, private,
   * link-local...: src/internal-endpoints.ts), by name and by address.
   */
  readonly refuseInternalEndpoints?: boolean;
  readonly downloadFolder?: string;
  readonly downloadRoot?: string;
  readonly defaultIfExists?: IfExists;
  /** Take files a browser sends, staged here until their job no longer needs them (the web host). */
  readonly staging?: StagingOptions;
  /** Serve objects to browsers as their own downloads (the web host): see the service's option. */
  readonly browserDownloads?: boolean;
  /** The callers are pages holding a token (default: on the web host): see the service's option. */
  readonly pageCallers?: boolean;
  /** Starts the local demo store when the window asks. */
  readonly demoStore?: DemoStoreLauncher;
  /** The command that started this host, named by a window that lost it. */
  readonly startedBy?: string;
}

/** Each host restores only its own jobs: the app and the web host, pointed at one folder, keep theirs. */
const JOURNAL_HOSTS: Readonly<Record<HostKind, JournalHost>> = { electron: 'app', web: 'web', cli: 'cli' };

/** What a host others can reach refuses to dial: internal addresses, and this machine's own. */
function hostAddressProblem(address: string): string | undefined {
  return internalAddressProblem(address) ?? ownAddressProblem(address);
}

function hostEndpointProblem(endpoint: string): string | undefined {
  return internalEndpointProblem(endpoint) ?? ownEndpointProblem(endpoint);
}

export async function createRuntime(options: RuntimeOptions): Promise<BargeService> {
  const guarded = options.refuseInternalEndpoints === true;
  const engine = new Engine({
    settings: options.settings,
    env: options.env,
    journal: options.journal === false ? undefined : await openJournalIn(options.dataDir, options.warn, options.env),
    host: JOURNAL_HOSTS[options.host],
    ...(guarded ? { refuseAddress: hostAddressProblem } : {}),
  });
  const registry = new ConnectionRegistry({
    dataDir: options.dataDir,
    engine,
    secrets: options.secrets ?? new FileSecretStore(path.join(options.dataDir, 'secrets.json')),
    env: options.env,
    ...(guarded ? { endpointProblem: hostEndpointProblem, addressProblem: hostAddressProblem } : {}),
  });
  const cli = options.host === 'cli';
  return createBargeService({
    engine,
    registry,
    host: cli ? 'cli' : options.host,
    downloadFolder: options.downloadFolder,
    downloadRoot: options.downloadRoot,
    defaultIfExists: options.defaultIfExists,
    ...(options.staging ? { staging: await StagingArea.open(options.staging) } : {}),
    browserDownloads: options.browserDownloads ?? false,
    // Whoever holds a web host's token must not read its user's disk by naming files.
    pageCallers: options.pageCallers ?? options.host === 'web',
    // The command line resumes by running a command again, and ends what it started when it ends.
    restoreJobs: !cli,
    suspendOnClose: !cli,
    demoStore: options.demoStore,
    startedBy: options.startedBy,
  });
}
