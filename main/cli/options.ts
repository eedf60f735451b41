// The command line's shared options, parsed once into a connection and engine settings.

import { parseArgs } from 'node:util';
import { formatBytes, formatRate, parseByteSize, parseDuration, parseRate } from '../../src/byte-units.ts';
import { ifExistsSchema } from '../../src/if-exists.ts';
import type { IfExists } from '../../src/if-exists.ts';
import { MAX_PART_SIZE_BYTES, MIN_PART_SIZE_BYTES } from '../../src/part-size.ts';
import {
  endpointUrlProblem,
  redactedUrl,
  sessionConnectionSchema,
  uploadChecksumSchema,
} from '../../src/connection.ts';
import type { SessionConnection, UploadChecksum } from '../../src/connection.ts';
import { AUTO, MAX_RATE_BYTES_PER_SECOND, MAX_THREADS, MIN_THREADS, settingsPatchSchema } from '../../src/settings.ts';
import type { SettingsPatch } from '../../src/settings.ts';
import { BargeError } from '../../src/errors.ts';
import { isRegion, REGION_RULE } from '../../src/region.ts';
import { printable } from '../../src/unsafe-text.ts';
import { FilterProblem, parseInstant } from '../../src/object-filter.ts';
import type { JobKind } from '../../src/jobs.ts';
import { MAX_SPEED_TEST_BUDGET_MS, MIN_SPEED_TEST_BUDGET_MS } from '../../src/speed-test.ts';
import type { ObjectFilter } from '../../src/object-filter.ts';
import { FILTER_FLAGS, FILTER_OPTION_SPEC, parseFilterFlags } from './filter-options.ts';
import type { UploadOptions } from '../../src/upload-options.ts';
import { UPLOAD_OPTION_FLAGS, parseUploadOptions, uploadOptionSpec } from './upload-options.ts';

