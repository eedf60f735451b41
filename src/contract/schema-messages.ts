// A call's parameters refused in words: which field, what is wrong with it, what it may be.
//
// zod's own messages ("prefix: Too big: expected string to have <=1024 characters") reach whoever
// made the call: the window's status line, `barge`'s one line. Every field of the contract has its
// name in words here (a test walks the schemas to hold it so), and every kind of refusal a
// sentence; checks of our own (custom issues) are sentences already and pass as they are.

import type { z } from 'zod';

type Issue = z.core.$ZodIssue;

/** Each field's name as a sentence says it; a list's items by `item`. */
export const FIELD_WORDS: Readonly<Record<string, { readonly name: string; readonly item?: string }>> = {
  abortUploads: { name: 'the abort-uploads choice' },
  accessKeyId: { name: 'the access key ID' },
  acl: { name: 'the canned ACL' },
  allVersions: { name: 'the all-versions choice' },
  applyToAll: { name: 'the "do the same for every file" choice' },
  arriving: { name: 'what is on its way to the host' },
  bucket: { name: 'the bucket name' },
  budgetMs: { name: "the speed test's time budget (in milliseconds)" },
  bytes: { name: 'the number of bytes' },
  cacheControl: { name: 'the cache-control' },
  caseInsensitive: { name: 'the case-insensitive choice' },
  checksum: { name: 'the compare-by-checksum choice' },
  checksumMode: { name: 'the checksum mode' },
  choice: { name: 'the answer' },
  runId: { name: 'the speed test' },
  confinedTo: { name: 'the download root' },
  conflictId: { name: 'the question answered' },
  connectionId: { name: 'the connection' },
  sourceConnectionId: { name: 'the source connection' },
  confirmed: { name: 'the confirmation' },
  delete: { name: 'the delete-extra choice' },
  contentDisposition: { name: 'the content-disposition' },
  contentEncoding: { name: 'the content-encoding' },
  contentType: { name: 'the content type' },
  deleteBucket: { name: 'the delete-the-bucket choice' },
  direction: { name: 'the direction of the sync' },
  folder: { name: 'the local folder' },
  destination: { name: 'the destination' },
  dryRun: { name: 'the dry-run choice' },
  endpoint: { name: 'the endpoint' },
  entries: { name: 'the list of items dropped', item: 'the name of an item dropped' },
  expiresInSeconds: { name: "the link's lifetime in seconds" },
  files: { name: 'the number of files' },
  filter: { name: 'the filter' },
  folders: { name: 'the list of folders dropped', item: 'the name of a folder dropped' },
  followSymlinks: { name: 'the follow-links choice' },
  failedOnly: { name: 'the failed-only choice' },
  format: { name: 'the format' },
  id: { name: 'the ID' },
  kinds: { name: 'the kinds of job', item: 'a kind of job' },
  ifExists: { name: 'the answer for a file already there' },
  input: { name: 'the connection' },
  key: { name: 'the key' },
  keys: { name: 'the list of keys', item: 'a key' },
  keySizes: { name: 'the list of key sizes', item: 'a key size' },
  pattern: { name: 'the wildcard pattern' },
  patterns: { name: 'the list of wildcard patterns', item: 'a wildcard pattern' },
  include: { name: 'the globs to include', item: 'a glob to include' },
  exclude: { name: 'the globs to exclude', item: 'a glob to exclude' },
  modifiedBefore: { name: 'the time objects are older than' },
  modifiedAfter: { name: 'the time objects are newer than' },
  largerThan: { name: 'the size objects are larger than' },
  smallerThan: { name: 'the size objects are smaller than' },
  storageClasses: { name: 'the storage classes', item: 'a storage class' },
  limit: { name: 'the number of items asked for' },
  move: { name: 'the move choice' },
  list: { name: 'the list' },
  maxAttempts: { name: 'the number of tries per request' },
  maxRate: { name: 'the Max speed in bytes a second' },
  metadata: { name: 'the metadata' },
  name: { name: 'the name' },
  offset: { name: 'where the page starts' },
  olderThanMs: { name: 'the age in milliseconds' },
  pageSize: { name: 'the page size' },
  parent: { name: 'the folder to make it in' },
  partCopyAboveBytes: { name: 'the size above which objects are copied in parts, in bytes' },
  partSizeBytes: { name: 'the part size in bytes' },
  path: { name: 'the path' },
  paths: { name: 'the list of files', item: "a file's path" },
  pathStyle: { name: 'the path-style choice' },
  prefix: { name: 'the prefix' },
  status: { name: 'the versioning state' },
  to: { name: 'the moment to restore to' },
  prefixes: { name: 'the list of prefixes', item: 'a prefix' },
  profile: { name: 'the profile' },
  recursive: { name: 'the recursive choice' },
  region: { name: 'the region' },
  requireVerified: { name: 'the require-verified choice' },
  resume: { name: 'the resume choice' },
  resumeWithinMs: { name: 'how long a run may be resumed, in milliseconds' },
  saveAs: { name: 'the name to save as' },
  sourceBucket: { name: 'the bucket copied from' },
  sourcePrefix: { name: 'the prefix copied from' },
  secretAccessKey: { name: 'the secret access key' },
  sessionToken: { name: 'the session token' },
  sources: { name: 'the list of files to upload', item: 'a file to upload' },
  sse: { name: 'the server-side encryption' },
  sseKmsKeyId: { name: 'the KMS key ID' },
  staged: { name: 'the files sent' },
  stagingId: { name: 'the batch of files sent' },
  stallTimeoutMs: { name: 'the stall timeout in milliseconds' },
  expireOnServerAboveKeys: { name: 'the count above which Expire on the server is offered' },
  storageClass: { name: 'the storage class' },
  tags: { name: 'the tags' },
  targetFile: { name: 'the file to download into' },
  targetFolder: { name: 'the folder to download into' },
  threads: { name: 'the number of requests in flight' },
  token: { name: "the listing's continuation token" },
  uploadChecksum: { name: 'the upload checksum' },
  uploadOptions: { name: 'the upload options' },
  versions: { name: 'the versions choice' },
  versionId: { name: 'the version ID' },
  sourceVersionId: { name: "the source's version ID" },
  // What limits a transfer (the engine's stats: `limit`, whose own name is taken above by listings).
  kind: { name: 'the kind of limit' },
  words: { name: 'the limit in words' },
  figures: { name: 'the figures behind the limit', item: 'a figure' },
  value: { name: "the figure's value" },
  text: { name: 'the figure in words' },
};

