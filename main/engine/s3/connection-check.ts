// Whether a connection, as typed, reaches its store: one ListBuckets, tried once, within a short
// time, on a connection opened for the check and closed after it. When it fails, what failed is said
// plainly (the name does not resolve, nothing listens, TLS, the keys, the region, no answer in time)
// with the field of the connection form to correct. Keys accepted but not allowed to list buckets
// are a working connection: the check says so and passes.
//
// Messages are built from codes, names and the endpoint, never from a request: no secret is in one.

import { ListBucketsCommand } from '@aws-sdk/client-s3';
import type { ConnectionConfig } from '../../../src/connection.ts';
import type { ConnectionCheck, ConnectionFailure, ConnectionField } from '../../../src/contract/models.ts';
import { errorCode, httpStatus, notS3Message, toBargeError } from '../errors.ts';
import type { S3Connection } from './s3-connection.ts';

/** How long a check waits for the store: enough for a far store's handshake, short enough to wait for in a form. */
export const CHECK_TIMEOUT_MS = 10_000;

const DNS = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME', 'EAI_NODATA']);
const UNREACHABLE = new Set([
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'ENETDOWN',
  'EADDRNOTAVAIL',
  'ECONNRESET',
  'EPIPE',
]);
const TIMEOUT = new Set(['ETIMEDOUT', 'TimeoutError', 'RequestTimeout', 'ECONNABORTED']);
const REGION = new Set([
  'AuthorizationHeaderMalformed',
  'PermanentRedirect',
  'IllegalLocationConstraintException',
  'InvalidRegion',
]);
const TLS = /^(EPROTO|ERR_SSL_|ERR_TLS_|CERT_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_)/;

export interface CheckOptions {
  readonly timeoutMs?: number;
  /** Looks at the connection once opened, before any request (a host's refusal of the address it goes to). */
  readonly vet?: (connection: S3Connection) => Promise<void>;
}

/** Open a connection with `open`, list the buckets once, close it: what happened, in the contract's words. */
export async function checkConnection(
  config: ConnectionConfig,
  open: () => Promise<S3Connection>,
  options: CheckOptions = {},
): Promise<ConnectionCheck> {
  const timeoutMs = options.timeoutMs ?? CHECK_TIMEOUT_MS;
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), timeoutMs);
  let connection: S3Connection | undefined;
  try {
    connection = await open();
    await options.vet?.(connection);
    const list = new ListBucketsCommand({});
    let type: string | undefined;
    list.middlewareStack.add(
      (next) => async (args) => {
        const result = await next(args);
        type = (result.response as { headers?: Record<string, string> } | undefined)?.headers?.['content-type'];
        return result;
      },
      { step: 'initialize', name: 'bargeCheckAnswerType' },
    );
    const answer = await connection.client.send(list, { abortSignal: deadline.signal });
    // A web page read as XML ("Welcome to nginx!") parses, and lists no buckets: an S3 answer names
    // its owner or its list of buckets (even an empty one), and a web page neither.
    if (answer.Buckets === undefined && answer.Owner === undefined) return notS3(200, type);
    return { ok: true, buckets: answer.Buckets?.length ?? 0 };
  } catch (error) {
    if (deadline.signal.aborted) {
      return failed(
        'timeout',
        'endpoint',
        'Timeout',
        `The store did not answer within ${Math.round(timeoutMs / 1000)} seconds: check the endpoint URL, and ` +
          `that nothing on the way (a firewall, a proxy) holds the connection.`,
      );
    }
    return describeCheckFailure(error, config);
  } finally {
    clearTimeout(timer);
    connection?.close();
  }
}

