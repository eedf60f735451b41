// A journal's record of a job, as the history shows it to every host.

import type { HistoryEntry } from '../../../src/history.ts';
import { parseOutcome } from '../journal/job-outcome.ts';
import type { HistoryRecord } from '../journal/journal.ts';
import { undoRefusal } from './undo-check.ts';

const VERSIONING = new Set(['enabled', 'suspended', 'off']);

/** `listed`: the job is in this host's list now (its details and Retry are there). */
export function historyEntry(record: HistoryRecord, listed: boolean): HistoryEntry {
  const outcome = parseOutcome(record.outcome);
  const refusal = undoRefusal(record, undefined);
  return {
    id: record.id,
    kind: record.kind,
    name: record.name,
    host: record.host,
    connectionId: record.connectionRef,
    connection: record.connectionLabel ?? record.connectionRef,
    status: record.status,
    createdAt: record.createdAt,
    ...(record.endedAt === undefined ? {} : { endedAt: record.endedAt }),
    spec: record.spec,
    ...(outcome ? { progress: outcome.progress, state: outcome.state } : {}),
    removed: record.removedCount,
    ...(record.versioning !== undefined && VERSIONING.has(record.versioning)
      ? { versioning: record.versioning as 'enabled' | 'suspended' | 'off' }
      : {}),
    undo: refusal ? { possible: false, why: refusal.message } : { possible: true },
    ...(record.undoneBy === undefined ? {} : { undoneBy: record.undoneBy }),
    listed,
  };
}
