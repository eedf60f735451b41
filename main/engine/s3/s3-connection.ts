// One S3 client per connection, tuned for many requests in flight.
//
// Settings come from the connection, then from the AWS conventions every S3 tool honours:
// AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL, AWS_REGION, AWS_PROFILE and the profiles in ~/.aws. The
// client keeps its connections alive in a socket pool sized to the thread setting (the SDK's default
// pool of 50 would cap a 128-thread transfer), and fails a request whose socket goes quiet instead of
// hanging on it. Downloads' GETs keep sockets of their own (direct-get.ts): as many as requests in
// flight, which the scheduler holds to the thread setting, each closed after a few idle seconds.

import { http, https } from './node-http.ts';
import { S3Client } from '@aws-sdk/client-s3';
import type { S3ClientConfig } from '@aws-sdk/client-s3';
import { guardedLookup } from './guarded-lookup.ts';
import type { AddressPolicy } from './guarded-lookup.ts';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { loadSharedConfigFiles } from '@smithy/core/config';
import type { ChecksumMode, ConnectionConfig, UploadChecksum } from '../../../src/connection.ts';
import { addContentMd5ToDeleteObjects } from './content-md5-middleware.ts';
import { checkedConnectionSources, checkEndpointAddress } from './connection-sources.ts';
import { S3Wire } from './s3-wire.ts';
import type { CrcEcho } from '../integrity/upload-checksum.ts';

/** Sockets beyond the thread count, for listings and control requests beside the transfers. */
const SOCKET_HEADROOM = 8;
const CONNECT_TIMEOUT_MS = 10_000;

export interface ResolvedEndpoint {
  /** Undefined for AWS itself. */
  readonly endpoint: string | undefined;
  readonly pathStyle: boolean;
  readonly checksumMode: ChecksumMode;
  readonly uploadChecksum: UploadChecksum;
}

export interface S3Connection {
  /** Everything but the data plane: listing, deletes, multipart control, buckets. */
  readonly client: S3Client;
  /** The data plane: PutObject, UploadPart, GetObject (see s3-wire.ts). */
  readonly wire: S3Wire;
  readonly endpoint: ResolvedEndpoint;
  /** What uploads carry (see upload-checksum.ts). */
  readonly uploadChecksum: UploadChecksum;
  /** Whether the store has echoed a CRC (so checks it), or answered without one (ignores them). */
  crcEcho: CrcEcho;
  /** The request finding out whether the store echoes CRCs, while one is (see upload-checksum.ts). */
  crcProbe?: Promise<void>;
  /** Whether the store took a checksum sent after the body (trailing-checksum.ts), or refused one. */
  trailers: 'unknown' | 'taken' | 'refused';
  /** Follow new settings (socket pool size, stall timeout); takes effect for the next requests. */
  applySettings(settings: ConnectionSettings): void;
  close(): void;
}

export interface ConnectionSettings {
  readonly threads: number;
  /** Idle time after which a request's socket is abandoned (and the request retried by the engine). */
  readonly stallTimeoutMs: number;
}

export interface OpenConnectionOptions extends ConnectionSettings {
  readonly env?: NodeJS.ProcessEnv;
  /** Addresses no socket of this connection may dial (checked as each one connects). */
  readonly refuseAddress?: AddressPolicy;
}

/** Where the connection goes: explicit settings first, then the AWS environment and profile. */
export async function resolveEndpoint(config: ConnectionConfig, env: NodeJS.ProcessEnv = process.env): Promise<ResolvedEndpoint> {
  const endpoint = config.endpoint || env.AWS_ENDPOINT_URL_S3 || env.AWS_ENDPOINT_URL || (await profileSetting(config.profile, env, 'endpoint_url'));
  const custom = endpoint !== undefined && !/\.amazonaws\.com(\.cn)?(:\d+)?\/?$/i.test(new URL(endpoint).host);
  return {
    endpoint,
    // Self-hosted stores rarely have the wildcard DNS that virtual-hosted addressing needs.
    pathStyle: config.pathStyle ?? custom,
    checksumMode: config.checksumMode ?? (custom ? 'when_required' : 'when_supported'),
    uploadChecksum: config.uploadChecksum ?? (custom ? 'CRC32C' : 'CRC64NVME'),
  };
}

