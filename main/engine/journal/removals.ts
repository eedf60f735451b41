// What a delete removed, kept compactly: one row per DeleteObjects batch, its entries as JSON, deflated.
//
// A delete of a million keys must not add a million rows (and their indexes) to the journal: a
// batch of up to 1,000 removals is one row. Keys below one prefix share most of their bytes, which
// deflate takes back; version IDs are mostly random and cost about their own length. A million keys
// with their markers add 32-37 MiB (`node tests/bench/history-size.ts`). Deflate's fastest level: the
// default one saved 4% of the bytes for a third more CPU.

import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { Removal } from './job-journal.ts';

/** [key, version ID removed, delete marker made, size]: nulls where there is none. */
type Packed = [string, string | null, string | null, number | null];

export function packRemovals(removed: readonly Removal[]): Uint8Array {
  const rows: Packed[] = removed.map((r) => [r.key, r.versionId ?? null, r.markerVersionId ?? null, r.size ?? null]);
  return deflateRawSync(JSON.stringify(rows), { level: 1 });
}

export function* unpackRemovals(data: Uint8Array): Generator<Removal> {
  const rows = JSON.parse(inflateRawSync(data).toString('utf8')) as Packed[];
  for (const [key, versionId, markerVersionId, size] of rows)
    yield {
      key,
      ...(versionId === null ? {} : { versionId }),
      ...(markerVersionId === null ? {} : { markerVersionId }),
      ...(size === null ? {} : { size }),
    };
}
