// Every error code the engine sorts, and how: one table.
//
// A code's retry class says what one failed request does next (retry-policy.ts); `jobWide` says what
// the job does once a request has failed for good: a code that fails every item alike (wrong
// credentials, no such bucket, an untrusted certificate, a full disk) stops the job at the first,
// rather than trying and failing a million items one by one (jobs/job.ts). The two are apart:
// a DNS failure is retried as a passing fault and, if it lasts, ends the job.
//
// `rerun` says what running the same job again does for an item that failed with the code: most
// may pass (a passing fault, or one the user fixes outside Barge: permissions, a full disk), so the
// command line advises running it again; some fail the same way whatever happens (the key is not
// there, the name is refused, the store lacks the feature), and one fails again unless the user
// answers otherwise (a file already there: --if-exists, the window's Retry asks).
//
// Codes are the engine's (errors.ts's `errorCode`): S3's error codes, Node's errno and TLS codes,
// and a few of Barge's own. What a person is told about each lives in errors.ts.

import type { Rerun } from '../../src/jobs.ts';

/** What one failed request does next. `fatal`: not retried for its code (its HTTP status may still say otherwise). */
export type RetryClass = 'throttle' | 'transient' | 'unreachable' | 'clock-skew' | 'resend' | 'fatal';

export interface ErrorCodeClass {
  readonly retry: RetryClass;
  /** Fails every item of a job alike, so the job stops at the first. */
  readonly jobWide: boolean;
  /** What running the job again does for an item that failed with it; absent: it may pass. */
  readonly rerun?: Rerun;
}

/** The store asks for fewer requests: retried after a longer backoff. */
const THROTTLE: ErrorCodeClass = { retry: 'throttle', jobWide: false };
/** A fault of one request (a dropped connection, a server hiccup, damaged bytes): retried. */
const TRANSIENT: ErrorCodeClass = { retry: 'transient', jobWide: false };
/** Nothing answers: a server restarting (waited out once it has answered), or a wrong endpoint. */
const UNREACHABLE: ErrorCodeClass = { retry: 'unreachable', jobWide: true };
/** The clock is off: retried once, with the offset the failed answer taught. */
const CLOCK_SKEW: ErrorCodeClass = { retry: 'clock-skew', jobWide: false };
/** The store refused something the connection has now learnt not to send: sent again at once, using no attempt. */
const RESEND: ErrorCodeClass = { retry: 'resend', jobWide: false };
/** Wrong for this request and every other: not retried, and the job stops. */
const FATAL_JOB_WIDE: ErrorCodeClass = { retry: 'fatal', jobWide: true };
/** Wrong for this item whatever is tried: the same run again fails it the same way. */
const SAME_AGAIN: ErrorCodeClass = { retry: 'fatal', jobWide: false, rerun: 'fails-again' };