export const optionSpec = {
  'endpoint-url': { type: 'string' },
  profile: { type: 'string' },
  region: { type: 'string' },
  'source-endpoint-url': { type: 'string' },
  'source-profile': { type: 'string' },
  'source-region': { type: 'string' },
  'path-style': { type: 'boolean' },
  'virtual-hosted': { type: 'boolean' },
  checksum: { type: 'string' },
  'upload-checksum': { type: 'string' },
  threads: { type: 'string' },
  'part-size': { type: 'string' },
  'max-rate': { type: 'string' },
  recursive: { type: 'boolean', short: 'r' },
  'dry-run': { type: 'boolean' },
  'all-versions': { type: 'boolean' },
  receipt: { type: 'string' },
  resume: { type: 'boolean' },
  'case-insensitive': { type: 'boolean' },
  'require-verified': { type: 'boolean' },
  'older-than': { type: 'string' },
  from: { type: 'string' },
  force: { type: 'boolean' },
  yes: { type: 'boolean', short: 'y' },
  'expire-on-server': { type: 'boolean' },
  'if-exists': { type: 'string' },
  'follow-symlinks': { type: 'boolean' },
  delete: { type: 'boolean' },
  /** sync's bare --checksum, told apart from the connection's --checksum MODE before parsing (syncChecksumFlag). */
  'sync-checksum': { type: 'boolean' },
  ...FILTER_OPTION_SPEC,
  versions: { type: 'boolean' },
  'version-id': { type: 'string' },
  expires: { type: 'string' },
  kind: { type: 'string' },
  failed: { type: 'boolean' },
  limit: { type: 'string' },
  keys: { type: 'string' },
  to: { type: 'string' },
  budget: { type: 'string' },
  ...uploadOptionSpec,
  json: { type: 'boolean' },
  quiet: { type: 'boolean', short: 'q' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
} as const;

/** The flags that name the connection a copy between two connections reads its sources on. */
const SOURCE_FLAGS = ['source-endpoint-url', 'source-profile', 'source-region'] as const;

/** The command-specific flags each command takes. */
const COMMAND_FLAGS: Readonly<Record<string, readonly string[]>> = {
  ls: ['recursive', 'versions', ...FILTER_FLAGS],
  cp: [
    ...UPLOAD_OPTION_FLAGS,
    ...SOURCE_FLAGS,
    'recursive',
    'receipt',
    'resume',
    'case-insensitive',
    'require-verified',
    'if-exists',
    'follow-symlinks',
    'version-id',
    ...FILTER_FLAGS,
  ],
  rm: ['recursive', 'dry-run', 'all-versions', 'resume', 'from', 'expire-on-server', 'yes', ...FILTER_FLAGS],
  mv: ['recursive', 'resume', 'if-exists', ...SOURCE_FLAGS, ...FILTER_FLAGS],
  mb: [],
  mkdir: [],
  rb: ['force', 'yes'],
  'abort-uploads': ['dry-run', 'older-than'],
  sync: [
    'dry-run',
    'delete',
    'yes',
    'sync-checksum',
    'resume',
    'follow-symlinks',
    ...FILTER_FLAGS,
    ...UPLOAD_OPTION_FLAGS,
  ],
  du: ['versions', ...FILTER_FLAGS],
  cat: [],
  pipe: [...UPLOAD_OPTION_FLAGS],
  stat: ['version-id'],
  presign: ['expires'],
  history: ['kind', 'failed', 'limit', 'keys'],
  undo: ['resume'],
  restore: ['to', 'dry-run', 'resume'],
  lifecycle: [],
  speedtest: ['budget'],
};

/** The connection's checksum modes: `--checksum` followed by one of them is the connection's, else sync's own. */
const CHECKSUM_MODES = new Set(['when_supported', 'when_required']);

/**
 * sync's `--checksum` (compare by checksum) takes no value, while the connection's `--checksum MODE`
 * takes one: a bare --checksum (not followed by a mode) is sync's, renamed before parsing.
 */
export function syncChecksumFlag(argv: readonly string[]): string[] {
  return argv.map((arg, index) =>
    arg === '--checksum' && !CHECKSUM_MODES.has(argv[index + 1] ?? '') ? '--sync-checksum' : arg,
  );
}

/** S3's longest presigned link (SigV4): 7 days. */
export const MAX_PRESIGN_SECONDS = 7 * 24 * 3600;

export interface CliOptions {
  readonly command: string | undefined;
  readonly args: readonly string[];
  readonly connection: SessionConnection;
  /**
   * cp and mv between s3:// addresses: the connection the sources are read on, where --source-* names
   * one (the bytes then stream through Barge); undefined: the sources are on `connection`.
   */
  readonly sourceConnection: SessionConnection | undefined;
  readonly settings: SettingsPatch;
  readonly recursive: boolean;
  readonly dryRun: boolean;
  readonly allVersions: boolean;
  /** Where to write the receipt (CSV, or JSON for a .json name) when the job completes. */
  readonly receipt: string | undefined;
  /** Continue an interrupted run of the same command (default), or start afresh (--no-resume). */
  readonly resume: boolean;
  /** Downloads: names that differ only in case are one file (a folder bound for Windows or macOS). */
  readonly caseInsensitive: boolean | undefined;
  /** Downloads: fail an object that can be checked only for its size. */
  readonly requireVerified: boolean;
  /** cp: what to do with a file (download) or object (upload) already there. */
  readonly ifExists: IfExists | undefined;
  /** Uploads: follow symbolic links (default), or skip them, each named (--no-follow-symlinks). */
  readonly followSymlinks: boolean;
  /** sync: remove what is only at the destination. */
  readonly delete: boolean;
  /** sync: compare by checksum (an ETag that is an MD5) instead of size and time. */
  readonly syncChecksum: boolean;
  /** abort-uploads: only uploads begun at least this many seconds ago. */
  readonly olderThanSeconds: number | undefined;
  /** ls, cp, rm (and the commands that list): which objects the command acts on (filter-options.ts). */
  readonly filter: ObjectFilter | undefined;
  /** Keys holding * or ? are those keys, not wildcards (as s5cmd's --raw). */
  readonly raw: boolean;
  /** rm: a file of keys or s3:// URLs, one a line ("-": standard input). */
  readonly from: string | undefined;
  /** rb: empty the bucket (every object, version and unfinished upload), then delete it. */
  readonly force: boolean;
  /** rb --force: no typed confirmation; sync --delete onto a bucket's top: confirmed. */
  readonly yes: boolean;
  /** rm -r: have the store expire the prefix (a lifecycle rule) instead of deleting from here. */
  readonly expireOnServer: boolean;
  /** du: noncurrent versions and delete markers too; ls: list them, each with its version ID. */
  readonly versions: boolean;
  /** cp (a download, or a copy in the store) and stat: this version of the key, not its latest. */
  readonly versionId: string | undefined;
  /** presign: how long the link works, in seconds. */
  readonly expiresSeconds: number | undefined;
  /** cp (upload), pipe: what each object is stored with. */
  readonly uploadOptions: UploadOptions | undefined;
  /** history: only these kinds of job (--kind delete,upload). */
  readonly kinds: readonly JobKind[] | undefined;
  /** history: only the jobs that failed. */
  readonly failedOnly: boolean;
  /** history: how many jobs to list. */
  readonly limit: number | undefined;
  /** history show: what the job removed, as CSV or JSON lines, instead of its details. */
  readonly keysFormat: 'csv' | 'json' | undefined;
  /** restore: the moment to restore to (ms since 1970). */
  readonly restoreTo: number | undefined;
  /** speedtest: its time budget in milliseconds (--budget 30s). */
  readonly budgetMs: number | undefined;
  readonly json: boolean;
  readonly quiet: boolean;
  readonly help: boolean;
  readonly version: boolean;
}

export function usageError(message: string): BargeError {
  return new BargeError('UsageError', `${message}\nRun "barge --help" for usage.`);
}

/**
 * Node's parseArgs refusal in Barge's words: its own ("Option '--threads <value>' argument missing",
 * "Unknown option '-x'. To specify a positional argument…") are a library's, not a sentence about
 * the command typed.
 */
export function optionProblem(error: Error & { code?: string }): string {
  // "'-r, --recursive'": the long name.
  const option = /'(?:-[^-' ,], )?(-[^' ]*)/.exec(error.message)?.[1];
  if (option === undefined) return error.message;
  if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    return (
      `${option} is not an option of barge. A file whose name begins with "-" goes after "--": barge cp ` +
      `-- ${option} s3://bucket/.`
    );
  }
  if (error.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    if (/argument missing/.test(error.message)) return `${option} needs a value after it (${option} <value>).`;
    // "--budget -5s": a value that begins with a dash reads as another option.
    if (/ambiguous/.test(error.message))
      return `${option} needs a value after it; a value that begins with "-" goes after "=" (${option}=-5s).`;
    return `${option} takes no value: give ${option} alone.`;
  }
  return error.message;
}

