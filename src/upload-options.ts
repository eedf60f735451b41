// What an uploaded object is stored with: storage class, content headers, metadata, tags, encryption, ACL.
//
// One schema for every way in (the command line's flags, the window's per-bucket settings, a job spec
// read back from the journal), so each refuses the same values with the same sentence. Headers go on
// the wire as they are: a control character would split or forge a header, and S3 keeps user metadata
// as US-ASCII only, so both are refused by name rather than sent and mangled.

import { z } from 'zod';

export const STORAGE_CLASSES = [
  'STANDARD',
  'REDUCED_REDUNDANCY',
  'STANDARD_IA',
  'ONEZONE_IA',
  'INTELLIGENT_TIERING',
  'GLACIER',
  'DEEP_ARCHIVE',
  'GLACIER_IR',
  'OUTPOSTS',
  'SNOW',
  'EXPRESS_ONEZONE',
] as const;

export const CANNED_ACLS = [
  'private',
  'public-read',
  'public-read-write',
  'authenticated-read',
  'aws-exec-read',
  'bucket-owner-read',
  'bucket-owner-full-control',
] as const;

export const SSE_MODES = ['AES256', 'aws:kms'] as const;

/** S3's limits: 2 KiB of user metadata (names and values), 10 tags of 128/256 characters. */
export const MAX_METADATA_BYTES = 2048;
export const MAX_TAGS = 10;
export const MAX_TAG_KEY_CHARS = 128;
export const MAX_TAG_VALUE_CHARS = 256;
const MAX_HEADER_VALUE_CHARS = 1024;

