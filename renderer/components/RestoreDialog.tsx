// Restore to…: a folder brought back to how it was at a moment. The moment is picked in local time
// (and sent as milliseconds, UTC); a moment to come is refused here with the reason. "List changes"
// runs the restore as a dry run and lists every change it would make; only then does Restore run it,
// for the moment listed. A refusal (versioning never enabled or suspended, dates the store cannot
// give) is the dry run's error, shown as it is.

import { useEffect, useRef, useState } from 'react';
import { formatS3Url } from '../../src/s3-url.ts';
import { plural } from '../../src/plural.ts';
import { printable } from '../../src/unsafe-text.ts';
import { useJobs } from '../store/jobs-store.ts';
import { futureProblem, useRestore } from '../store/restore-store.ts';
import type { JobItem } from '../../src/jobs.ts';
import { Dialog } from './Dialog.tsx';
import { Name } from './Name.tsx';
import { rowPlacement, useRowWindow } from './useRowWindow.ts';

/** Two lines a change: its key, then what would be done (a version ID and two dates take a line of their own). */
const ROW_HEIGHT = 40;
const OVERSCAN_ROWS = 10;

/** "2026-11-26T09:30:00" for a datetime-local input: the moment in this computer's time. */
function localInputValue(ms: number): string {
  const at = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return (
    `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T` +
    `${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}`
  );
}

/** The dialog of the folder the restore store has open, if any. */
export function RestoreDialog() {
  const target = useRestore((s) => s.target);
  if (!target) return null;
  return <RestoreForm key={`${target.connectionId}:${target.bucket}:${target.prefix}`} />;
}

function RestoreForm() {
  const { target, to, planId, changes, total, planned, error, plan, planMoved, run, close } = useRestore();
  const planJob = useJobs((s) => (planId === undefined ? undefined : s.jobs.get(planId)));
  // An hour ago: a moment just past, to be moved to the one wanted.
  const [value, setValue] = useState(() => localInputValue(Date.now() - 3_600_000));
  const [running, setRunning] = useState(false);
  const status = planJob?.state.status;
  useEffect(() => {
    if (planJob) void planMoved(planJob);
    // The plan is read again as its job moves on (its state), not on each of its progress numbers.
  }, [status, planMoved]);
  if (!target) return null;
  const moment = value === '' ? Number.NaN : new Date(value).getTime();
  const problem = Number.isNaN(moment) ? 'Pick a date and time.' : futureProblem(moment, Date.now());
  const where = formatS3Url({ bucket: target.bucket, key: target.prefix });
  const listing = planId !== undefined && !planned && error === undefined;
  const planIsFor = to !== undefined && to === moment;
  return (
    <Dialog
      title={
        <>
          Restore <Name text={where} /> to…
        </>
      }
      label={`Restore ${printable(where)} to…`}
      onClose={close}
    >
      <p>
        Bring this folder back to how it was at a moment: delete markers made since are removed, keys changed since get
        their version of that moment copied over, and keys made since are hidden. Nothing is deleted for good.
      </p>
      <label>
        As it was at (local time){' '}
        <input
          type="datetime-local"
          step={1}
          aria-label="As it was at (local time)"
          value={value}
          onChange={(e) => setValue(e.target.value)}
        />
      </label>
      {problem && (
        <p role="alert" className="error">
          {problem}
        </p>
      )}
      <p role="status" aria-live="polite" className="preview">
        {listing
          ? `Listing the changes… ${(planJob?.progress.objectsDone ?? 0).toLocaleString()} so far`
          : planned && planIsFor
            ? total === 0
              ? 'Nothing to change: the folder is as it was then.'
              : `${plural(total, 'change')} to bring it back to ${new Date(to).toLocaleString()}:`
            : planned
              ? 'The time changed: list the changes again.'
              : ''}
      </p>
      {planned && planIsFor && total > 0 && <ChangeList changes={changes} total={total} bucket={target.bucket} />}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <div className="buttons">
        <button type="button" data-autofocus onClick={close}>
          Cancel
        </button>
        <button type="button" disabled={problem !== undefined || listing} onClick={() => void plan(moment)}>
          List changes
        </button>
        <button
          type="button"
          className="primary"
          disabled={!planned || !planIsFor || total === 0 || running}
          onClick={() => {
            setRunning(true);
            void run().then((job) => {
              setRunning(false);
              if (job) close();
            });
          }}
        >
          Restore {planned && planIsFor && total > 0 ? plural(total, 'change') : ''}
        </button>
      </div>
    </Dialog>
  );
}

/** The changes a restore would make, rendering only the rows on screen. */
function ChangeList({ changes, total, bucket }: { changes: readonly JobItem[]; total: number; bucket: string }) {
  const scroller = useRef<HTMLDivElement>(null);
  const more = total - changes.length;
  const lines = changes.length + (more > 0 ? 1 : 0);
  const rowWindow = useRowWindow({ count: lines, rowHeight: ROW_HEIGHT, overscan: OVERSCAN_ROWS, scroller });
  const base = `s3://${bucket}/`;
  return (
    <div ref={scroller} className="delete-preview-list" role="list" aria-label="Changes to make" tabIndex={0}>
      <div style={{ height: rowWindow.getTotalSize(), position: 'relative' }}>
        {rowWindow.getVirtualItems().map((item) => {
          const style = rowPlacement(item.start, ROW_HEIGHT);
          if (item.index >= changes.length)
            return (
              <div key="more" role="listitem" className="delete-preview-row delete-preview-more" style={style}>
                and {more.toLocaleString()} more not listed here
              </div>
            );
          const change = changes[item.index]!;
          const key = change.source.startsWith(base) ? change.source.slice(base.length) : change.source;
          return (
            <div key={item.index} role="listitem" className="restore-change" style={style}>
              <span className="restore-change-key">
                <Name text={key} />
              </span>
              <span className="restore-change-what" title={change.message}>
                {change.message ?? ''}
              </span>
            </div>
          );
        })}
      </div>
    </div>
  );
}
