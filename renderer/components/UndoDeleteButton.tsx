// A finished delete's Undo, in its row of Transfers: shown when the history says the delete can be
// undone (it ran in a bucket keeping versions, made delete markers, and was not undone yet). Asked
// once per job when it ends (the jobs store keeps the answer), never per render.

import { Undo2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { isFinished } from '../../src/jobs.ts';
import { printable } from '../../src/unsafe-text.ts';
import type { JobView } from '../store/jobs-store.ts';
import { useJobs } from '../store/jobs-store.ts';

export function UndoDeleteButton({ job }: { job: JobView }) {
  const undoable = useJobs((s) => s.undoable.get(job.id));
  const learnUndo = useJobs((s) => s.learnUndo);
  const undo = useJobs((s) => s.undo);
  const [refused, setRefused] = useState<string>();
  const finishedDelete = job.kind === 'delete' && job.dryRun !== true && isFinished(job.state);
  useEffect(() => {
    if (finishedDelete) void learnUndo(job.id);
  }, [finishedDelete, job.id, job.endedAt, learnUndo]);
  if (!finishedDelete || undoable?.possible !== true) return null;
  return (
    <button
      type="button"
      aria-label={`Undo ${printable(job.name)}`}
      title={refused ?? 'Undo: remove exactly the delete markers this delete made, bringing back what it hid'}
      onClick={() => void undo(job.id).catch((e: Error) => setRefused(e.message))}
    >
      <Undo2 size={12} aria-hidden />
      Undo
    </button>
  );
}