/** A failed check's error, sorted: what failed, which field, and what to do. */
export function describeCheckFailure(error: unknown, config: ConnectionConfig): ConnectionCheck {
  // A host's own refusal of the address (guarded-lookup.ts, the registry) is no errno.
  const raw = (error as { code?: unknown } | undefined)?.code;
  if (raw === 'EndpointRefused') return failed('endpoint', 'endpoint', 'EndpointRefused', toBargeError(error).message);
  const code = errorCode(error);
  if (code === 'AccessDenied' || code === 'AllAccessDisabled') {
    return {
      ok: true,
      buckets: undefined,
      note: 'The store accepted these keys, but they may not list buckets: only buckets they may open will work.',
    };
  }
  if (DNS.has(code)) {
    const now = code === 'EAI_AGAIN' ? ' right now (check the network too)' : '';
    return failed(
      'dns',
      'endpoint',
      code,
      `The endpoint's host name does not resolve${now} (DNS): check the endpoint URL.`,
    );
  }
  if (code === 'ECONNREFUSED')
    return failed(
      'refused',
      'endpoint',
      code,
      'Nothing answers at the endpoint (connection refused): check its host and port, and that the store is running.',
    );
  if (UNREACHABLE.has(code))
    return failed(
      'unreachable',
      'endpoint',
      code,
      `The endpoint cannot be reached (${code}): check its address, and the network.`,
    );
  if (TIMEOUT.has(code))
    return failed(
      'timeout',
      'endpoint',
      code,
      'The store did not answer in time: check the endpoint URL, and the network.',
    );
  if (TLS.test(code)) return failed('tls', 'endpoint', code, toBargeError(error).message);
  if (code === 'Redirect') return failed('endpoint', 'endpoint', code, toBargeError(error).message);
  if (code === 'NotS3') return failed('not-s3', 'endpoint', code, toBargeError(error).message);
  // S3 answers a list of buckets with XML, an error with its code: an answer with neither is some
  // other server's (a web server's 404 page, a proxy's 502), whatever its status says.
  if (!hasS3Code(error)) return notS3(httpStatus(error), undefined);
  if (code === 'InvalidAccessKeyId') {
    return failed(
      'keys',
      'accessKeyId',
      code,
      `The store does not know this access key ID (it answered ${httpStatus(error) ?? 403} ` +
        `InvalidAccessKeyId): check the access key ID.`,
    );
  }
  if (code === 'SignatureDoesNotMatch') {
    return failed(
      'keys',
      'secretAccessKey',
      code,
      `The secret access key does not match the access key ID (the store answered ${httpStatus(error) ?? 403} ` +
        `SignatureDoesNotMatch): check the secret access key.`,
    );
  }
  if (code === 'InvalidToken' || code === 'ExpiredToken')
    return failed('keys', 'accessKeyId', code, toBargeError(error).message);
  if (REGION.has(code)) return failed('region', 'region', code, toBargeError(error).message);
  if (code === 'NoSuchProfile') return failed('credentials', 'profile', code, toBargeError(error).message);
  if (code === 'CredentialsProviderError') {
    return config.profile
      ? failed(
          'credentials',
          'profile',
          code,
          `The AWS profile "${config.profile}" gives no credentials on the machine running Barge: check its ` +
            `name, and the ~/.aws files there.`,
        )
      : failed(
          'credentials',
          'accessKeyId',
          code,
          'No credentials were found: give an access key ID and a secret access key, or an AWS profile.',
        );
  }
  return failed('other', undefined, code, toBargeError(error).message);
}

/** Whether a failed request's answer named an S3 error code (the SDK's `Code`, or a name it found in the body). */
function hasS3Code(error: unknown): boolean {
  const e = error as { Code?: unknown; name?: unknown; $metadata?: { httpStatusCode?: unknown } } | undefined;
  if (e?.$metadata?.httpStatusCode === undefined) return true;
  if (typeof e.Code === 'string') return true;
  // The names the SDK gives an answer whose body named no code.
  return (
    typeof e.name === 'string' &&
    !['NotFound', 'Unknown', 'Error', 'S3ServiceException', 'UnknownError'].includes(e.name)
  );
}

function notS3(status: number | undefined, type: string | undefined): ConnectionCheck {
  return failed('not-s3', 'endpoint', 'NotS3', notS3Message(status, type));
}

function failed(
  kind: ConnectionFailure,
  field: ConnectionField | undefined,
  code: string,
  message: string,
): ConnectionCheck {
  return { ok: false, failed: kind, field, code, message };
}
