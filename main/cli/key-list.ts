// rm --from: the keys a file (or standard input, "-") lists, one a line, as keys or s3:// URLs.
//
// A list is what the operator wrote or another tool printed: its lines are taken exactly (no
// wildcards, no trimming but a Windows line end), blank lines skipped, a key named twice deleted once.
// Every line is read before anything is deleted, so a bad line (another bucket, a bare key with no
// bucket given) stops the command with its line number and nothing gone.

import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { isS3Url, parseS3Url } from '../../src/s3-url.ts';
import { printable } from '../../src/unsafe-text.ts';
import { usageError } from './options.ts';

/** The most keys one delete job takes (the contract's limit): a longer list is split by the operator. */
export const MAX_LISTED_KEYS = 1_000_000;

export async function keysFromList(
  from: string,
  bucketGiven: string | undefined,
): Promise<{ bucket: string; keys: string[] }> {
  const name = from === '-' ? 'standard input' : from;
  const input =
    from === '-'
      ? process.stdin
      : createReadStream(from).on('error', () => {
          /* said below, by the read's own rejection */
        });
  let bucket = bucketGiven;
  const keys = new Set<string>();
  let line = 0;
  try {
    for await (const text of createInterface({ input, crlfDelay: Infinity })) {
      line += 1;
      if (text === '') continue;
      let key = text;
      if (isS3Url(text)) {
        const location = parseS3Url(text);
        if (!location || location.key === '')
          throw usageError(`${name}, line ${line}: "${printable(text)}" names no object (s3://bucket/key).`);
        bucket ??= location.bucket;
        if (location.bucket !== bucket)
          throw usageError(
            `${name}, line ${line}: s3://${location.bucket}/ is another bucket than s3://${bucket}/: delete ` +
              `from one bucket at a time.`,
          );
        key = location.key;
      } else if (bucket === undefined) {
        throw usageError(
          `${name}, line ${line}: "${printable(text)}" is a bare key, and no bucket was given: write barge rm ` +
            `--from ${from} s3://BUCKET, or s3:// URLs in the list.`,
        );
      }
      keys.add(key);
      if (keys.size > MAX_LISTED_KEYS)
        throw usageError(
          `${name} lists more than ${MAX_LISTED_KEYS.toLocaleString('en-US')} keys: split it, and run one rm ` +
            `--from for each part.`,
        );
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw usageError(`--from ${from}: no such file.`);
    if (code === 'EISDIR') throw usageError(`--from ${from}: that is a folder; name a file of keys.`);
    if (code === 'EACCES') throw usageError(`--from ${from}: the file cannot be read (permission denied).`);
    throw error;
  }
  if (bucket === undefined) throw usageError(`--from ${from}: the list is empty, and no bucket was given.`);
  return { bucket, keys: [...keys] };
}
