// Errors a person can act on.
//
// Every failure that leaves the engine is a BargeError: a stable code for programs (the UI, --json)
// and a sentence for people that says what went wrong and what to do. Secrets never appear in
// either: messages are built from codes, names, paths and endpoints, never from request headers.

import type { JobError } from '../../src/jobs.ts';
import { BargeError } from '../../src/errors.ts';
import { printable } from '../../src/unsafe-text.ts';
import { isRegion } from '../../src/region.ts';
import { bucketNameProblem } from '../../src/s3-names.ts';

export { BargeError };
import { CODE_SYNONYMS, rerunOf, retryClassOf } from './error-codes.ts';
import { targetOfTemporary } from '../../src/partial-names.ts';
import { decodeXmlEntities } from '../../src/xml-entities.ts';

interface SdkLikeError {
  name?: string;
  code?: string;
  message?: string;
  Code?: string;
  /** The region a bucket is in, as S3 reports it with AuthorizationHeaderMalformed. */
  Region?: string;
  /** The header a refusal names: NotImplemented's <Header>, InvalidArgument's <ArgumentName>. */
  Header?: string;
  ArgumentName?: string;
  /** The answer's headers (x-amz-bucket-region), as the SDK keeps them. */
  $response?: { headers?: Record<string, unknown> };
  /** The region a refused request was signed for (s3/bucket-regions.ts). */
  signedRegion?: string;
  /** The region the request was sent on to after a first refusal for its region (queue/retry-loop.ts). */
  redirectedTo?: string;
  /** The bucket an InvalidBucketName refusal names (AWS, versitygw); MinIO names it in Resource ("/name/"). */
  BucketName?: string;
  Resource?: string;
  /** The file a failed file system call was about (Node's errors). */
  path?: string;
  $metadata?: { httpStatusCode?: number };
  $fault?: string;
  /** How many times the request was tried before this error was final (set by withRetry). */
  attempts?: number;
}

/** How stores word a refusal by object lock (MinIO: InvalidRequest; AWS: AccessDenied). */
const OBJECT_LOCK_MESSAGE = /WORM protected|object lock|legal hold|retention/i;

/**
 * How stores word a bucket that has no Object Lock at all, asked for an object's retention or legal hold.
 *
 * MinIO: "Bucket is missing ObjectLockConfiguration"; versitygw: "Bucket is missing Object Lock Configuration";
 * AWS: "Object Lock configuration does not exist for this bucket". Read before OBJECT_LOCK_MESSAGE, which
 * the last two also match: nothing is locked here, there is no lock to read.
 */
const OBJECT_LOCK_NOT_CONFIGURED_MESSAGE =
  /missing object ?lock ?configuration|object ?lock configuration does not exist/i;

/** The most specific code an error carries: S3's error code, Node's errno code, or its name. */
export function errorCode(error: unknown): string {
  const raw = rawErrorCode(error);
  const code = CODE_SYNONYMS.get(raw) ?? raw;
  // Stores give an object lock's refusal no code of its own: only the message tells.
  const message = (error as SdkLikeError | undefined)?.message;
  if (code === 'InvalidRequest' && typeof message === 'string' && OBJECT_LOCK_NOT_CONFIGURED_MESSAGE.test(message))
    return 'ObjectLockNotConfigured';
  if (
    (code === 'AccessDenied' || code === 'InvalidRequest') &&
    typeof message === 'string' &&
    OBJECT_LOCK_MESSAGE.test(message)
  )
    return 'ObjectLocked';
  return code;
}