/** Printable US-ASCII and tab: what an HTTP header value carries as it is. */
const HEADER_TEXT = /^[\t\x20-\x7e]*$/;
/** A metadata name becomes part of a header name (x-amz-meta-NAME): an HTTP token. */
const METADATA_NAME = /^[A-Za-z0-9!#$&'*+.^_`|~-]+$/;
/** What S3 accepts in a tag: letters, digits, spaces and + - = . _ : / @ (any script's letters). */
const TAG_TEXT = /^[\p{L}\p{N}\p{Zs}+\-=._:/@]*$/u;

/**
 * What to do with text beyond US-ASCII, by header: only Content-Disposition has a standard form for it (RFC 8187);
 * a metadata value is the writer's own text, so the writer encodes it and its readers decode it.
 */
const BEYOND_ASCII_ADVICE = {
  header: 'this header carries printable US-ASCII only',
  disposition: "percent-encode the file name as RFC 8187 says (filename*=UTF-8''…)",
  metadata:
    'a metadata value carries printable US-ASCII only: encode other text first (percent-encoding or base64) ' +
    'and decode it where it is read',
} as const;

/** Why `value` cannot be sent as a header's value, or undefined. */
export function headerValueProblem(
  value: string,
  beyondAscii: keyof typeof BEYOND_ASCII_ADVICE = 'header',
): string | undefined {
  if (value.length > MAX_HEADER_VALUE_CHARS) return `is longer than ${MAX_HEADER_VALUE_CHARS} characters`;
  if (/[\x00-\x08\x0a-\x1f\x7f]/.test(value))
    return 'holds a control character (a line break or the like), which would split the request’s header';
  if (!HEADER_TEXT.test(value))
    return `holds a character beyond US-ASCII, which S3 does not keep as it is: ${BEYOND_ASCII_ADVICE[beyondAscii]}`;
  return undefined;
}

const headerValue = (what: string, beyondAscii: keyof typeof BEYOND_ASCII_ADVICE = 'header') =>
  z.string().superRefine((value, context) => {
    const problem = headerValueProblem(value, beyondAscii);
    if (problem) context.addIssue({ code: 'custom', message: `${what} "${shown(value)}" ${problem}.` });
  });

function shown(text: string): string {
  const cut = text.length > 60 ? `${text.slice(0, 60)}…` : text;
  return cut.replace(/[\x00-\x1f\x7f-\x9f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** UTF-8 bytes, in a window as in Node (no Buffer in a browser). */
function utf8Bytes(text: string): number {
  return new TextEncoder().encode(text).length;
}

export const metadataSchema = z.record(z.string(), z.string()).superRefine((metadata, context) => {
  let bytes = 0;
  const seen = new Set<string>();
  for (const [name, value] of Object.entries(metadata)) {
    bytes += utf8Bytes(name) + utf8Bytes(value);
    // Metadata travels as headers, whose names know no case: Team and team would be one, one value lost.
    if (seen.has(name.toLowerCase()))
      context.addIssue({
        code: 'custom',
        message:
          `The metadata name "${shown(name)}" is given twice (names differ only in case are one): give ` +
          `each name once.`,
      });
    seen.add(name.toLowerCase());
    if (!METADATA_NAME.test(name))
      context.addIssue({
        code: 'custom',
        message:
          `The metadata name "${shown(name)}" is not one S3 takes: letters, digits and - _ . only (it ` +
          `becomes the header x-amz-meta-NAME).`,
      });
    const problem = headerValueProblem(value, 'metadata');
    if (problem)
      context.addIssue({ code: 'custom', message: `The metadata value of ${name}, "${shown(value)}", ${problem}.` });
  }
  if (bytes > MAX_METADATA_BYTES)
    context.addIssue({
      code: 'custom',
      message:
        `The metadata comes to ${bytes} bytes; S3 keeps at most ${MAX_METADATA_BYTES} bytes of names ` + `and values.`,
    });
});

export const tagsSchema = z.record(z.string(), z.string()).superRefine((tags, context) => {
  const entries = Object.entries(tags);
  if (entries.length > MAX_TAGS)
    context.addIssue({ code: 'custom', message: `${entries.length} tags: S3 keeps at most ${MAX_TAGS} on an object.` });
  for (const [key, value] of entries) {
    if (key.length === 0 || key.length > MAX_TAG_KEY_CHARS || !TAG_TEXT.test(key))
      context.addIssue({
        code: 'custom',
        message:
          `The tag key "${shown(key)}" is not one S3 takes: 1 to ${MAX_TAG_KEY_CHARS} letters, digits, ` +
          `spaces and + - = . _ : / @.`,
      });
    if (value.length > MAX_TAG_VALUE_CHARS || !TAG_TEXT.test(value))
      context.addIssue({
        code: 'custom',
        message:
          `The value of tag ${shown(key)}, "${shown(value)}", is not one S3 takes: up to ` +
          `${MAX_TAG_VALUE_CHARS} letters, digits, spaces and + - = . _ : / @.`,
      });
  }
});

export const uploadOptionsSchema = z
  .strictObject({
    storageClass: z.enum(STORAGE_CLASSES, {
      error: (issue) => `"${shown(String(issue.input))}" is not a storage class: ${STORAGE_CLASSES.join(', ')}.`,
    }),
    /** Instead of the type guessed from the file's name. */
    contentType: headerValue('The content type'),
    cacheControl: headerValue('The cache-control'),
    contentEncoding: headerValue('The content-encoding'),
    contentDisposition: headerValue('The content-disposition', 'disposition'),
    metadata: metadataSchema,
    tags: tagsSchema,
    sse: z.enum(SSE_MODES, {
      error: (issue) => `"${shown(String(issue.input))}" is not a server-side encryption: AES256 or aws:kms.`,
    }),
    sseKmsKeyId: headerValue('The KMS key ID').pipe(z.string().min(1)),
    acl: z.enum(CANNED_ACLS, {
      error: (issue) => `"${shown(String(issue.input))}" is not a canned ACL: ${CANNED_ACLS.join(', ')}.`,
    }),
  })
  .partial()
  .refine((options) => options.sseKmsKeyId === undefined || options.sse === 'aws:kms', {
    message: 'A KMS key ID goes with aws:kms encryption: give --sse aws:kms with --sse-kms-key-id.',
    path: ['sseKmsKeyId'],
  });

export type UploadOptions = z.infer<typeof uploadOptionsSchema>;

/** The tags as S3's x-amz-tagging header and Tagging field carry them: a URL query string. */
export function taggingQuery(tags: Readonly<Record<string, string>>): string {
  return new URLSearchParams(Object.entries(tags)).toString().replace(/\+/g, '%20');
}

/** Whether any option is set (an empty object is no options). */
export function hasUploadOptions(options: UploadOptions | undefined): options is UploadOptions {
  return options !== undefined && Object.values(options).some((value) => value !== undefined);
}