const TABLE: Readonly<Record<string, ErrorCodeClass>> = {
  SlowDown: THROTTLE,
  Throttling: THROTTLE,
  ThrottlingException: THROTTLE,
  ThrottledException: THROTTLE,
  RequestThrottled: THROTTLE,
  RequestThrottledException: THROTTLE,
  RequestLimitExceeded: THROTTLE,
  TooManyRequests: THROTTLE,
  TooManyRequestsException: THROTTLE,
  ServiceUnavailable: THROTTLE,

  InternalError: TRANSIENT,
  RequestTimeout: TRANSIENT,
  RequestTimeoutException: TRANSIENT,
  TimeoutError: TRANSIENT,
  ECONNRESET: TRANSIENT,
  EPIPE: TRANSIENT,
  ETIMEDOUT: TRANSIENT,
  ECONNABORTED: TRANSIENT,
  ERR_STREAM_PREMATURE_CLOSE: TRANSIENT,
  StalledTransfer: TRANSIENT,
  IncompleteBody: TRANSIENT,
  XMinioServerNotInitialized: TRANSIENT,
  OperationAborted: TRANSIENT,
  // The store received bytes that do not match their checksum: damaged on the way, so sent again.
  BadDigest: TRANSIENT,
  // A CRC-only request the store did not echo: sent again with Content-MD5.
  UncheckedUpload: TRANSIENT,
  // A store that cannot read a checksum after the body: sent again with it before the body.
  TrailerRefused: RESEND,
  // A store that refuses S3's checksum headers: sent again with Content-MD5 or a signed SHA-256 instead.
  ChecksumHeadersRefused: RESEND,
  // DNS that does not answer now: retried, and if it lasts, no request of the job gets through.
  EAI_AGAIN: { retry: 'transient', jobWide: true },

  ECONNREFUSED: UNREACHABLE,
  EHOSTUNREACH: UNREACHABLE,
  ENETUNREACH: UNREACHABLE,
  // The network went away: waited out like a refusal, but not job-wide (a failed item does not end the job).
  ENETDOWN: { retry: 'unreachable', jobWide: false },

  // Retried once; still skewed after that, every request will be.
  RequestTimeTooSkewed: { retry: 'clock-skew', jobWide: true },
  RequestExpired: CLOCK_SKEW,
  RequestInTheFuture: CLOCK_SKEW,

  // The bucket, the endpoint or the region is wrong.
  NoSuchBucket: FATAL_JOB_WIDE,
  InvalidBucketName: FATAL_JOB_WIDE,
  ENOTFOUND: FATAL_JOB_WIDE,
  PermanentRedirect: FATAL_JOB_WIDE,
  AuthorizationHeaderMalformed: FATAL_JOB_WIDE,
  // The endpoint sends every request elsewhere (errors.ts: Barge follows no redirect).
  Redirect: FATAL_JOB_WIDE,
  // The endpoint answers, but not as an S3 store (a web page, JSON): a web server, not a store.
  NotS3: FATAL_JOB_WIDE,
  // The credentials are wrong, missing or expired.
  InvalidAccessKeyId: FATAL_JOB_WIDE,
  SignatureDoesNotMatch: FATAL_JOB_WIDE,
  CredentialsProviderError: FATAL_JOB_WIDE,
  ExpiredToken: FATAL_JOB_WIDE,
  InvalidToken: FATAL_JOB_WIDE,
  // TLS: the endpoint is wrong or untrusted, for every request alike.
  EPROTO: FATAL_JOB_WIDE,
  ERR_SSL_WRONG_VERSION_NUMBER: FATAL_JOB_WIDE,
  ERR_SSL_PACKET_LENGTH_TOO_LONG: FATAL_JOB_WIDE,
  ERR_TLS_CERT_ALTNAME_INVALID: FATAL_JOB_WIDE,
  DEPTH_ZERO_SELF_SIGNED_CERT: FATAL_JOB_WIDE,
  SELF_SIGNED_CERT_IN_CHAIN: FATAL_JOB_WIDE,
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: FATAL_JOB_WIDE,
  UNABLE_TO_GET_ISSUER_CERT: FATAL_JOB_WIDE,
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: FATAL_JOB_WIDE,
  CERT_UNTRUSTED: FATAL_JOB_WIDE,
  CERT_HAS_EXPIRED: FATAL_JOB_WIDE,
  CERT_NOT_YET_VALID: FATAL_JOB_WIDE,
  // The local disk takes no more.
  ENOSPC: FATAL_JOB_WIDE,
  EDQUOT: FATAL_JOB_WIDE,
  EROFS: FATAL_JOB_WIDE,

  // The object is not there (a key named that does not exist, or deleted since it was listed).
  NoSuchKey: SAME_AGAIN,
  // Nothing matched a pattern or filter, or nothing is below a folder: run again, it matches nothing again.
  NothingFound: SAME_AGAIN,
  NotFound: SAME_AGAIN,
  NoSuchVersion: SAME_AGAIN,
  // A version asked for its bytes that is a delete marker: it has none, whatever is tried.
  IsADeleteMarker: SAME_AGAIN,
  IsAPrefix: SAME_AGAIN,
  // A name refused, by Barge or the store: the same name is refused again.
  UnsafeKey: SAME_AGAIN,
  NameCollision: SAME_AGAIN,
  InvalidFileName: SAME_AGAIN,
  InvalidKey: SAME_AGAIN,
  KeyTooLongError: SAME_AGAIN,
  UnreadableKey: SAME_AGAIN,
  // A listing whose store names the page it just gave again: followed, it would never end.
  ListingRepeats: SAME_AGAIN,
  FolderMarkerHasContent: SAME_AGAIN,
  EntityTooLarge: SAME_AGAIN,
  // The store lacks what the request needs (501).
  NotImplemented: SAME_AGAIN,
  // Retention or a legal hold asked of a bucket that has no Object Lock: asked again, the same answer.
  ObjectLockNotConfigured: SAME_AGAIN,
  // A file already there, and the job was told to fail it: the same answer fails it again.
  FileExists: { retry: 'fatal', jobWide: false, rerun: 'needs-choice' },
  // An object already there, and the upload was told to fail it: the same, going the other way.
  ObjectExists: { retry: 'fatal', jobWide: false, rerun: 'needs-choice' },
  // A moved source not deleted: it changed since it was read, or may be its copy (jobs/move-guard.ts).
  SourceKept: { retry: 'fatal', jobWide: false },

  // Lifecycle rules (s3/bucket-lifecycle.ts): the store has none, the rule named is not there, the
  // bucket holds S3's most, or the store took a rule and does not list it. Asked again, the same answer.
  LifecycleNotSupported: SAME_AGAIN,
  NoSuchLifecycleRule: SAME_AGAIN,
  TooManyLifecycleRules: SAME_AGAIN,
  LifecycleNotKept: SAME_AGAIN,

  // Undo and restore (jobs/undo-job.ts, restore-job.ts): the delete made no markers, the store's
  // version dates are out of order, the bucket keeps no versions. Run again, the same answer.
  NothingToUndo: SAME_AGAIN,
  UnreliableVersionDates: SAME_AGAIN,
  VersioningOff: SAME_AGAIN,
};