function rawErrorCode(error: unknown): string {
  if (error instanceof BargeError) return error.code;
  const e = (error ?? {}) as SdkLikeError;
  if (e.name === 'AbortError') return 'Cancelled';
  const foreign = foreignAnswer(e);
  if (foreign) return foreign;
  // Errno codes (ENOSPC), Node's own (ERR_TLS_CERT_ALTNAME_INVALID) and OpenSSL's certificate
  // verdicts (DEPTH_ZERO_SELF_SIGNED_CERT): upper case with underscores, unlike any S3 code.
  if (typeof e.code === 'string' && /^(E[A-Z0-9_]+|[A-Z0-9]+(_[A-Z0-9]+)+)$/.test(e.code)) return e.code;
  if (e.Code) return e.Code;
  const status = e.$metadata?.httpStatusCode;
  // A redirect with no code of its own (a web server, or a proxy sending http:// on to https://).
  if (status !== undefined && REDIRECT_STATUSES.has(status) && (!e.name || GENERIC_NAMES.has(e.name)))
    return 'Redirect';
  if (e.name && e.name !== 'Error' && e.name !== 'S3ServiceException') return e.name;
  return status ? `Http${status}` : 'Unknown';
}

/** The SDK's words for an answer whose body it could not read as XML. */
const UNREADABLE_XML = /XML parse error|Deserialization error/;

/**
 * An answer no S3 store gives: a web page, JSON, or a body that is not XML where XML was due. `NotS3`
 * when the answer says it is something else (its Content-Type), so the endpoint is not a store (a web
 * server, a console's port, a proxy's own page); `UnreadableAnswer` when it claims to be XML but is
 * not well formed (cut short on the way). S3's own errors carry a code and come as XML; a HEAD has no
 * body at all (MinIO sends no Content-Type with its 404), so neither is ever taken for one of these.
 */
function foreignAnswer(e: SdkLikeError): 'NotS3' | 'UnreadableAnswer' | undefined {
  if (e.Code !== undefined) return undefined;
  const type = contentType(e);
  const unreadable = typeof e.message === 'string' && UNREADABLE_XML.test(e.message);
  if (unreadable) return type !== undefined && /xml/i.test(type) ? 'UnreadableAnswer' : 'NotS3';
  return type !== undefined && /html|json/i.test(type) ? 'NotS3' : undefined;
}

function contentType(e: SdkLikeError): string | undefined {
  const header = e.$response?.headers?.['content-type'];
  return typeof header === 'string' && header !== '' ? header : undefined;
}

/**
 * What a person is told of an answer that is no S3 store's: its status, and what it was by its
 * Content-Type (a web page, JSON), when one was sent.
 */
export function notS3Message(status: number | undefined, type: string | undefined): string {
  const what =
    type === undefined ? '' : /html/i.test(type) ? ' with a web page' : /json/i.test(type) ? ' with JSON' : '';
  return (
    `The endpoint answered${status === undefined ? '' : ` HTTP ${status}`}${what}, not as an S3 store does: ` +
    'check the endpoint URL (the host, the port, and any path the store needs).'
  );
}

/** Statuses that send a client elsewhere (301 is S3's PermanentRedirect, a bucket in another region). */
const REDIRECT_STATUSES = new Set([302, 303, 307, 308]);
/** The names the SDK and the wire give an answer whose body names no code. */
const GENERIC_NAMES = new Set(['Error', 'S3ServiceException', 'Unknown', 'Redirect']);

export function httpStatus(error: unknown): number | undefined {
  return (error as SdkLikeError | undefined)?.$metadata?.httpStatusCode;
}

const UNTRUSTED_CERTIFICATE =
  "The server's TLS certificate is not trusted (it is self-signed, or signed by an authority this computer " +
  'does not know). ' +
  'Check the endpoint URL; if you trust this server, name its CA certificate in NODE_EXTRA_CA_CERTS (a PEM ' +
  'file) and start again.';

