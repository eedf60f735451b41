// What a job of the history asked for and how it ended, in words for the History view: its spec is
// kept as it was recorded (any kind's), so each field is read only where it is there.

import type { HistoryEntry } from '../src/history.ts';
import type { ObjectFilter } from '../src/object-filter.ts';
import { describeFilter } from '../src/object-filter.ts';
import { plural } from '../src/plural.ts';

type Recorded = Partial<{
  bucket: string;
  keys: readonly string[];
  prefixes: readonly string[];
  patterns: readonly string[];
  sources: readonly string[];
  destination: string;
  prefix: string;
  folder: string;
  direction: string;
  filter: ObjectFilter;
  allVersions: boolean;
  dryRun: boolean;
  undoes: string;
  to: number;
}>;

/** A folder as people say it: "logs/", or "the whole bucket" for its top. */
const folder = (prefix: string) => (prefix === '' ? 'the whole bucket' : prefix);

/**
 * "bucket photos: 2 folders (logs/, tmp/), 3 objects named; --include *.gz; every version": the
 * bucket, what was named, the patterns and the filter, each where the spec has it.
 */
export function specInWords(entry: Pick<HistoryEntry, 'kind' | 'spec'>): string {
  const spec = (typeof entry.spec === 'object' && entry.spec !== null ? entry.spec : {}) as Recorded;
  const parts: string[] = [];
  if (spec.bucket !== undefined) parts.push(`bucket ${spec.bucket}`);
  if (spec.prefixes && spec.prefixes.length > 0)
    parts.push(
      `${plural(spec.prefixes.length, 'folder')} (${spec.prefixes.slice(0, 3).map(folder).join(', ')}` +
        `${spec.prefixes.length > 3 ? ', …' : ''})`,
    );
  if (spec.keys && spec.keys.length > 0) parts.push(`${plural(spec.keys.length, 'object')} named`);
  if (spec.patterns && spec.patterns.length > 0) parts.push(`patterns ${spec.patterns.join(', ')}`);
  if (spec.sources && spec.sources.length > 0)
    parts.push(`${plural(spec.sources.length, 'file or folder', 'files or folders')} from this computer`);
  if (spec.folder !== undefined) parts.push(`folder ${spec.folder}`);
  if (entry.kind === 'restore' && spec.prefix !== undefined) parts.push(`prefix ${folder(spec.prefix)}`);
  if (entry.kind === 'sync' && spec.prefix !== undefined) parts.push(`prefix ${folder(spec.prefix)}`);
  if (spec.destination !== undefined) parts.push(`to ${spec.destination || 'the top'}`);
  if (spec.to !== undefined) parts.push(`as it was at ${new Date(spec.to).toLocaleString()}`);
  if (spec.undoes !== undefined) parts.push(`undoes job ${spec.undoes}`);
  const filter = describeFilter(spec.filter);
  if (filter) parts.push(`filter ${filter}`);
  if (spec.allVersions) parts.push('every version');
  if (spec.dryRun) parts.push('a dry run');
  return parts.join('; ') || 'nothing recorded';
}

/** "completed", "failed (3)", "undone", "unfinished". */
export function outcomeInWords(entry: Pick<HistoryEntry, 'status' | 'progress' | 'undoneBy'>): string {
  if (entry.undoneBy !== undefined) return 'undone';
  if (entry.status === 'active') return 'unfinished';
  const failed = entry.progress?.objectsFailed ?? 0;
  return entry.status === 'failed' && failed > 0 ? `failed (${failed.toLocaleString()})` : entry.status;
}

/** "versioning enabled", "versioning suspended", "versioning never enabled". */
export function versioningInWords(state: 'enabled' | 'suspended' | 'off'): string {
  return state === 'off' ? 'versioning never enabled' : `versioning ${state}`;
}