export function parseCli(argv: readonly string[]): CliOptions {
  let parsed;
  try {
    parsed = parseArgs({
      args: syncChecksumFlag(argv),
      options: optionSpec,
      allowPositionals: true,
      strict: true,
      allowNegative: true,
    });
  } catch (error) {
    throw usageError(optionProblem(error as Error & { code?: string }));
  }
  const { values, positionals } = parsed;
  const settings: SettingsPatch = {};
  if (values.threads !== undefined) {
    if (values.threads !== AUTO && !/^\d+$/.test(values.threads))
      throw usageError(`--threads takes auto or a whole number, not "${values.threads}".`);
    settings.threads = values.threads === AUTO ? AUTO : Number(values.threads);
  }
  if (values['part-size'] !== undefined) {
    const bytes = values['part-size'] === AUTO ? AUTO : parseByteSize(values['part-size']);
    if (bytes === undefined)
      throw usageError(`--part-size takes auto or a size such as 16MiB or 64M, not "${values['part-size']}".`);
    settings.partSizeBytes = bytes;
  }
  if (values['max-rate'] !== undefined) {
    const rate = parseRate(values['max-rate']);
    if (rate === undefined)
      throw usageError(
        `--max-rate takes a rate such as 50MB/s, 20MiB/s or 500KB/s (0 for no cap), not "${values['max-rate']}".`,
      );
    settings.maxRate = rate;
  }
  const validSettings = settingsPatchSchema.safeParse(settings);
  if (!validSettings.success) {
    const field = validSettings.error.issues[0]!.path[0];
    throw usageError(
      field === 'threads'
        ? `--threads must be between ${MIN_THREADS} and ${MAX_THREADS}.`
        : field === 'maxRate'
          ? `--max-rate must be at most ${formatRate(MAX_RATE_BYTES_PER_SECOND)} (0 for no cap).`
          : `--part-size must be between ${formatBytes(MIN_PART_SIZE_BYTES)} and ${formatBytes(MAX_PART_SIZE_BYTES)}.`,
    );
  }
  if (values.checksum !== undefined && values.checksum !== 'when_supported' && values.checksum !== 'when_required') {
    throw usageError('--checksum takes when_supported or when_required.');
  }
  const uploadChecksum = values['upload-checksum']?.toUpperCase();
  if (uploadChecksum !== undefined && !uploadChecksumSchema.options.includes(uploadChecksum as UploadChecksum)) {
    throw usageError(
      `--upload-checksum takes crc64nvme, crc32c, crc32, md5 or off, not "${values['upload-checksum']}".`,
    );
  }
  if (values['path-style'] && values['virtual-hosted'])
    throw usageError('Give --path-style or --virtual-hosted, not both.');
  for (const name of ['endpoint-url', 'region', 'profile', ...SOURCE_FLAGS] as const) {
    if (values[name] === '') throw usageError(`--${name} needs a value.`);
  }
  for (const name of ['region', 'source-region'] as const) {
    const region = values[name];
    if (region !== undefined && !isRegion(region))
      throw usageError(`--${name} takes a region, not "${printable(region)}": ${REGION_RULE}.`);
  }
  const command = positionals[0];
  const accepted = COMMAND_FLAGS[command ?? ''] ?? [];
  if (values.receipt === '') throw usageError('--receipt needs a file name.');
  // abort-uploads' --older-than is an age; the listing commands' is an object filter's, which takes dates too.
  const olderThan = command === 'abort-uploads' ? values['older-than'] : undefined;
  const olderThanSeconds = olderThan === undefined ? undefined : parseDuration(olderThan);
  if (olderThan !== undefined && olderThanSeconds === undefined)
    throw usageError(`--older-than takes a duration such as 2h or 7d, not "${olderThan}".`);
  const ifExists = values['if-exists'];
  if (ifExists !== undefined && (ifExists === 'ask' || !ifExistsSchema.options.includes(ifExists as IfExists)))
    throw usageError(`--if-exists takes overwrite, skip, rename, newer or fail, not "${ifExists}".`);
  for (const flag of [
    'recursive',
    'dry-run',
    'all-versions',
    'receipt',
    'resume',
    'case-insensitive',
    'require-verified',
    'older-than',
    'if-exists',
    'follow-symlinks',
    'delete',
    'sync-checksum',
    'from',
    'force',
    'yes',
    'expire-on-server',
    ...SOURCE_FLAGS,
    ...FILTER_FLAGS,
    'versions',
    'version-id',
    'expires',
    'kind',
    'failed',
    'limit',
    'keys',
    'to',
    ...UPLOAD_OPTION_FLAGS,
  ] as const) {
    // A flag a command would silently ignore is refused: "rb --dry-run" must not delete the bucket.
    if (values[flag] !== undefined && command !== undefined && command in COMMAND_FLAGS && !accepted.includes(flag))
      throw usageError(
        flag === 'sync-checksum'
          ? `${command} does not take --checksum alone (compare by checksum is sync's); the connection's is ` +
              `--checksum when_supported or when_required.`
          : `${command} does not take --${flag}.`,
      );
  }
  if (values.from === '') throw usageError('--from needs a file name, or "-" for standard input.');
  if (values['version-id'] === '')
    throw usageError('--version-id needs a version ID (barge ls --versions s3://bucket/key lists them).');
  let filter: ObjectFilter | undefined;
  try {
    filter = command === 'abort-uploads' ? undefined : parseFilterFlags(values, Date.now());
  } catch (error) {
    throw error instanceof FilterProblem ? usageError(error.message) : error;
  }
  const expires = values.expires;
  const expiresSeconds = expires === undefined ? undefined : parseDuration(expires);
  if (expires !== undefined && (expiresSeconds === undefined || expiresSeconds < 1))
    throw usageError(`--expires takes a duration such as 90s, 30m, 12h or 7d, not "${printable(expires)}".`);
  if (expiresSeconds !== undefined && expiresSeconds > MAX_PRESIGN_SECONDS)
    throw usageError(
      `--expires ${printable(expires!)} is longer than S3 allows: a presigned link works for 7 days (7d, 168h) ` +
        `at most.`,
    );
  const uploadOptions = parseUploadOptions(values, usageError);
  const history = historyFlags(values, Date.now());
  const budgetMs = speedTestBudget(values.budget);
  const connection = sessionConnectionSchema.safeParse({
    endpoint: values['endpoint-url'],
    region: values.region,
    profile: values.profile,
    pathStyle: values['path-style'] ? true : values['virtual-hosted'] ? false : undefined,
    checksumMode: values.checksum,
    uploadChecksum,
  });
  if (!connection.success) {
    const why = values['endpoint-url'] === undefined ? undefined : endpointUrlProblem(values['endpoint-url']);
    throw usageError(
      `--endpoint-url must be an http:// or https:// URL of the store, not ` +
        `"${redactedUrl(values['endpoint-url'] ?? '')}"${why ? ` (it ${why})` : ''}.`,
    );
  }
  return {
    command,
    args: positionals.slice(1),
    connection: connection.data,
    sourceConnection: sourceConnectionOf(values, connection.data),
    settings: validSettings.data,
    recursive: values.recursive ?? false,
    dryRun: values['dry-run'] ?? false,
    allVersions: values['all-versions'] ?? false,
    receipt: values.receipt,
    resume: values.resume ?? true,
    caseInsensitive: values['case-insensitive'],
    requireVerified: values['require-verified'] ?? false,
    followSymlinks: values['follow-symlinks'] ?? true,
    delete: values.delete ?? false,
    syncChecksum: values['sync-checksum'] ?? false,
    olderThanSeconds,
    filter,
    raw: values.raw ?? false,
    from: values.from,
    force: values.force ?? false,
    yes: values.yes ?? false,
    expireOnServer: values['expire-on-server'] ?? false,
    ifExists: ifExists as IfExists | undefined,
    versions: values.versions ?? false,
    versionId: values['version-id'],
    expiresSeconds,
    uploadOptions,
    ...history,
    budgetMs,
    json: values.json ?? false,
    quiet: values.quiet ?? false,
    help: values.help ?? false,
    version: values.version ?? false,
  };
}