const HINTS: Readonly<Record<string, string>> = {
  InvalidAccessKeyId: 'The server does not know this access key ID. Check the keys, AWS_PROFILE or --profile.',
  SignatureDoesNotMatch: 'The secret access key does not match the access key ID. Check the credentials.',
  InvalidToken:
    'The session token is not valid for these temporary credentials. Get new temporary credentials (aws sso ' +
    'login, or assume the role again) and try again.',
  ExpiredToken:
    'The temporary credentials have expired. Get new ones (aws sso login, or assume the role again) and try again.',
  AccessDenied:
    "Access denied: these credentials lack permission for this operation. Ask the bucket's owner for access, " +
    'or use other credentials.',
  ObjectLocked:
    'The object is protected by object lock (a retention period or a legal hold). Remove the legal hold, or ' +
    'wait until the retention period ends.',
  ObjectLockNotConfigured:
    'The bucket has no Object Lock configuration: its objects have no retention period or legal hold to read.',
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
  PermanentRedirect:
    'The bucket is in another region, and the store did not say which. Set --region (or AWS_REGION) to the ' +
    "bucket's region.",
  AuthorizationHeaderMalformed:
    'The request was signed for the wrong region, and the store did not say which is right. Set --region (or ' +
    "AWS_REGION) to the bucket's region.",
  CredentialsProviderError:
    'No credentials found. Set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or use a profile (AWS_PROFILE or ' +
    '--profile).',
  ECONNREFUSED: 'The connection was refused. Is the endpoint URL right and the server running?',
  ENOTFOUND: 'The endpoint host name does not resolve. Check the endpoint URL.',
  EAI_AGAIN: 'The endpoint host name could not be resolved right now (DNS). Check the network.',
  ECONNRESET:
    'The connection was reset by the server or the network. If it goes on, check the network (a proxy, VPN or ' +
    'firewall on the way) and the endpoint URL.',
  ETIMEDOUT:
    'The connection timed out: nothing answered at the endpoint. Check the endpoint URL and the network, then ' +
    'try again.',
  TimeoutError:
    'The server stopped answering (the request timed out). Try again; if it goes on, lower the thread count or ' +
    'check the network.',
  EHOSTUNREACH:
    "The endpoint's host cannot be reached from this computer. Check the endpoint URL and the network (a VPN " +
    'that is off?), then try again.',
  ENETUNREACH:
    'The network is unreachable: this computer has no route to the endpoint. Check its network connection, ' +
    'then try again.',
  EPROTO:
    'The secure (TLS) connection failed: the server does not speak TLS on this port. Check the endpoint URL ' +
    '(http:// or https://, and the port).',
  ERR_SSL_WRONG_VERSION_NUMBER:
    'The secure (TLS) connection failed: the server does not speak TLS on this port. Check the endpoint URL ' +
    '(http:// or https://, and the port).',
  ERR_SSL_PACKET_LENGTH_TOO_LONG:
    'The secure (TLS) connection failed: the server does not speak TLS on this port. Check the endpoint URL ' +
    '(http:// or https://, and the port).',
  DEPTH_ZERO_SELF_SIGNED_CERT: UNTRUSTED_CERTIFICATE,
  SELF_SIGNED_CERT_IN_CHAIN: UNTRUSTED_CERTIFICATE,
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: UNTRUSTED_CERTIFICATE,
  UNABLE_TO_GET_ISSUER_CERT: UNTRUSTED_CERTIFICATE,
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: UNTRUSTED_CERTIFICATE,
  CERT_UNTRUSTED: UNTRUSTED_CERTIFICATE,
  CERT_HAS_EXPIRED:
    "The server's TLS certificate has expired. Tell the server's administrator, or check the endpoint URL.",
  CERT_NOT_YET_VALID: "The server's TLS certificate is not valid yet. Check this computer's clock.",
  ERR_TLS_CERT_ALTNAME_INVALID: "The server's TLS certificate is for another host name. Check the endpoint URL.",
  Cancelled: 'Cancelled.',
};

