// Whether a job of the history can be undone, and if not, why: said before anything is sent.

import { BargeError } from '../errors.ts';
import type { HistoryRecord } from '../journal/journal.ts';

/** Why `record` cannot be undone on the connection `connectionRef` names, or undefined when it can. */
export function undoRefusal(record: HistoryRecord, connectionRef: string | undefined): BargeError | undefined {
  const id = record.id;
  if (record.kind !== 'delete')
    return new BargeError(
      'NotUndoable',
      `Job ${id} was ${article(record.kind)}, not a delete: only a delete can be undone.`,
    );
  if (record.undoneBy !== undefined)
    return new BargeError('AlreadyUndone', `Job ${id} was undone already, by job ${record.undoneBy}.`);
  if (record.status === 'active' && !record.dismissed)
    return new BargeError(
      'JobNotFinished',
      `Job ${id} has not ended (it runs, or waits to be resumed): let it end, or cancel it, then undo it.`,
    );
  const spec = record.spec as { readonly bucket?: string; readonly allVersions?: boolean };
  if (spec.allVersions)
    return new BargeError(
      'NotUndoable',
      `Job ${id} deleted every version of what it deleted, for good: there are no delete markers to remove, and ` +
        `nothing can bring it back.`,
    );
  if (record.versioning === 'off')
    return new BargeError(
      'NotUndoable',
      `Job ${id} ran in the bucket ${spec.bucket}, which kept no versions then (versioning never enabled): ` +
        `what it deleted is gone for good.`,
    );
  if (connectionRef !== undefined && connectionRef !== record.connectionRef)
    return new BargeError(
      'WrongConnection',
      `Job ${id} ran on another connection (${record.connectionLabel ?? record.connectionRef}): undo it on that ` +
        `connection, with its endpoint and credentials.`,
    );
  if (record.removedCount === 0)
    return new BargeError('NothingToUndo', `Job ${id} deleted nothing: there is nothing to undo.`);
  return undefined;
}

function article(kind: string): string {
  return `${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind}`;
}