/** speedtest's --budget: a duration (30s, 2m; a bare number is seconds) within the bounds the service takes. */
function speedTestBudget(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const seconds = /^\s*\d+(\.\d+)?\s*$/.test(text) ? Number(text) : parseDuration(text);
  const ms = seconds === undefined ? undefined : Math.round(seconds * 1000);
  if (ms === undefined || ms < MIN_SPEED_TEST_BUDGET_MS || ms > MAX_SPEED_TEST_BUDGET_MS)
    throw usageError(
      `--budget takes a duration from ${MIN_SPEED_TEST_BUDGET_MS / 1000}s to ${MAX_SPEED_TEST_BUDGET_MS / 60_000}m ` +
        `(30s, 2m), not "${printable(text)}".`,
    );
  return ms;
}

const JOB_KINDS: readonly JobKind[] = ['upload', 'download', 'delete', 'sync', 'copy', 'undo', 'restore'];

/** history's and restore's flags, checked: --kind, --failed, --limit, --keys, --to. */
function historyFlags(
  values: { kind?: string; failed?: boolean; limit?: string; keys?: string; to?: string },
  now: number,
): Pick<CliOptions, 'kinds' | 'failedOnly' | 'limit' | 'keysFormat' | 'restoreTo'> {
  const kinds = values.kind?.split(',').map((kind) => kind.trim().toLowerCase());
  const unknown = kinds?.find((kind) => !(JOB_KINDS as readonly string[]).includes(kind));
  if (kinds !== undefined && (kinds.length === 0 || unknown !== undefined))
    throw usageError(`--kind takes ${JOB_KINDS.join(', ')} (comma-separated), not "${printable(unknown ?? '')}".`);
  if (values.limit !== undefined && !/^[1-9]\d{0,5}$/.test(values.limit))
    throw usageError(`--limit takes a number of jobs from 1 to 999999, not "${printable(values.limit)}".`);
  if (values.keys !== undefined && values.keys !== 'csv' && values.keys !== 'json')
    throw usageError(`--keys takes csv or json, not "${printable(values.keys)}".`);
  let restoreTo: number | undefined;
  if (values.to !== undefined) {
    try {
      restoreTo = parseInstant('--to', values.to, now);
    } catch (error) {
      throw error instanceof FilterProblem ? usageError(error.message) : error;
    }
    if (restoreTo > now)
      throw usageError(`--to ${printable(values.to)} is in the future: a restore goes back to a past moment.`);
  }
  return {
    kinds: kinds as JobKind[] | undefined,
    failedOnly: values.failed ?? false,
    limit: values.limit === undefined ? undefined : Number(values.limit),
    keysFormat: values.keys as 'csv' | 'json' | undefined,
    restoreTo,
  };
}

