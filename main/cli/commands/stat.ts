// barge stat: everything the store says of one object, as lines of "name: value" (or one JSON object).

import { formatBytes } from '../../../src/byte-units.ts';
import type { Answered, ObjectStat } from '../../../src/object-stat.ts';
import { printable, printableJson } from '../../../src/unsafe-text.ts';
import type { CliContext } from '../context.ts';
import { usageError } from '../options.ts';
import { s3Object } from './object-address.ts';

export async function stat(cli: CliContext): Promise<number> {
  const { args, json } = cli.options;
  if (args.length !== 1) throw usageError('stat takes one object: barge stat s3://bucket/key.');
  const { bucket, key } = s3Object(args[0]!, 'stat');
  const { versionId } = cli.options;
  const found = await cli.service.call('objects.stat', {
    connectionId: cli.connectionId,
    bucket,
    key,
    ...(versionId === undefined ? {} : { versionId }),
  });
  cli.stdout.write(json ? `${printableJson(found)}\n` : statLines(found));
  return 0;
}

/** The answer as aligned "Name: value" lines; names and values from the store shown escaped. */
export function statLines(found: ObjectStat): string {
  const rows: [string, string | undefined][] = [
    ['Name', `s3://${found.bucket}/${found.key}`],
    ['Size', `${found.size.toLocaleString('en-US')} bytes (${formatBytes(found.size)})`],
    ['ETag', found.etag],
    ['Last modified', found.lastModified === undefined ? undefined : new Date(found.lastModified).toISOString()],
    ['Version', found.versionId],
    ['Storage class', found.storageClass],
    ['Parts', found.partsCount === undefined ? undefined : String(found.partsCount)],
    ...Object.entries(found.checksums).map(([name, value]): [string, string] => [`Checksum ${name}`, value]),
    ['Checksum type', found.checksumType],
    ['Content-Type', found.contentType],
    ['Cache-Control', found.cacheControl],
    ['Content-Encoding', found.contentEncoding],
    ['Content-Disposition', found.contentDisposition],
    ['Content-Language', found.contentLanguage],
    ['Encryption', found.serverSideEncryption],
    ['KMS key', found.sseKmsKeyId],
    ...Object.entries(found.metadata).map(([name, value]): [string, string] => [`Metadata ${name}`, value]),
    ['Tags', answer(found.tags, (tags) => pairs(tags) || 'none')],
    [
      'Retention',
      answer(found.retention, (r) =>
        r.mode
          ? `${r.mode} until ${r.retainUntil === undefined ? '?' : new Date(r.retainUntil).toISOString()}`
          : 'none',
      ),
    ],
    ['Legal hold', answer(found.legalHold, (hold) => hold.status ?? 'none')],
  ];
  const shown = rows.filter((row): row is [string, string] => row[1] !== undefined);
  const width = Math.max(...shown.map(([name]) => printable(name).length)) + 1;
  return shown.map(([name, value]) => `${`${printable(name)}:`.padEnd(width)} ${printable(value)}\n`).join('');
}

function answer<T>(answered: Answered<T>, say: (value: T) => string): string {
  return answered.available ? say(answered.value) : `not available (${answered.why})`;
}

function pairs(record: Readonly<Record<string, string>>): string {
  return Object.entries(record)
    .map(([name, value]) => `${name}=${value}`)
    .join(', ');
}