export async function openConnection(config: ConnectionConfig, options: OpenConnectionOptions): Promise<S3Connection> {
  const env = options.env ?? process.env;
  // Resolved once (the SDK would call a region function for every request, re-reading ~/.aws);
  // a missing profile or a region that is no region is refused before anything is dialled.
  const { region } = await checkedConnectionSources(config, env);
  const resolved = await resolveEndpoint(config, env);
  checkEndpointAddress(resolved.endpoint, options.refuseAddress);
  const lookup = options.refuseAddress ? guardedLookup(options.refuseAddress) : undefined;
  const agentOptions = { keepAlive: true, maxSockets: options.threads + SOCKET_HEADROOM, scheduling: 'lifo' as const, ...(lookup ? { lookup } : {}) };
  const httpAgent = new http.Agent(agentOptions);
  const httpsAgent = new https.Agent(agentOptions);
  const checksum = resolved.checksumMode === 'when_required' ? 'WHEN_REQUIRED' : 'WHEN_SUPPORTED';
  const requestHandler = new NodeHttpHandler({ httpAgent, httpsAgent, connectionTimeout: CONNECT_TIMEOUT_MS, socketTimeout: options.stallTimeoutMs });
  const client = new S3Client({
    region,
    endpoint: resolved.endpoint,
    forcePathStyle: resolved.pathStyle,
    followRegionRedirects: resolved.endpoint === undefined,
    ...credentialsFrom(config, env),
    requestChecksumCalculation: checksum,
    responseChecksumValidation: checksum,
    // The engine retries each request itself (see retry-policy.ts).
    maxAttempts: 1,
    requestHandler,
  });
  addContentMd5ToDeleteObjects(client);
  const wire = new S3Wire({
    endpoint: resolved.endpoint,
    region,
    pathStyle: resolved.pathStyle,
    // The client's own credential chain (profiles, SSO, refresh), memoized by the SDK.
    credentials: () => client.config.credentials(),
    httpAgent,
    httpsAgent,
    lookup,
    stallTimeoutMs: options.stallTimeoutMs,
  });
  return {
    client,
    wire,
    endpoint: resolved,
    uploadChecksum: resolved.uploadChecksum,
    crcEcho: 'unknown',
    trailers: 'unknown',
    applySettings(settings) {
      httpAgent.maxSockets = settings.threads + SOCKET_HEADROOM;
      httpsAgent.maxSockets = settings.threads + SOCKET_HEADROOM;
      requestHandler.updateHttpClientConfig('socketTimeout', settings.stallTimeoutMs);
      wire.stallTimeoutMs = settings.stallTimeoutMs;
    },
    close() {
      client.destroy();
      wire.close();
      httpAgent.destroy();
      httpsAgent.destroy();
    },
  };
}

/**
 * The keys given, else those of the environment the engine was given (which need not be the
 * process's own: a host may hand it another), else the SDK's chain for the profile.
 */
function credentialsFrom(config: ConnectionConfig, env: NodeJS.ProcessEnv): Pick<S3ClientConfig, 'credentials' | 'profile'> {
  if (config.accessKeyId && config.secretAccessKey) {
    return { credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey, sessionToken: config.sessionToken } };
  }
  if (config.profile) return { profile: config.profile };
  if (env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY && !env.AWS_PROFILE) {
    return { credentials: { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY, sessionToken: env.AWS_SESSION_TOKEN || undefined } };
  }
  return env.AWS_PROFILE ? { profile: env.AWS_PROFILE } : {};
}

async function profileSetting(profile: string | undefined, env: NodeJS.ProcessEnv, name: string): Promise<string | undefined> {
  const files = await loadSharedConfigFiles({ ignoreCache: true });
  const profileName = profile ?? env.AWS_PROFILE ?? 'default';
  return files.configFile[profileName]?.[name] ?? files.credentialsFile[profileName]?.[name];
}
