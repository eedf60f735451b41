// What a command's addresses name, sorted for the service: keys, folders (with --recursive) and
// wildcard patterns; and a dry run's matches, printed from its job's items.

import { formatBytes } from '../../src/byte-units.ts';
import { describeFilter, isFiltering, wildcardPrefix } from '../../src/object-filter.ts';
import type { ObjectFilter } from '../../src/object-filter.ts';
import { plural } from '../../src/plural.ts';
import type { S3Location } from '../../src/s3-url.ts';
import { printable, printableJson, printableName } from '../../src/unsafe-text.ts';
import type { CliContext } from './context.ts';
import { isPattern } from './filter-options.ts';
import { usageError } from './options.ts';

/** A dry run prints this many matches, then the count and bytes of all (--json prints every one). */
export const DRY_RUN_SHOWN_MATCHES = 20;

export interface NamedObjects {
  readonly keys: string[];
  readonly prefixes: string[];
  readonly patterns: string[];
}

/**
 * Keys, folders and patterns from addresses: a key with * or ? is a pattern (unless --raw), a key with
 * --recursive a folder. A filter applies to what is listed, so it needs a folder or a pattern.
 */
export function namedObjects(
  cli: CliContext,
  locations: readonly S3Location[],
  verb: string,
  options: { folderKey?: (key: string) => string } = {},
): NamedObjects {
  const { recursive, raw, filter } = cli.options;
  const patterns = locations.filter((l) => isPattern(l.key, raw)).map((l) => l.key);
  const plain = locations.filter((l) => !isPattern(l.key, raw)).map((l) => l.key);
  const folder = options.folderKey ?? ((key: string) => key);
  const keys = recursive ? [] : plain;
  if (isFiltering(filter) && keys.length > 0)
    throw usageError(
      `${describeFilter(filter).split(' ')[0]} filters what a listing finds, and ` +
        `s3://${locations[0]!.bucket}/${keys[0]} names one object: add --recursive to ${verb} what matches ` +
        `below a folder, or give a wildcard (s3://${locations[0]!.bucket}/${keys[0]}*).`,
    );
  return { keys, prefixes: recursive ? [...new Set(plain.map(folder))] : [], patterns: [...new Set(patterns)] };
}

/** "s3://b/logs/2024-*\/*.gz with --older-than …", for "nothing matched". */
export function matchedWhat(bucket: string, named: NamedObjects, filter: ObjectFilter | undefined): string {
  const places = [...named.patterns, ...named.prefixes.map((p) => (p === '' || p.endsWith('/') ? p : `${p}/`))];
  const where = places.length === 1 ? `s3://${bucket}/${places[0]}` : `the ${plural(places.length, 'place')} named`;
  const how = describeFilter(filter);
  return `${where}${how ? ` with ${how}` : ''}`;
}

/** Whether anything named is matched by listing (a pattern, or a filtered folder): nothing matching is then said. */
export function isMatching(named: NamedObjects, filter: ObjectFilter | undefined): boolean {
  return named.patterns.length > 0 || (isFiltering(filter) && named.prefixes.length > 0);
}

/** The literal prefix a pattern lists (what the store is asked for). */
export function listedPrefix(pattern: string): string {
  return wildcardPrefix(pattern);
}

/**
 * A dry run's matches from its job's items: the first DRY_RUN_SHOWN_MATCHES as lines ("would delete
 * s3://b/k (1.2 KiB)"), or every one as a JSON line with --json.
 */
export async function printMatches(cli: CliContext, id: string, bucket: string, verb: string): Promise<void> {
  const { json } = cli.options;
  const pageSize = 1000;
  let shown = 0;
  for (let offset = 0; ; offset += pageSize) {
    const page = await cli.service.call('jobs.details', { id, filter: 'all', offset, limit: pageSize });
    const lines: string[] = [];
    for (const item of page.items) {
      if (item.state !== 'done') continue;
      if (json) {
        lines.push(printableJson({ match: objectOf(bucket, item.source), size: item.size, note: item.message }));
      } else if (shown < DRY_RUN_SHOWN_MATCHES) {
        shown += 1;
        // A word on the match (a key named that is not there), else its size.
        const size =
          item.message !== undefined
            ? ` (${printable(item.message)})`
            : item.size === undefined
              ? ''
              : ` (${formatBytes(item.size)})`;
        lines.push(`${verb} ${printableName(item.source)}${size}`);
      }
    }
    if (lines.length > 0) cli.stdout.write(`${lines.join('\n')}\n`);
    if (page.items.length < pageSize || (!json && shown >= DRY_RUN_SHOWN_MATCHES)) return;
  }
}

/** An item's source ("s3://b/k (version v)") as the key and version it names. */
function objectOf(bucket: string, source: string): { key: string; versionId?: string } {
  const rest = source.slice(`s3://${bucket}/`.length);
  const version = / \(version ([^)]*)\)$/.exec(rest);
  return version ? { key: rest.slice(0, version.index), versionId: version[1]! } : { key: rest };
}