/** Local file errors: what is wrong, then (after the file's path, when it is not named already) what to do. */
const FILE_HINTS: Readonly<Record<string, readonly [problem: string, advice?: string]>> = {
  ENOENT: ['No such file or folder'],
  EACCES: ['Permission denied', 'Check its permissions, or choose another file or folder.'],
  EPERM: ['Operation not permitted', 'Check its permissions, or choose another file or folder.'],
  EISDIR: ['Expected a file but found a folder'],
  ENOTDIR: ['A file is in the way where a folder should be', 'Move the file, or choose another folder.'],
  ENOSPC: ['The disk is full', 'Free some space or choose another folder, then try again.'],
  EDQUOT: ['The disk quota is used up', 'Free some space or choose another folder, then try again.'],
  EROFS: ['The file system is read-only', 'Choose a folder you can write to.'],
  EBROKENLINK: [
    'A broken symbolic link (it leads to nothing) is in the way',
    'Remove or fix the link, or choose another folder.',
  ],
  ENOFOLDERHERE: ['No folder can be made there (the file system takes none)', 'Choose another folder.'],
  ENAMETOOLONG: [
    'The name is too long for the file system',
    'Choose a shorter folder, or a file system that takes longer names.',
  ],
  ELOOP: ['Too many symbolic links (a link that leads to itself)', 'Fix or remove the link.'],
  EMFILE: ['Too many files are open', 'Lower the thread count, or raise the limit on open files (ulimit -n).'],
};

/**
 * The region S3 says the bucket is in: x-amz-bucket-region, the error's <Region>, or its message
 * ("expecting 'eu-west-1'"). Only a region (src/region.ts) is repeated, never whatever a store sent.
 */
function expectedRegion(error: SdkLikeError): string | undefined {
  const header = error.$response?.headers?.['x-amz-bucket-region'];
  const named =
    typeof header === 'string'
      ? header
      : typeof error.Region === 'string'
        ? error.Region
        : /expecting (?:'|&#39;|&apos;)?([^'&\s]+)/.exec(error.message ?? '')?.[1];
  return named !== undefined && isRegion(named) ? named : undefined;
}

/** S3 codes for a store's own failure (HTTP 5xx): retried, and said this way if they last. */
const SERVER_FAULTS = new Set(['InternalError', 'XMinioServerNotInitialized', 'OperationAborted']);

const REGION_CODES = new Set([
  'AuthorizationHeaderMalformed',
  'PermanentRedirect',
  'IllegalLocationConstraintException',
]);

/**
 * A refusal for the region that is still an error. A bucket's region is followed by itself (once per
 * request), so what is left is a store that names no region, or names one that refuses too, or
 * refuses a request that names no bucket (a store that is all in one region).
 */
function regionHint(error: SdkLikeError): string | undefined {
  const named = expectedRegion(error);
  if (error.redirectedTo !== undefined) {
    const now = named !== undefined && named !== error.redirectedTo ? `, now naming ${named}` : '';
    return (
      `The store said the bucket is in region ${error.redirectedTo}, then refused the request sent there ` +
      `too${now}. Check the endpoint URL, and the bucket's region (--region).`
    );
  }
  if (named !== undefined && named === error.signedRegion) {
    return (
      `The store refused the request signed for region ${named}, the region it names for the bucket. ` +
      `Check the endpoint URL.`
    );
  }
  if (named !== undefined)
    return (
      `The store expects region ${named}, and the request was signed for another. Set the region to ` +
      `${named} (--region ${named}, or AWS_REGION=${named}).`
    );
  if (error.signedRegion !== undefined) {
    return (
      `The store refused the request for its region (it was signed for ${error.signedRegion}), and named ` +
      `no valid region for the bucket. Set --region (or AWS_REGION) to the bucket's region.`
    );
  }
  return undefined;
}