/** Every sorted code and its class; a Map, so a store's odd code ("constructor") finds nothing. */
export const ERROR_CODES: ReadonlyMap<string, ErrorCodeClass> = new Map(Object.entries(TABLE));

/** Other stores' names for S3's codes: they are read as the code they stand for, never sorted themselves. */
export const CODE_SYNONYMS: ReadonlyMap<string, string> = new Map([
  ['XAdminUserNotFound', 'InvalidAccessKeyId'], // versitygw
  ['InvalidTokenId', 'InvalidToken'], // MinIO: a session token it did not issue, or none with temporary keys
  ['XAmzContentChecksumMismatch', 'BadDigest'], // MinIO: an x-amz-checksum-* header that does not match the body
  ['XAmzContentSHA256Mismatch', 'BadDigest'], // the body's signed SHA-256 does not match it
  ['ObjectLockConfigurationNotFoundError', 'ObjectLockNotConfigured'], // AWS: retention asked of a bucket without it
]);

/** The retry class of a code, or undefined when the table does not know it (then the HTTP status decides). */
export function retryClassOf(code: string): RetryClass | undefined {
  return ERROR_CODES.get(code)?.retry;
}

/** What running the job again does for an item that failed with `code`: undefined when it may pass. */
export function rerunOf(code: string): Rerun | undefined {
  return ERROR_CODES.get(code)?.rerun;
}

/** Whether a code fails every item of a job alike. */
export function isJobWide(code: string): boolean {
  return ERROR_CODES.get(code)?.jobWide ?? false;
}
