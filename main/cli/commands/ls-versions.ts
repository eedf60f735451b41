// barge ls --versions: every version and delete marker below a prefix, each key's latest first.
//
// A line a version: its date, its size (or DEL for a delete marker), LATEST where a GET of the key
// gives it, its version ID, and the key; --json gives each as the service answers it.

import { printableJson, printableName } from '../../../src/unsafe-text.ts';
import { unreadableKeyWarning } from '../../../src/unreadable-key.ts';
import type { ObjectVersionRow } from '../../../src/contract/models.ts';
import type { CliContext } from '../context.ts';

/** Versions a listing asks for at a time: S3's largest page. */
const PAGE_SIZE = 1000;

export async function listVersions(cli: CliContext, bucket: string, prefix: string): Promise<number> {
  const { json, recursive } = cli.options;
  let token: string | undefined;
  do {
    const page = await cli.service.call('objects.versions', {
      connectionId: cli.connectionId,
      bucket,
      prefix,
      recursive,
      token,
      pageSize: PAGE_SIZE,
    });
    token = page.nextToken;
    const lines = [
      ...page.prefixes.map((p) =>
        json ? printableJson({ prefix: p }) : `${''.padStart(19)}  ${'PRE'.padStart(10)}  ${printableName(p)}`,
      ),
      ...page.versions.map((v) => (json ? printableJson(v) : versionLine(v))),
    ];
    if (lines.length > 0) cli.stdout.write(`${lines.join('\n')}\n`);
    for (const sent of page.unreadable ?? []) cli.stderr.write(`warning: ${unreadableKeyWarning(sent)}\n`);
  } while (token !== undefined);
  return 0;
}

function versionLine(v: ObjectVersionRow): string {
  const date = v.lastModified === undefined ? ''.padStart(19) : new Date(v.lastModified).toISOString().slice(0, 19);
  const size = v.isDeleteMarker ? 'DEL' : String(v.size);
  const latest = v.isLatest ? 'LATEST' : '';
  const when = date.replace('T', ' ');
  return `${when}  ${size.padStart(10)}  ${latest.padEnd(6)}  ${printableName(v.versionId)}  ${printableName(v.key)}`;
}
