// The upload options' flags (--storage-class, --metadata k=v, ...), parsed once for every command that uploads.
//
// cp, pipe and sync take the same flags with the same refusals: each command adds UPLOAD_OPTION_FLAGS to
// what it accepts and reads `uploadOptions` from the parsed options.

import { uploadOptionsSchema } from '../../src/upload-options.ts';
import type { UploadOptions } from '../../src/upload-options.ts';
import type { BargeError } from '../../src/errors.ts';
import { printable } from '../../src/unsafe-text.ts';

export const uploadOptionSpec = {
  'storage-class': { type: 'string' },
  'content-type': { type: 'string' },
  'cache-control': { type: 'string' },
  'content-encoding': { type: 'string' },
  'content-disposition': { type: 'string' },
  metadata: { type: 'string', multiple: true },
  tags: { type: 'string', multiple: true },
  sse: { type: 'string' },
  'sse-kms-key-id': { type: 'string' },
  acl: { type: 'string' },
} as const;

export const UPLOAD_OPTION_FLAGS = Object.keys(uploadOptionSpec) as (keyof typeof uploadOptionSpec)[];

type UploadOptionValues = {
  readonly [F in keyof typeof uploadOptionSpec]?: F extends 'metadata' | 'tags' ? string[] : string;
};

/** The flags as UploadOptions, or undefined when none is given; a bad value is refused with its rule. */
export function parseUploadOptions(
  values: UploadOptionValues,
  refuse: (message: string) => BargeError,
): UploadOptions | undefined {
  const given = {
    storageClass: values['storage-class']?.toUpperCase(),
    contentType: values['content-type'],
    cacheControl: values['cache-control'],
    contentEncoding: values['content-encoding'],
    contentDisposition: values['content-disposition'],
    metadata: values.metadata && pairs('--metadata', values.metadata, refuse),
    tags: values.tags && pairs('--tags', values.tags, refuse),
    sse: values.sse,
    sseKmsKeyId: values['sse-kms-key-id'],
    acl: values.acl,
  };
  const set = Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined));
  if (Object.keys(set).length === 0) return undefined;
  const parsed = uploadOptionsSchema.safeParse(set);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const flag = FLAG_OF[String(issue.path[0])] ?? '';
    throw refuse(`${flag ? `${flag}: ` : ''}${issue.message}`);
  }
  return parsed.data;
}

const FLAG_OF: Readonly<Record<string, string>> = {
  storageClass: '--storage-class',
  contentType: '--content-type',
  cacheControl: '--cache-control',
  contentEncoding: '--content-encoding',
  contentDisposition: '--content-disposition',
  metadata: '--metadata',
  tags: '--tags',
  sse: '--sse',
  sseKmsKeyId: '--sse-kms-key-id',
  acl: '--acl',
};

/** "k=v" flags (repeatable) as one record; the value may itself hold "=". */
function pairs(
  flag: string,
  texts: readonly string[],
  refuse: (message: string) => BargeError,
): Record<string, string> {
  const record: Record<string, string> = {};
  // Metadata names are header names, which know no case (Team and team are one); tag keys do.
  const sameAs = (name: string) => (flag === '--metadata' ? name.toLowerCase() : name);
  const seen = new Set<string>();
  for (const text of texts) {
    const equals = text.indexOf('=');
    if (equals <= 0) throw refuse(`${flag} takes name=value, not "${printable(text)}".`);
    const name = text.slice(0, equals);
    if (seen.has(sameAs(name))) throw refuse(`${flag} names ${printable(name)} twice: give each name once.`);
    seen.add(sameAs(name));
    record[name] = text.slice(equals + 1);
  }
  return record;
}
