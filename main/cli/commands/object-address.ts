// One object's s3:// address, as stat, cat, pipe and presign take it: a bucket and a key, not a prefix.

import { isS3Url, parseS3Url } from '../../../src/s3-url.ts';
import type { S3Location } from '../../../src/s3-url.ts';
import { printable } from '../../../src/unsafe-text.ts';
import { usageError } from '../options.ts';
import { notS3Address } from './job-command.ts';

export function s3Object(text: string, command: string): S3Location {
  const location = isS3Url(text) ? parseS3Url(text) : undefined;
  if (!location) throw usageError(notS3Address(text));
  if (location.key === '' || location.key.endsWith('/'))
    throw usageError(
      `${command} takes one object's address, s3://bucket/key, not a bucket or a folder ("${printable(text)}").`,
    );
  return location;
}
