// The history of jobs as both sides see it: what ran, from which host, on which connection, when,
// on what, and how it ended; and what a delete removed, as CSV or JSON lines.

import type { JobKind, JobProgress, JobState } from './jobs.ts';
import { csvField } from './receipt.ts';

/** Which kind of host ran a job: the desktop app, the web host, or the command line. */
export type HistoryHost = 'app' | 'web' | 'cli';

export interface HistoryEntry {
  readonly id: string;
  readonly kind: JobKind;
  readonly name: string;
  readonly host: HistoryHost;
  /** The connection it ran on, by reference (a saved connection's ID, or a command line's session). */
  readonly connectionId: string;
  /** The connection as people know it: name, endpoint, profile or access key ID (never a secret). */
  readonly connection: string;
  /** 'active': running, or waiting to be resumed; the others as a job ends. */
  readonly status: 'active' | 'completed' | 'failed' | 'cancelled';
  readonly createdAt: number;
  readonly endedAt?: number;
  /** What it was asked to do: its bucket, keys, prefixes, patterns, filter (its spec, as recorded). */
  readonly spec: unknown;
  /** Where it stood when it ended (its counts, and its error for a failure), where recorded. */
  readonly progress?: JobProgress;
  readonly state?: JobState;
  /** Objects it removed (a delete's, a sync's extras, an undo's markers). */
  readonly removed: number;
  /** A delete's bucket's versioning when it ran. */
  readonly versioning?: 'enabled' | 'suspended' | 'off';
  /** Whether it can be undone, and if not why (the connection it is undone on is checked then too). */
  readonly undo: { readonly possible: true } | { readonly possible: false; readonly why: string };
  /** The job that undid it. */
  readonly undoneBy?: string;
  /** Still in its host's list of jobs (where Retry and its details are). */
  readonly listed: boolean;
}

/** One object a job removed: the version it deleted for good, or the delete marker its delete made. */
export interface RemovedObject {
  readonly key: string;
  readonly versionId?: string;
  readonly markerVersionId?: string;
  readonly size?: number;
}

// New columns go at the end, so readers that go by position keep working.
const COLUMNS = ['key', 'version_id', 'delete_marker_version_id', 'size'] as const;

/** A job's removed objects as CSV, line by line; the header with the first page only. */
export function* formatRemovalsCsv(removed: Iterable<RemovedObject>, header: boolean): Generator<string> {
  if (header) yield `${COLUMNS.join(',')}\n`;
  for (const r of removed)
    yield `${[r.key, r.versionId ?? '', r.markerVersionId ?? '', r.size === undefined ? '' : String(r.size)]
      .map((field) => csvField(field))
      .join(',')}\n`;
}

/** A job's removed objects as JSON lines: one object a line, so a million keys stream. */
export function* formatRemovalsJson(removed: Iterable<RemovedObject>): Generator<string> {
  for (const r of removed) yield `${JSON.stringify(r)}\n`;
}

/** "barge-removed-delete-1a2b3c4d.csv". */
export function removalsFileName(kind: JobKind, id: string, format: 'csv' | 'json'): string {
  return `barge-removed-${kind}-${id.slice(0, 8)}.${format === 'csv' ? 'csv' : 'jsonl'}`;
}