/** What a value of each type is called in a sentence. */
const TYPE_WORDS: Readonly<Record<string, string>> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  object: 'a set of named fields',
};

/** The sentence for the first thing wrong with a call's parameters. */
export function issueMessage(issue: Issue | undefined): string {
  if (issue === undefined) return 'The request is not valid.';
  if (issue.code === 'custom') return sentence(issue.message);
  const field = fieldWords(issue.path);
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return sentence(`${field} is missing`);
      return sentence(`${field} must be ${TYPE_WORDS[issue.expected] ?? issue.expected}`);
    case 'too_big':
      return sentence(
        issue.origin === 'string'
          ? `${field} is too long: at most ${count(issue.maximum)} characters`
          : issue.origin === 'array' || issue.origin === 'set'
            ? `${field} has too many items: at most ${count(issue.maximum)}`
            : `${field} is too large: at most ${count(issue.maximum)}`,
      );
    case 'too_small':
      if ((issue.origin === 'string' || issue.origin === 'array') && Number(issue.minimum) === 1)
        return sentence(`${field} is empty`);
      return sentence(
        issue.origin === 'string'
          ? `${field} is too short: at least ${count(issue.minimum)} characters`
          : issue.origin === 'array'
            ? `${field} has too few items: at least ${count(issue.minimum)}`
            : `${field} is too small: at least ${count(issue.minimum)}`,
      );
    case 'invalid_value':
      return sentence(
        `${field} must be ` +
          `${issue.values.length === 1 ? String(issue.values[0]) : `one of ${issue.values.map(String).join(', ')}`}`,
      );
    case 'unrecognized_keys':
      return sentence(
        `${issue.path.length === 0 ? 'This request' : field} does not take ` +
          `${issue.keys.map((name) => `"${name.slice(0, 40)}"`).join(', ')}`,
      );
    case 'invalid_union': {
      // A check of our own inside one of the choices says it best.
      const own = issue.errors.flat().find((inner) => inner.code === 'custom');
      return own ? sentence(own.message) : sentence(`${field} is not valid`);
    }
    case 'invalid_format':
      return sentence(`${field} is not in the right form`);
    case 'not_multiple_of':
      return sentence(`${field} must be a multiple of ${String(issue.divisor)}`);
    default:
      return sentence(`${field} is not valid`);
  }
}

/** "the prefix", "a key (the 3rd of the list of keys)", "the name of the connection". */
function fieldWords(path: readonly PropertyKey[]): string {
  const last = path.length - 1;
  const at = path[last];
  if (typeof at === 'number') {
    const list = FIELD_WORDS[String(path[last - 1])];
    return `${list?.item ?? 'an item'} (number ${at + 1} of ${list?.name ?? 'the list'})`;
  }
  if (at === undefined) return 'the request';
  const words = FIELD_WORDS[String(at)]?.name ?? `the field "${String(at).slice(0, 40)}"`;
  // A field inside another (the connection's name) says whose.
  const parent = path[last - 1];
  return typeof parent === 'string' && parent !== 'input' && FIELD_WORDS[parent]
    ? `${words} of ${FIELD_WORDS[parent].name}`
    : words;
}

function count(value: number | bigint): string {
  return Number(value).toLocaleString('en-US');
}

/** Capitalised and ended with a stop, as every message is. */
function sentence(text: string): string {
  const trimmed = text.trim();
  const capital = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?…]$/.test(capital) ? capital : `${capital}.`;
}
