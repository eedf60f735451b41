// One connection to a store, tuned for many requests in flight.
//
// Settings come from the connection, then from the AWS conventions every S3 tool honours:
// AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL, AWS_REGION, AWS_PROFILE and the profiles in ~/.aws. Each
// bucket is addressed in its own region (bucket-regions.ts): the connection's region is the default,
// and a region the store names for a bucket wins for it; the SDK's clients (one per region, made on
// demand) and the wire share one socket pool and one credential chain. The
// connection keeps its sockets alive in a pool sized to the thread setting (the SDK's default
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
import { guardChecksumHeaders, learnChecksumHeaderRefusal } from './checksum-headers.ts';
import type { ChecksumHeaders } from './checksum-headers.ts';
import { checkedConnectionSources, checkEndpointAddress } from './connection-sources.ts';
import { S3Wire } from './s3-wire.ts';
import { BucketRegions } from './bucket-regions.ts';
import { RegionalClient } from './regional-client.ts';
import type { StoreChecksumFacts } from '../integrity/upload-checksum.ts';
import { ByteGate } from '../queue/byte-gate.ts';

export type { CrcEcho } from '../integrity/upload-checksum.ts';

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

/** A store's connection; what it has learnt of the store's checksums is `StoreChecksumFacts`' (integrity/). */
export interface S3Connection extends StoreChecksumFacts {
  /** Everything but the data plane: listing, deletes, multipart control, buckets; each in its bucket's region. */
  readonly client: RegionalClient;
  /** The data plane: PutObject, UploadPart, GetObject (see s3-wire.ts). */
  readonly wire: S3Wire;
  /** Which region each bucket is in, as far as the store has said (the connection's region otherwise). */
  readonly regions: BucketRegions;
  /** What every body byte of this connection passes, both ways: the engine's one gate (queue/byte-gate.ts). */
  readonly gate: ByteGate;
  readonly endpoint: ResolvedEndpoint;
  /** Whether the store refused S3's checksum headers, so none is sent (checksum-headers.ts). */
  checksumHeaders: ChecksumHeaders;
  /** Follow new settings (socket pool size, stall timeout); takes effect for the next requests. */
  applySettings(settings: ConnectionSettings): void;
  /**
   * Room in the socket pool for `sockets` more requests beside the Threads setting's, until the release
   * is called: a speed test measures its own concurrency, which the setting must not cap.
   */
  reserveSockets(sockets: number): () => void;
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
  /** The gate its bodies pass (the engine's, shared by every connection); else one of its own, uncapped. */
  readonly gate?: ByteGate;
}

