// Errors a person can act on.
//
// Every failure that leaves the engine is a BargeError: a stable code for programs (the UI, --json)
// and a sentence for people that says what went wrong and what to do. Secrets never appear in
// either: messages are built from codes, names, paths and endpoints, never from request headers.

import type { JobError } from '../../src/jobs.ts';

export class BargeError extends Error {
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'BargeError';
    this.code = code;
  }
}

interface SdkLikeError {
  name?: string;
  code?: string;
  message?: string;
  Code?: string;
  $metadata?: { httpStatusCode?: number };
  $fault?: string;
}

/** Other stores' names for S3's codes, so the UI and the retry policy see one code per meaning. */
const SYNONYMS: Readonly<Record<string, string>> = {
  XAdminUserNotFound: 'InvalidAccessKeyId', // versitygw
};

/** The most specific code an error carries: S3's error code, Node's errno code, or its name. */
export function errorCode(error: unknown): string {
  const code = rawErrorCode(error);
  return SYNONYMS[code] ?? code;
}

function rawErrorCode(error: unknown): string {
  if (error instanceof BargeError) return error.code;
  const e = (error ?? {}) as SdkLikeError;
  if (e.name === 'AbortError') return 'Cancelled';
  if (typeof e.code === 'string' && /^(E[A-Z_]+|ERR_[A-Z_]+)$/.test(e.code)) return e.code;
  if (e.Code) return e.Code;
  if (e.name && e.name !== 'Error' && e.name !== 'S3ServiceException') return e.name;
  const status = e.$metadata?.httpStatusCode;
  return status ? `Http${status}` : 'Unknown';
}

export function httpStatus(error: unknown): number | undefined {
  return (error as SdkLikeError | undefined)?.$metadata?.httpStatusCode;
}

const HINTS: Readonly<Record<string, string>> = {
  InvalidAccessKeyId: 'The server does not know this access key ID. Check the keys, AWS_PROFILE or --profile.',
  SignatureDoesNotMatch: 'The secret access key does not match the access key ID. Check the credentials.',
  AccessDenied: 'Access denied: these credentials lack permission for this operation.',
  NoSuchBucket: 'The bucket does not exist (check its name and the endpoint).',
  NoSuchKey: 'The object does not exist.',
  NotFound: 'The object does not exist.',
  NoSuchUpload: 'The multipart upload no longer exists on the server (aborted or expired).',
  BucketAlreadyOwnedByYou: 'You already own a bucket with this name.',
  BucketAlreadyExists: 'That bucket name is taken; bucket names are global. Pick another.',
  BucketNotEmpty: 'The bucket is not empty. Delete its objects first (barge rm --recursive).',
  InvalidBucketName: 'The server refused the bucket name.',
  KeyTooLongError: 'The key is longer than the server allows (1,024 bytes in UTF-8).',
  RequestTimeTooSkewed: "This computer's clock is too far from the server's. Set the clock right and try again.",
  PermanentRedirect: 'The bucket is in another region. Set --region (or AWS_REGION) to the bucket\'s region.',
  AuthorizationHeaderMalformed: 'The request was signed for the wrong region. Set --region to the bucket\'s region.',
  CredentialsProviderError: 'No credentials found. Set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or use a profile (AWS_PROFILE or --profile).',
  ECONNREFUSED: 'The connection was refused. Is the endpoint URL right and the server running?',
  ENOTFOUND: 'The endpoint host name does not resolve. Check the endpoint URL.',
  EAI_AGAIN: 'The endpoint host name could not be resolved right now (DNS). Check the network.',
  ECONNRESET: 'The connection was reset by the server or the network.',
  ETIMEDOUT: 'The connection timed out.',
  TimeoutError: 'The server stopped answering (the request timed out).',
  EHOSTUNREACH: 'The endpoint host is unreachable.',
  ENETUNREACH: 'The network is unreachable.',
  ENOENT: 'No such file or folder.',
  EACCES: 'Permission denied.',
  EPERM: 'Operation not permitted.',
  EISDIR: 'Expected a file but found a folder.',
  ENOSPC: 'The disk is full.',
  EROFS: 'The file system is read-only.',
  Cancelled: 'Cancelled.',
};

/**
 * Turn any error into a BargeError, naming what was being done (`context`, such as
 * "upload /data/a.bin to s3://b/a.bin").
 */
export function toBargeError(error: unknown, context?: string): BargeError {
  if (error instanceof BargeError) return error;
  const code = errorCode(error);
  const hint = HINTS[code];
  const detail = hint ?? serverMessage(error) ?? 'Unexpected error.';
  const message = context ? `Cannot ${context}: ${detail}` : detail;
  return new BargeError(code, message, { cause: error });
}

export function toJobError(error: unknown, context?: string): JobError {
  const e = toBargeError(error, context);
  return { code: e.code, message: e.message };
}

/** The server's own message, when it has one worth showing (S3 messages are short and secret-free). */
function serverMessage(error: unknown): string | undefined {
  const e = error as SdkLikeError | undefined;
  const status = e?.$metadata?.httpStatusCode;
  const message = typeof e?.message === 'string' && e.message !== 'UnknownError' && e.message.length < 300 ? e.message : undefined;
  if (message && status) return `${message} (HTTP ${status}).`;
  if (message) return message.endsWith('.') ? message : `${message}.`;
  return status ? `The server answered HTTP ${status}.` : undefined;
}