/** What went wrong and what to do, for errors whose best advice depends on the error itself. */
function specificHint(code: string, error: SdkLikeError, context: string | undefined): string | undefined {
  if (REGION_CODES.has(code) || error.signedRegion !== undefined) {
    const hint = regionHint(error);
    if (hint) return hint;
  }
  if (code === 'BadDigest') {
    const raw = rawErrorCode(error);
    const said = ownWords(error, raw) ? `: ${decodeXmlEntities(error.message!).replace(/\.$/, '')}` : '';
    const tries = error.attempts && error.attempts > 1 ? `, on all ${error.attempts} tries` : '';
    return (
      `The store received different bytes than were sent (it answered ${raw}${said})${tries}. ` +
      'Something on the way damages data (a proxy, the network), or the file changes while it is read. Retry; ' +
      'if it persists, check the network path and the disk.'
    );
  }
  if (code === 'NotImplemented') {
    // A refusal of S3's checksum headers never gets here (checksum-headers.ts sends the request again
    // without them): this is the store lacking something else the request needs.
    const said = ownWords(error, 'NotImplemented')
      ? `: "${shortened(decodeXmlEntities(error.message!)).replace(/\.$/, '')}"`
      : '';
    const header = error.Header ?? error.ArgumentName;
    // A header's name is short; a store's long text there is cut, as its message is.
    const named =
      typeof header === 'string' && header !== ''
        ? `, naming the ` +
          `${header.length > HEADER_NAME_LIMIT ? `${header.slice(0, HEADER_NAME_LIMIT - 1)}…` : header} header`
        : '';
    return (
      `The store does not support something this request needs (it answered ` +
      `${error.$metadata?.httpStatusCode ?? 501} NotImplemented${said}${named}). ` +
      'This cannot be done on this store as it is: check what the store supports (its documentation, or its ' +
      'administrator), and whether a proxy on the way changes requests.'
    );
  }
  if (code === 'Redirect') return redirectHint(error);
  if (code === 'InvalidBucketName') return bucketNameHint(error);
  // A store that keeps asking for fewer requests, or failing on its side, once the retries are spent.
  const retry = retryClassOf(code);
  if (retry === 'throttle') {
    return (
      `The store kept asking for fewer requests (it answered ${error.$metadata?.httpStatusCode ?? 503} ` +
      `${code}). Lower the thread count, then try again.`
    );
  }
  if (SERVER_FAULTS.has(code)) {
    return (
      `The store failed on its side (it answered ${error.$metadata?.httpStatusCode ?? 500} ${code}). Try ` +
      `again later; if it goes on, tell the store's administrator.`
    );
  }
  if (code === 'RequestTimeout') {
    return (
      "The store gave up waiting for the request's bytes (RequestTimeout): the network is slow or stalls. " +
      'Check the network, or lower the thread count, then try again.'
    );
  }
  if (code === 'NotS3') return notS3Message(error.$metadata?.httpStatusCode, contentType(error));
  if (code === 'UnreadableAnswer') {
    return (
      `The store's answer (HTTP ${error.$metadata?.httpStatusCode ?? '(no status)'}) is not well-formed XML: ` +
      `it may have been cut short on the way. ` +
      'Try again; if it persists, check what stands between Barge and the store (a proxy).'
    );
  }
  const file = FILE_HINTS[code];
  if (file) {
    const [problem, advice] = file;
    const where = typeof error.path === 'string' ? targetOfTemporary(error.path) : undefined;
    // Named already when the context holds the path itself, not a longer path that begins with it.
    const at = where === undefined || context === undefined ? -1 : context.indexOf(where);
    const named = where === undefined || (at >= 0 && !/[\w./\\-]/.test(context![at + where.length] ?? ''));
    return `${problem}${named ? '' : ` (${where})`}.${advice ? ` ${advice}` : ''}`;
  }
  return undefined;
}

/**
 * Whether a store's message says more than its code (not the code again, nor the SDK's "UnknownError" or "HTTP 400").
 */
function ownWords(error: SdkLikeError, code: string): boolean {
  return (
    typeof error.message === 'string' &&
    error.message !== '' &&
    error.message !== code &&
    error.message !== 'UnknownError' &&
    !/^HTTP \d+$/.test(error.message)
  );
}