/**
 * The connection --source-endpoint-url, --source-profile and --source-region describe, as AWS names a
 * profile's parts: each replaces the destination's own; a --source-profile brings its own endpoint and
 * region (from the profile or the environment) unless they are given too. Undefined when none is given.
 */
function sourceConnectionOf(
  values: { readonly [K in (typeof SOURCE_FLAGS)[number]]?: string },
  destination: SessionConnection,
): SessionConnection | undefined {
  const endpoint = values['source-endpoint-url'];
  const profile = values['source-profile'];
  const region = values['source-region'];
  if (endpoint === undefined && profile === undefined && region === undefined) return undefined;
  const own = profile === undefined ? destination : { ...destination, endpoint: undefined, region: undefined, profile };
  const parsed = sessionConnectionSchema.safeParse({
    ...own,
    ...(endpoint === undefined ? {} : { endpoint }),
    ...(region === undefined ? {} : { region }),
  });
  if (parsed.success) return parsed.data;
  const why = endpoint === undefined ? undefined : endpointUrlProblem(endpoint);
  const reason = why ? ` (it ${why})` : '';
  const typed = redactedUrl(endpoint ?? '');
  throw usageError(`--source-endpoint-url must be an http:// or https:// URL of the store, not "${typed}"${reason}.`);
}