/** Where the connection goes: explicit settings first, then the AWS environment and profile. */
export async function resolveEndpoint(
  config: ConnectionConfig,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ResolvedEndpoint> {
  const endpoint =
    config.endpoint ||
    env.AWS_ENDPOINT_URL_S3 ||
    env.AWS_ENDPOINT_URL ||
    (await profileSetting(config.profile, env, 'endpoint_url'));
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
  const agentOptions = {
    keepAlive: true,
    maxSockets: options.threads + SOCKET_HEADROOM,
    scheduling: 'lifo' as const,
    ...(lookup ? { lookup } : {}),
  };
  const httpAgent = new http.Agent(agentOptions);
  const httpsAgent = new https.Agent(agentOptions);
  const checksum = resolved.checksumMode === 'when_required' ? 'WHEN_REQUIRED' : 'WHEN_SUPPORTED';
  const requestHandler = new NodeHttpHandler({
    httpAgent,
    httpsAgent,
    connectionTimeout: CONNECT_TIMEOUT_MS,
    socketTimeout: options.stallTimeoutMs,
  });
  /** One region's SDK client: the same sockets, endpoint and settings for every region. */
  const makeClient = (clientRegion: string, credentials: Pick<S3ClientConfig, 'credentials' | 'profile'>) => {
    const client = new S3Client({
      region: clientRegion,
      endpoint: resolved.endpoint,
      forcePathStyle: resolved.pathStyle,
      // Regions are followed by the connection, for every bucket (regional-client.ts says why).
      followRegionRedirects: false,
      ...credentials,
      requestChecksumCalculation: checksum,
      responseChecksumValidation: checksum,
      // The engine retries each request itself (see retry-policy.ts).
      maxAttempts: 1,
      requestHandler,
    });
    addContentMd5ToDeleteObjects(client);
    guardChecksumHeaders(client, () => connection);
    return client;
  };
  const home = makeClient(region, credentialsFrom(config, env));
  // The home client's own credential chain (profiles, SSO, refresh), memoized by the SDK, for all.
  const credentials = () => home.config.credentials();
  const regions = new BucketRegions({
    defaultRegion: region,
    // On AWS a bucket's region is asked before its first request; elsewhere learnt from a refusal.
    askFirst: resolved.endpoint === undefined,
    ask: (bucket): Promise<string | undefined> => wire.askBucketRegion(bucket),
  });
  const client = new RegionalClient(regions, (clientRegion) =>
    clientRegion === region ? home : makeClient(clientRegion, { credentials }),
  );
  const gate = options.gate ?? new ByteGate();
  const wire = new S3Wire({
    endpoint: resolved.endpoint,
    region,
    regions,
    pathStyle: resolved.pathStyle,
    credentials,
    httpAgent,
    httpsAgent,
    lookup,
    stallTimeoutMs: options.stallTimeoutMs,
    gate,
    failed: (error, headers) => learnChecksumHeaderRefusal(connection, error, headers),
  });
  let threads = options.threads;
  let reserved = 0;
  const sizePool = () => {
    httpAgent.maxSockets = threads + reserved + SOCKET_HEADROOM;
    httpsAgent.maxSockets = threads + reserved + SOCKET_HEADROOM;
  };
  const connection: S3Connection = {
    client,
    wire,
    regions,
    gate,
    endpoint: resolved,
    uploadChecksum: resolved.uploadChecksum,
    crcEcho: 'unknown',
    trailers: 'unknown',
    checksumHeaders: 'unknown',
    applySettings(settings) {
      threads = settings.threads;
      sizePool();
      requestHandler.updateHttpClientConfig('socketTimeout', settings.stallTimeoutMs);
      wire.stallTimeoutMs = settings.stallTimeoutMs;
    },
    reserveSockets(sockets) {
      reserved += sockets;
      sizePool();
      let released = false;
      return () => {
        if (released) return;
        released = true;
        reserved -= sockets;
        sizePool();
      };
    },
    close() {
      client.destroy();
      wire.close();
      httpAgent.destroy();
      httpsAgent.destroy();
    },
  };
  return connection;
}

/**
 * The keys given, else those of the environment the engine was given (which need not be the
 * process's own: a host may hand it another), else the SDK's chain for the profile.
 */
function credentialsFrom(
  config: ConnectionConfig,
  env: NodeJS.ProcessEnv,
): Pick<S3ClientConfig, 'credentials' | 'profile'> {
  if (config.accessKeyId && config.secretAccessKey) {
    return {
      credentials: {
        accessKeyId: config.accessKeyId,
        secretAccessKey: config.secretAccessKey,
        sessionToken: config.sessionToken,
      },
    };
  }
  if (config.profile) return { profile: config.profile };
  if (env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY && !env.AWS_PROFILE) {
    return {
      credentials: {
        accessKeyId: env.AWS_ACCESS_KEY_ID,
        secretAccessKey: env.AWS_SECRET_ACCESS_KEY,
        sessionToken: env.AWS_SESSION_TOKEN || undefined,
      },
    };
  }
  return env.AWS_PROFILE ? { profile: env.AWS_PROFILE } : {};
}

async function profileSetting(
  profile: string | undefined,
  env: NodeJS.ProcessEnv,
  name: string,
): Promise<string | undefined> {
  const files = await loadSharedConfigFiles({ ignoreCache: true });
  const profileName = profile ?? env.AWS_PROFILE ?? 'default';
  return files.configFile[profileName]?.[name] ?? files.credentialsFile[profileName]?.[name];
}