/**
 * Where a redirect leads, shown without its query (which may carry a token), and why it is not
 * followed: a request is signed for the host it goes to, and a store does not move.
 */
function redirectHint(error: SdkLikeError): string {
  const location = error.$response?.headers?.location;
  let to = '';
  if (typeof location === 'string' && location !== '') {
    const url = URL.parse(location, 'http://relative.invalid');
    if (url)
      to =
        url.host === 'relative.invalid'
          ? `, to the path ${url.pathname}`
          : `, to ${url.protocol}//${url.host}${url.pathname}`;
  }
  return (
    `The endpoint redirects elsewhere (HTTP ${error.$metadata?.httpStatusCode ?? 'redirect'}${shortened(to)}), ` +
    `and Barge does not follow redirects: ` +
    'check the endpoint URL (http:// or https://, the host and port, and any path the store needs).'
  );
}

/**
 * Turn any error into a BargeError, naming what was being done (`context`, such as
 * "upload /data/a.bin to s3://b/a.bin").
 */
export function toBargeError(error: unknown, context?: string): BargeError {
  if (error instanceof BargeError) return error;
  const code = errorCode(error);
  const hint = specificHint(code, (error ?? {}) as SdkLikeError, context) ?? HINTS[code];
  const detail =
    hint ??
    serverMessage(error) ??
    `Something failed that Barge has no words for (${code}). Try again; if it goes on, report it with that code.`;
  const message = context ? `Cannot ${context}: ${detail}` : detail;
  return new BargeError(code, message, { cause: error });
}

/**
 * An error as a job reports it. Keys and file names may hold control characters: in the message
 * they are shown escaped, so a name can neither drive a terminal nor reorder the text around it.
 */
export function toJobError(error: unknown, context?: string): JobError {
  const e = toBargeError(error, context);
  const rerun = rerunOf(e.code);
  return { code: e.code, message: printable(e.message), ...(rerun === undefined ? {} : { rerun }) };
}

/**
 * A store's refusal of a bucket's name, said with the rule it breaks ("The server refused the bucket name" told
 * nothing).
 *
 * Only the store refuses a name that passes the lax check at the door (s3-names.ts): older buckets and other
 * stores may hold names outside AWS's rule for new buckets, so those are tried, not refused before a request.
 */
function bucketNameHint(error: SdkLikeError): string | undefined {
  const name =
    typeof error.BucketName === 'string'
      ? error.BucketName
      : typeof error.Resource === 'string'
        ? /^\/([^/]+)/.exec(error.Resource)?.[1]
        : undefined;
  const problem = name === undefined ? undefined : bucketNameProblem(name);
  if (name === undefined || problem === undefined) return undefined;
  return `The store refused the bucket name "${printable(name)}": a bucket's name ${problem}. Check the name.`;
}

/** The server's own message, when it has one worth showing (S3 messages are short and secret-free). */
function serverMessage(error: unknown): string | undefined {
  const e = error as SdkLikeError | undefined;
  const status = e?.$metadata?.httpStatusCode;
  // A long message is shortened, not dropped: its beginning says what went wrong.
  const message =
    typeof e?.message === 'string' && e.message !== 'UnknownError' && e.message !== ''
      ? shortened(decodeXmlEntities(e.message))
      : undefined;
  if (message && status) return `${message.replace(/\.$/, '')} (HTTP ${status}).`;
  if (message) return /[.…]$/.test(message) ? message : `${message}.`;
  return status
    ? `The server answered HTTP ${status}, giving no reason. Check the endpoint URL; if it is right, try again later.`
    : undefined;
}

const LONGEST_MESSAGE = 500;
/** The longest header name a refusal's message repeats (S3's longest are under 40 characters). */
const HEADER_NAME_LIMIT = 80;

function shortened(text: string): string {
  return text.length <= LONGEST_MESSAGE ? text : `${text.slice(0, LONGEST_MESSAGE - 1)}…`;
}