export const USAGE = `barge: fast, safe transfers for S3 and S3-compatible stores

Usage:
  barge ls [s3://bucket[/prefix]] [--recursive]    list buckets, or a prefix
  barge ls --versions s3://bucket[/prefix]         every version and delete marker, with its version ID
  barge cp <source>... <destination> [--recursive] upload (local -> s3://) or download (s3:// -> local),
                                                   or copy in the store (s3:// -> s3://, no byte through here)
  barge mv s3://… s3://… [--recursive]             move in the store: each source deleted once its copy
                                                   is verified
  barge rm s3://bucket/key... [--recursive]        delete keys, or whole prefixes with --recursive
           [--dry-run] [--all-versions]
  barge rm --from FILE|- [s3://bucket] [--dry-run] delete the keys or s3:// URLs a file lists, one a line
  barge sync <source> <destination>                make the destination hold what the source holds,
           [--delete] [--dry-run] [--checksum]     sending only what differs (folder -> s3://, s3:// -> folder,
                                                   s3:// -> s3:// copied by the store); name filters select
                                                   on both sides, time/size/class ones only what is sent; an
                                                   extra is a selected name the source lacks
  barge mb s3://bucket                             create a bucket
  barge rb s3://bucket                             delete an empty bucket
  barge mkdir s3://bucket/prefix/name/             make an empty folder (a zero-byte "name/" marker)
  barge rb --force s3://bucket [--yes]             empty the bucket (every object, version and unfinished
                                                   upload), then delete it; asks for its name unless --yes
  barge rm -r --expire-on-server s3://bucket/prefix/ [--yes]
                                                   have the store delete a prefix too big for one machine:
                                                   a lifecycle rule expires every version below it, in the
                                                   store's own time (typically within a day); asks for the
                                                   address unless --yes
  barge lifecycle ls s3://bucket                   the bucket's lifecycle rules
  barge lifecycle rm s3://bucket RULE_ID           remove one lifecycle rule, the others kept
  barge abort-uploads s3://bucket[/prefix] [--dry-run] [--older-than 2h]
                                                   clean up incomplete multipart uploads
  barge du s3://bucket[/prefix] [--versions]       objects and bytes per storage class (--versions:
                                                   noncurrent versions and delete markers too; wildcards
                                                   and filters count what they select)
  barge cat s3://bucket/key                        write an object to standard output, checked
  barge pipe s3://bucket/key                       store standard input as an object
  barge stat s3://bucket/key                       size, ETag, checksums, parts, metadata, tags, retention
           [--version-id ID]                       (of that version of the key)
  barge presign s3://bucket/key [--expires 1h]     a link that GETs the object until it expires (7d at most)
  barge history [--kind delete] [--failed]         the jobs run (by every host), newest first, kept after
                                                   they end (90 days or 10,000 jobs)
  barge history show JOB [--keys csv|json]         one job: what, where, on which connection, how it ended;
                                                   --keys: each key and version it removed
  barge undo JOB                                   undo a delete in a bucket that keeps versions: remove
                                                   exactly the delete markers it made
  barge restore s3://bucket[/prefix] --to TIME     bring a prefix back to how it was at TIME (2026-11-25T14:00Z,
           [--dry-run]                             or an age: 2h) from its versions; --dry-run lists each change
  barge speedtest s3://bucket[/prefix]             measure the endpoint: threads by object size (16 KiB-2 MiB,
           [--budget 60s] [--json]                 1-256 threads) and part size by parts in flight (5-64 MiB),
                                                   up and down, within the budget (10s-10m); its test objects
                                                   go below a prefix of their own, all deleted after; the
                                                   result is saved for the endpoint (Auto starts from it)

Options:
  --endpoint-url URL   the S3 endpoint (default: AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL, the profile, AWS)
  --profile NAME       a profile from ~/.aws/config and ~/.aws/credentials (default: AWS_PROFILE)
  --region REGION      (default: AWS_REGION, the profile, us-east-1)
  --source-endpoint-url URL, --source-profile NAME, --source-region REGION
                       cp and mv between s3:// addresses: the sources are on this other store or account
                       (each replaces the option above; a profile brings its own endpoint and region);
                       the bytes stream through Barge
  --path-style         bucket in the URL path (default for custom endpoints)
  --virtual-hosted     bucket in the host name (default for AWS)
  --checksum MODE      when_supported (AWS default) or when_required (custom endpoint default):
                       the SDK's own checksums on control requests
  --upload-checksum A  what every upload request carries for the store to check: crc64nvme (AWS
                       default), crc32c (other stores), crc32, md5 (Content-MD5) or off. Until the
                       store has echoed a CRC, Content-MD5 goes with it (stores that ignore CRCs
                       check it). Downloads are checked against the object's checksum or ETag.
  --threads auto|N     requests in flight: auto (the default) starts at 64 and climbs while throughput
                       climbs, backs off when the store throttles (SlowDown); N (1-256) pins it
  --part-size auto|SIZE  multipart part size: auto (the default) picks one per file from its size,
                       the threads and the bandwidth measured; SIZE (5MiB-5GiB) pins it
  --max-rate RATE      at most this many bytes a second, up and down, across the whole transfer:
                       50MB/s, 20MiB/s, 500KB/s (default 0: no cap)
  -r, --recursive      folders and prefixes, everything below them
  --dry-run            show what would happen; change nothing
  --all-versions       rm: every version and delete marker (versioned buckets)

Wildcards and filters (ls, cp, mv, rm, sync, du):
  s3://b/logs/2024-*/*.gz   a key with * (any characters, "/" included) or ? (one character) is a
                       wildcard, as in s5cmd: only the part before the first one is listed. --raw
                       takes * and ? as themselves
  --include GLOB       only what matches GLOB (repeatable: any of them); globs see the key below
                       the folder named (s3://b/logs/ and --include "2024-*" keep logs/2024-...)
  --exclude GLOB       leave out what matches GLOB (repeatable); wins over --include, in any order
  --older-than AGE     only objects modified before AGE ago (90d, 12h, 30m, 2w) or a date
                       (2024-01-31, 2024-01-31T12:00Z; UTC unless a zone is given); never in the
                       future. abort-uploads: only uploads begun at least AGE ago (an age only)
  --newer-than AGE     only objects modified after AGE ago, or after a date
  --larger-than SIZE   only objects of more than SIZE (1GiB, 500MB, 10KiB, 4096)
  --smaller-than SIZE  only objects of less than SIZE
  --storage-class C    only objects of these storage classes (STANDARD, GLACIER,... comma-separated)
  A dry run (rm --dry-run) prints the first 20 matches, then the count and bytes of all; with
  --json, every match as a JSON line. A wildcard or filter that matches nothing says so: ls then
  exits 1, rm deletes nothing and exits 0, cp and mv fail ("No object matches ...", exit 1).
  --receipt FILE       cp: when done, write what was stored or saved (key, size, ETag, version,
                       checksum) as CSV, or JSON for a .json name
  --no-resume          cp, mv, rm, sync: start afresh instead of continuing an interrupted run
  --case-insensitive   cp (download): refuse keys whose names differ only in case, as on Windows
                       and macOS (default: ask the target folder)
  --if-exists WHAT     cp, mv: a file (download) or object (upload) already there is overwritten
                       (default, as cp and aws s3 cp do), skipped, kept beside the new one
                       (rename: "a (1).txt"), replaced only by a newer one (newer), or the item
                       fails (fail). An upload then lists the destination once (no request per
                       file) and writes only where nothing has appeared since (If-None-Match)
  --no-follow-symlinks cp (upload): skip symbolic links, each named, instead of following them
                       (default: links to files and folders are followed, loops refused)
  --require-verified   cp (download): fail an object that can be checked only for its size (no
                       checksum or ETag to check it against) instead of saving it with a warning
  --delete             sync: remove what is only at the destination, once the sends are done (with
                       --delete to a bucket's top, --yes is needed too)
  --checksum           sync (no value): compare files and objects on both sides by checksum (the
                       MD5 a single-part ETag is) instead of by size and time; where an ETag is no
                       MD5 (multipart), size and time decide, and a key sent says so
  --storage-class C    cp (upload), pipe: STANDARD, STANDARD_IA, INTELLIGENT_TIERING, GLACIER_IR, ...
  --content-type T     cp (upload), pipe: instead of the type guessed from the file's name
  --cache-control V, --content-encoding V, --content-disposition V
                       cp (upload), pipe: stored with the object and sent back with it
  --metadata K=V       cp (upload), pipe: user metadata (x-amz-meta-K), repeatable
  --tags K=V           cp (upload), pipe: an object tag, repeatable (10 at most)
  --sse MODE           cp (upload), pipe: server-side encryption, AES256 or aws:kms
  --sse-kms-key-id ID  with --sse aws:kms: the KMS key (default: the bucket's or account's)
  --acl ACL            cp (upload), pipe: a canned ACL (private, public-read, bucket-owner-full-control, ...)
  --versions           du: count noncurrent versions and delete markers too; ls: list them
  --version-id ID      cp (download, or s3:// -> s3://), stat: that version of the key, not its latest
  --expires AGE        presign: how long the link works (90s, 30m, 12h, 7d; default 1h, at most 7d)
  --kind K[,K]         history: only jobs of these kinds (upload, download, delete, sync, copy, undo, restore)
  --failed             history: only jobs that failed
  --limit N            history: list at most N jobs (default 50)
  --keys csv|json      history show: each key the job removed, with the version ID it deleted or the
                       delete marker it made (CSV, or JSON lines)
  --to TIME            restore: the moment (a date such as 2026-11-25T14:00:00Z, or an age: 90m, 2h)
  --json               machine-readable output, one JSON object per line
  -q, --quiet          no progress bar

Credentials come from the AWS environment variables (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
AWS_SESSION_TOKEN), the profile, SSO or any other source of the AWS default chain.
A folder keeps its name: "barge cp -r photos s3://b/backup/" writes s3://b/backup/photos/...
A destination ending in "/" is a folder: "barge cp -r s3://a/photos s3://b/backup/" writes
s3://b/backup/photos/...; without the "/" it is a new name: "barge mv -r s3://b/photos s3://b/pics"
renames the folder. Copies keep metadata, tags and content headers, each checked by its checksum or ETag.
A prefix is a folder: "barge rm -r s3://b/logs" deletes logs/..., never logs2/... or logs.txt.
An interrupted cp or rm (crash, kill, lost connection) goes on where it stopped when the same
command is run again (from any folder): sent parts and written ranges are not sent again. The
journal lives in BARGE_DATA_DIR (default ~/.config/barge); BARGE_NO_JOURNAL=1 turns it off.`;
