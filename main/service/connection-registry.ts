// The connections the window can pick: saved ones, plus those the AWS environment already defines
// (the AWS_* variables, and every profile in ~/.aws) so that an operator with a working AWS setup
// types nothing.

import { createHash, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { lookup } from 'node:dns/promises';
import path from 'node:path';
import { internalAddressProblem } from '../../src/internal-endpoints.ts';
import { isRegion, REGION_RULE } from '../../src/region.ts';
import { loadSharedConfigFiles } from '@smithy/core/config';
import type { ConnectionConfig } from '../../src/connection.ts';
import { redactedUrl } from '../../src/connection.ts';
import type { ConnectionCheck, ConnectionInput, ConnectionSummary } from '../../src/contract/models.ts';
import type { Engine, S3Connection } from '../engine/engine.ts';
import { BargeError } from '../engine/errors.ts';
import { writeJsonFileAtomically } from './atomic-json-file.ts';
import { DEMO_CONNECTION_ID } from './demo-store.ts';
import type { DemoStoreAccess } from './demo-store.ts';
import type { SecretStore } from './secret-store.ts';

export const ENVIRONMENT_CONNECTION_ID = 'env';
/** A profile's settings that give credentials of its own (any one is enough). */
const CREDENTIAL_SOURCES = [
  'aws_secret_access_key',
  'sso_session',
  'sso_start_url',
  'role_arn',
  'credential_process',
  'web_identity_token_file',
  'login_session',
] as const;
const PROFILE_PREFIX = 'profile:';
const SESSION_PREFIX = 'session:';

interface SavedConnection {
  readonly id: string;
  readonly name: string;
  readonly endpoint?: string;
  readonly region?: string;
  readonly pathStyle?: boolean;
  readonly profile?: string;
  readonly accessKeyId?: string;
  readonly checksumMode?: ConnectionConfig['checksumMode'];
  readonly uploadChecksum?: ConnectionConfig['uploadChecksum'];
}

export class ConnectionRegistry {
  private saved: SavedConnection[] | undefined;
  /** Connections for this process only (the command line's), by ID. */
  private readonly sessions = new Map<string, ConnectionConfig>();
  private readonly open = new Map<string, Promise<S3Connection>>();
  /** The demo store, once a host started it: listed, never saved (its port changes each start). */
  private demo: (ConnectionConfig & { readonly endpoint: string }) | undefined;
  private readonly file: string;
  private readonly engine: Engine;
  private readonly secrets: SecretStore;
  private readonly env: NodeJS.ProcessEnv;
  private readonly endpointProblem: ((endpoint: string) => string | undefined) | undefined;
  private readonly addressProblem: (address: string) => string | undefined;

  /**
   * `endpointProblem`: endpoints this host refuses (the web host, reachable beyond loopback,
   * refuses internal addresses: metadata services, loopback, private and link-local ranges, and the
   * machine's own); `addressProblem`: the same for each address an endpoint's name resolves to.
   */
  constructor(options: {
    dataDir: string;
    engine: Engine;
    secrets: SecretStore;
    env?: NodeJS.ProcessEnv;
    endpointProblem?: (endpoint: string) => string | undefined;
    addressProblem?: (address: string) => string | undefined;
  }) {
    this.file = path.join(options.dataDir, 'connections.json');
    this.engine = options.engine;
    this.secrets = options.secrets;
    this.env = options.env ?? process.env;
    this.endpointProblem = options.endpointProblem;
    this.addressProblem = options.addressProblem ?? internalAddressProblem;
  }

  private async checkResolved(endpoint: string): Promise<void> {
    const host = new URL(endpoint).hostname.replace(/^\[|\]$/g, '');
    const addresses = await lookup(host, { all: true }).catch(() => []);
    for (const { address } of addresses) {
      const problem = this.addressProblem(address);
      if (problem)
        throw new BargeError(
          'EndpointRefused',
          `This host refuses the endpoint ${endpoint}, whose name resolves to an address it refuses: ` +
            `${problem}. (Start it with --allow-internal-endpoints if that is really your store.)`,
        );
    }
  }

  /** Where a connection goes: an endpoint this host allows, and a region that is a region (it names hosts). */
  private checkPlace(place: { readonly endpoint?: string; readonly region?: string }, whose = 'The region'): void {
    const problem = place.endpoint ? this.endpointProblem?.(place.endpoint) : undefined;
    if (problem)
      throw new BargeError(
        'EndpointRefused',
        `This host refuses the endpoint ${place.endpoint}: ${problem}. (Start it with ` +
          `--allow-internal-endpoints if that is really your store.)`,
      );
    if (place.region && !isRegion(place.region))
      throw new BargeError(
        'InvalidRegion',
        `${whose} is not a region ("${place.region.slice(0, 80)}"): ${REGION_RULE}.`,
      );
  }

  async list(): Promise<ConnectionSummary[]> {
    const found: ConnectionSummary[] = [];
    const env = this.env;
    if (env.AWS_ACCESS_KEY_ID || env.AWS_ENDPOINT_URL || env.AWS_ENDPOINT_URL_S3 || env.AWS_PROFILE) {
      found.push({
        id: ENVIRONMENT_CONNECTION_ID,
        name: 'Environment (AWS_*)',
        source: 'environment',
        endpoint: env.AWS_ENDPOINT_URL_S3 || env.AWS_ENDPOINT_URL || undefined,
        region: env.AWS_REGION || env.AWS_DEFAULT_REGION || undefined,
        profile: env.AWS_PROFILE || undefined,
        accessKeyId: env.AWS_ACCESS_KEY_ID || undefined,
        hasSecret: Boolean(env.AWS_SECRET_ACCESS_KEY),
      });
    }
    for (const profile of await this.profiles()) {
      found.push({
        id: `${PROFILE_PREFIX}${profile.name}`,
        name: `AWS profile: ${profile.name}`,
        source: 'profile',
        profile: profile.name,
        endpoint: profile.endpoint,
        region: profile.region,
        hasSecret: profile.hasSecret,
      });
    }
    if (this.demo)
      found.push({
        id: DEMO_CONNECTION_ID,
        name: 'Demo store (local MinIO)',
        source: 'demo',
        endpoint: this.demo.endpoint,
        region: this.demo.region,
        accessKeyId: this.demo.accessKeyId,
        hasSecret: true,
        pathStyle: true,
      });
    for (const saved of await this.load()) found.push(await this.summary(saved));
    return found;
  }

  /** Offer the demo store a host started (on loopback, so no endpoint check refuses it). */
  useDemo(access: DemoStoreAccess): ConnectionSummary {
    if (this.demo?.endpoint !== access.endpoint) this.forget(DEMO_CONNECTION_ID);
    this.demo = { ...access, pathStyle: true };
    return {
      id: DEMO_CONNECTION_ID,
      name: 'Demo store (local MinIO)',
      source: 'demo',
      endpoint: access.endpoint,
      region: access.region,
      accessKeyId: access.accessKeyId,
      hasSecret: true,
      pathStyle: true,
    };
  }

  /**
   * A connection for this process only, never saved and without a secret (credentials come from the
   * environment or a profile). Its ID is a digest of its settings and of the environment's endpoint,
   * profile and region: the same command run again names the same connection, and so the same job.
   */
  openSession(config: ConnectionConfig): ConnectionSummary {
    this.checkPlace(config);
    const env = this.env;
    const identity = {
      ...config,
      endpoint: config.endpoint ?? env.AWS_ENDPOINT_URL_S3 ?? env.AWS_ENDPOINT_URL,
      profile: config.profile ?? env.AWS_PROFILE,
      region: config.region ?? env.AWS_REGION,
    };
    const id = `${SESSION_PREFIX}${createHash('sha256').update(JSON.stringify(identity)).digest('hex').slice(0, 32)}`;
    this.sessions.set(id, config);
    return {
      id,
      name: identity.endpoint ?? 'AWS',
      source: 'environment',
      endpoint: identity.endpoint,
      region: identity.region,
      profile: identity.profile,
      hasSecret: false,
      pathStyle: config.pathStyle,
      checksumMode: config.checksumMode,
      uploadChecksum: config.uploadChecksum,
    };
  }

  async add(input: ConnectionInput): Promise<ConnectionSummary> {
    this.checkPlace(input);
    const saved = toSaved(randomUUID(), input);
    if (input.secretAccessKey) await this.secrets.set(saved.id, input.secretAccessKey);
    await this.store([...(await this.load()), saved]);
    return this.summary(saved);
  }

  async edit(id: string, input: ConnectionInput): Promise<ConnectionSummary> {
    const all = await this.load();
    const index = all.findIndex((c) => c.id === id);
    if (index < 0)
      throw new BargeError(
        'NoSuchConnection',
        'Only saved connections can be edited; this one comes from the AWS environment.',
      );
    this.checkPlace(input);
    const saved = toSaved(id, input);
    // An empty secret keeps the stored one: the window never has it to send back.
    if (input.secretAccessKey) await this.secrets.set(id, input.secretAccessKey);
    if (!saved.accessKeyId) await this.secrets.delete(id);
    await this.store(all.map((c, i) => (i === index ? saved : c)));
    this.forget(id);
    return this.summary(saved);
  }

  async remove(id: string): Promise<void> {
    const all = await this.load();
    if (!all.some((c) => c.id === id))
      throw new BargeError('NoSuchConnection', 'Only saved connections can be removed.');
    await this.store(all.filter((c) => c.id !== id));
    await this.secrets.delete(id);
    this.forget(id);
  }

  /**
   * Whether a connection as typed reaches its store, without saving it. `existingId`: the saved
   * connection being edited, whose stored secret stands in for an empty one (as saving it would
   * keep it). This host's refusals of endpoints apply as to a saved connection.
   */
  async check(input: ConnectionInput, existingId?: string): Promise<ConnectionCheck> {
    const blank = (value: string | undefined) => (value ? value : undefined);
    const accessKeyId = blank(input.accessKeyId);
    let secretAccessKey = blank(input.secretAccessKey);
    if (
      !secretAccessKey &&
      accessKeyId &&
      existingId !== undefined &&
      (await this.load()).some((c) => c.id === existingId)
    ) {
      secretAccessKey = await this.secrets.get(existingId);
    }
    if (accessKeyId && !secretAccessKey)
      return {
        ok: false,
        failed: 'credentials',
        field: 'secretAccessKey',
        code: 'MissingSecret',
        message: 'Enter the secret access key that goes with this access key ID.',
      };
    if (secretAccessKey && !accessKeyId)
      return {
        ok: false,
        failed: 'credentials',
        field: 'accessKeyId',
        code: 'MissingAccessKeyId',
        message: 'Enter the access key ID that goes with this secret access key.',
      };
    // A region that is no region fails in the engine, as the check's answer (failed: region).
    const config: ConnectionConfig = {
      endpoint: blank(input.endpoint),
      region: blank(input.region),
      pathStyle: input.pathStyle,
      profile: blank(input.profile),
      accessKeyId,
      secretAccessKey,
      checksumMode: input.checksumMode,
      uploadChecksum: input.uploadChecksum,
    };
    return this.engine.checkConnection(config, {
      // Where it really goes once the environment has had its say, and what its name resolves to.
      vet: async (opened) => {
        this.checkPlace({ endpoint: opened.endpoint.endpoint });
        if (this.endpointProblem && opened.endpoint.endpoint) await this.checkResolved(opened.endpoint.endpoint);
      },
    });
  }

  /**
   * The connection as a job's history names it: its name, where it goes, and whose keys it signs with (a
   * profile or an access key ID; never a secret).
   */
  async label(id: string): Promise<string> {
    const config = await this.config(id);
    const env = this.env;
    const name = (await this.list()).find((each) => each.id === id)?.name;
    // An endpoint from the environment is taken as it is, a user name and password in it too: never kept.
    const endpoint = redactedUrl(config.endpoint ?? (env.AWS_ENDPOINT_URL_S3 || env.AWS_ENDPOINT_URL || 'AWS'));
    const profile = config.profile ?? (config.accessKeyId ? undefined : env.AWS_PROFILE);
    const accessKeyId = config.accessKeyId ?? (profile ? undefined : env.AWS_ACCESS_KEY_ID);
    const whose = profile ? `profile ${profile}` : accessKeyId ? `key ${accessKeyId}` : undefined;
    return [name && name !== endpoint ? name : undefined, endpoint, whose].filter(Boolean).join(' · ');
  }

  /** The S3 connection for `id`, opened once and kept. */
  connection(id: string): Promise<S3Connection> {
    let connection = this.open.get(id);
    if (!connection) {
      // The demo store is this host's own, on loopback by design: the one internal address allowed.
      connection = this.config(id)
        .then((config) => this.engine.connect(config, { internalAllowed: id === DEMO_CONNECTION_ID }))
        .then(async (opened) => {
          // Where it really goes, once the environment and profiles have had their say, and what its
          // name resolves to (a name may point at an internal address).
          try {
            if (id === DEMO_CONNECTION_ID) return opened;
            this.checkPlace({ endpoint: opened.endpoint.endpoint });
            if (this.endpointProblem && opened.endpoint.endpoint) await this.checkResolved(opened.endpoint.endpoint);
          } catch (error) {
            opened.close();
            throw error;
          }
          return opened;
        });
      connection.catch(() => this.open.delete(id));
      this.open.set(id, connection);
    }
    return connection;
  }

  private async config(id: string): Promise<ConnectionConfig> {
    if (id === ENVIRONMENT_CONNECTION_ID) return {};
    if (id.startsWith(PROFILE_PREFIX)) return { profile: id.slice(PROFILE_PREFIX.length) };
    const session = this.sessions.get(id);
    if (session) return session;
    if (id === DEMO_CONNECTION_ID) {
      if (!this.demo)
        throw new BargeError('NoSuchConnection', 'The demo store is not running: open it again from the window.');
      return this.demo;
    }
    const saved = (await this.load()).find((c) => c.id === id);
    if (!saved) throw new BargeError('NoSuchConnection', 'That connection no longer exists.');
    // Saved before regions were checked, or written into the file by hand: checked as it is used.
    this.checkPlace({ region: saved.region }, `The region of the connection "${saved.name}"`);
    const secretAccessKey = saved.accessKeyId ? await this.secrets.get(id) : undefined;
    if (saved.accessKeyId && !secretAccessKey)
      throw new BargeError(
        'MissingSecret',
        `The connection "${saved.name}" has no secret access key stored: edit it and enter the key.`,
      );
    return {
      endpoint: saved.endpoint,
      region: saved.region,
      pathStyle: saved.pathStyle,
      profile: saved.profile,
      accessKeyId: saved.accessKeyId,
      secretAccessKey,
      checksumMode: saved.checksumMode,
      uploadChecksum: saved.uploadChecksum,
    };
  }

  private forget(id: string): void {
    const connection = this.open.get(id);
    this.open.delete(id);
    void connection?.then(
      (c) => c.close(),
      () => undefined,
    );
  }

  private async summary(saved: SavedConnection): Promise<ConnectionSummary> {
    return {
      ...saved,
      source: 'saved',
      hasSecret: saved.accessKeyId ? (await this.secrets.get(saved.id)) !== undefined : false,
    };
  }

  /**
   * Why a profile cannot give a page's connection credentials, or undefined: it is not there, or it
   * holds none of its own (keys, a role, SSO, a credential process, a web identity), so the SDK would
   * go on down its chain to the container's or the instance's credentials.
   */
  async profileProblem(name: string): Promise<BargeError | undefined> {
    const profile = (await this.profiles()).find((each) => each.name === name);
    if (!profile)
      return new BargeError(
        'NoSuchProfile',
        `No profile ${name} in ~/.aws/config or ~/.aws/credentials on the host: check its name.`,
      );
    if (!profile.hasSecret) {
      return new BargeError(
        'MissingCredentials',
        `The profile ${name} holds no credentials of its own (keys, a role, SSO, a credential process or a web ` +
          `identity): give this connection its keys, or name a profile that has them. The host does not lend ` +
          `its own credentials to a connection named in the window.`,
      );
    }
    return undefined;
  }

  private async profiles(): Promise<{ name: string; region?: string; endpoint?: string; hasSecret: boolean }[]> {
    const files = await loadSharedConfigFiles({ ignoreCache: true });
    const names = new Set([...Object.keys(files.configFile), ...Object.keys(files.credentialsFile)]);
    return [...names].sort().map((name) => {
      const settings = { ...files.credentialsFile[name], ...files.configFile[name] };
      return {
        name,
        region: settings.region,
        endpoint: settings.endpoint_url,
        hasSecret: CREDENTIAL_SOURCES.some((setting) => Boolean(settings[setting])),
      };
    });
  }

  private async load(): Promise<SavedConnection[]> {
    if (this.saved) return this.saved;
    try {
      this.saved = JSON.parse(await readFile(this.file, 'utf8')) as SavedConnection[];
    } catch {
      this.saved = [];
    }
    return this.saved;
  }

  private async store(all: SavedConnection[]): Promise<void> {
    await writeJsonFileAtomically(this.file, all, { indent: 2 });
    this.saved = all;
  }
}

function toSaved(id: string, input: ConnectionInput): SavedConnection {
  const blank = (value: string | undefined) => (value ? value : undefined);
  return {
    id,
    name: input.name,
    endpoint: blank(input.endpoint),
    region: blank(input.region),
    pathStyle: input.pathStyle,
    profile: blank(input.profile),
    accessKeyId: blank(input.accessKeyId),
    checksumMode: input.checksumMode,
    uploadChecksum: input.uploadChecksum,
  };
}
