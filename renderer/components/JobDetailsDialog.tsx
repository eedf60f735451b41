// A job's details: its items one by one (source → destination, size, what became of each, and why
// for those that failed, were skipped or kept), every one or the failed ones only; the list as CSV;
// and Retry failed items. Virtualised, with its pages fetched as they scroll into view, so a job of
// 100,000 items opens as fast as one of ten.

import { useVirtualizer } from '@tanstack/react-virtual';
import { CircleCheck, CircleMinus, CircleSlash, CircleX, Download, RotateCcw } from 'lucide-react';
import type { LucideIcon } from 'lucide-react';
import { useEffect, useRef } from 'react';
import type { CSSProperties } from 'react';
import type { ConflictChoice } from '../../src/if-exists.ts';
import type { ItemState, JobItem } from '../../src/jobs.ts';
import { isFinished, JOB_KIND_NAMES } from '../../src/jobs.ts';
import { plural } from '../../src/plural.ts';
import { formatBytes } from '../format.ts';
import { PAGE_SIZE, useJobDetails } from '../store/job-details-store.ts';
import { useJobs } from '../store/jobs-store.ts';
import type { JobView } from '../store/jobs-store.ts';
import { Dialog } from './Dialog.tsx';
import { Name } from './Name.tsx';
import { MiddlePath } from './MiddlePath.tsx';
import { printable } from '../../src/unsafe-text.ts';

/**
 * A row's height before it is measured: a failed one's error may take more lines, and its row grows to show them all.
 */
const ROW_HEIGHT = 44;
/** The column names' row, above the items in the same scrolling box (it stays on top). */
const HEADER_HEIGHT = 29;
/** What became of an item, in an icon and a word: never colour alone. */
const STATES: Record<ItemState, { icon: LucideIcon; label: string }> = {
  done: { icon: CircleCheck, label: 'done' },
  failed: { icon: CircleX, label: 'failed' },
  skipped: { icon: CircleSlash, label: 'skipped' },
  kept: { icon: CircleMinus, label: 'kept' },
  retrying: { icon: RotateCcw, label: 'retrying' },
};

/** The details of the job the details store has open, if any (open one with useJobDetails' open). */

export function JobDetailsDialog() {
  const jobId = useJobDetails((s) => s.jobId);
  const job = useJobs((s) => (jobId === undefined ? undefined : s.jobs.get(jobId)));
  if (jobId === undefined) return null;
  return <JobDetails key={jobId} job={job} />;
}

function JobDetails({ job }: { job: JobView | undefined }) {
  const {
    filter,
    total,
    unlisted,
    pages,
    error,
    notice,
    choice,
    busy,
    setFilter,
    show,
    refresh,
    exportCsv,
    retryFailed,
    dismissChoice,
    jobMoved,
    close,
  } = useJobDetails();
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: total ?? 0,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
    scrollMargin: HEADER_HEIGHT,
  });
  const rows = virtualizer.getVirtualItems();
  const first = rows[0]?.index ?? 0;
  const last = rows.at(-1)?.index ?? 0;
  useEffect(() => {
    show(first, last);
  }, [first, last, show]);

  // A job that moves on (items ending, a retry starting) is read again; not on opening (the store
  // fetched the first page already).
  const p = job?.progress;
  const moved =
    job && p
      ? `${job.state.status}:${p.objectsDone}:${p.objectsFailed}:${p.objectsKept ?? 0}:${p.objectsSkipped ?? 0}`
      : '';
  const seen = useRef(moved);
  useEffect(() => {
    if (seen.current === moved) return;
    seen.current = moved;
    refresh();
  }, [moved, refresh]);

  const name = job?.name ?? 'a job no longer in the list';
  const failed = p?.objectsFailed ?? 0;
  // A retry under way says when it has ended, and how.
  const finished = job === undefined ? undefined : isFinished(job.state);
  const run = job?.startedAt;
  useEffect(() => {
    jobMoved(finished === undefined ? undefined : { finished, failed, startedAt: run });
  }, [finished, failed, run, jobMoved]);
  const canRetry = job?.state.status === 'failed' && failed > 0;
  return (
    <Dialog
      title={
        <>
          Details of <Name text={name} />
        </>
      }
      label={`Details of ${printable(name)}`}
      onClose={close}
    >
      <div className="job-details">
        {job && p ? (
          <p className="job-details-summary">
            {JOB_KIND_NAMES[job.kind]}, {job.state.status}: {p.objectsDone.toLocaleString()} done
            {(p.objectsKept ?? 0) > 0 ? ` (${p.objectsKept!.toLocaleString()} kept as they were)` : ''},{' '}
            {failed.toLocaleString()} failed
            {(p.objectsSkipped ?? 0) > 0 ? `, ${p.objectsSkipped!.toLocaleString()} skipped` : ''}
            {p.totalsKnown ? ` of ${plural(p.objectsTotal, 'item')}` : ' so far'}
          </p>
        ) : (
          <p className="hint">This job is no longer in the list.</p>
        )}
        {job?.state.status === 'failed' && failed === 0 && <p className="error">{job.state.error.message}</p>}
        <fieldset className="job-details-filter">
          <legend>Show</legend>
          <label>
            <input
              type="radio"
              name="job-details-filter"
              checked={filter === 'all'}
              onChange={() => setFilter('all')}
            />{' '}
            All items
          </label>
          <label>
            <input
              type="radio"
              name="job-details-filter"
              checked={filter === 'failed'}
              onChange={() => setFilter('failed')}
            />{' '}
            Failed items ({failed.toLocaleString()})
          </label>
        </fieldset>
        {/* Focusable, so the list scrolls from the keyboard (arrows, Page Up and Down, Home, End). */}
        <div
          ref={scroller}
          className="job-items-scroll"
          role="region"
          tabIndex={0}
          aria-label={`${filter === 'failed' ? 'Failed items' : 'Items'}, scrollable`}
        >
          <div
            className="job-items"
            role="table"
            aria-label={filter === 'failed' ? 'Failed items' : 'Items'}
            aria-rowcount={(total ?? 0) + 1}
          >
            <div role="rowgroup" className="job-items-head">
              <div className="job-item header" role="row" aria-rowindex={1} style={{ height: HEADER_HEIGHT }}>
                <span role="columnheader" className="item-state">
                  State
                </span>
                <span role="columnheader" className="item-source">
                  Source
                </span>
                <span role="columnheader" className="item-destination">
                  Destination
                </span>
                <span role="columnheader" className="item-size">
                  Size
                </span>
                <span role="columnheader" className="item-message">
                  Why
                </span>
              </div>
            </div>
            <div role="rowgroup" style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
              {rows.map((row) => {
                const item = pages.get(Math.floor(row.index / PAGE_SIZE))?.[row.index % PAGE_SIZE];
                // Measured once drawn (a long error wraps onto more lines, never clipped); at least a row's height.
                const style = {
                  position: 'absolute',
                  top: 0,
                  left: 0,
                  right: 0,
                  minHeight: ROW_HEIGHT,
                  transform: `translateY(${row.start - HEADER_HEIGHT}px)`,
                } as const;
                return item ? (
                  <ItemRow
                    key={row.index}
                    item={item}
                    index={row.index}
                    style={style}
                    measure={virtualizer.measureElement}
                  />
                ) : (
                  <div
                    key={row.index}
                    role="row"
                    aria-rowindex={row.index + 2}
                    className="job-item loading"
                    style={style}
                  >
                    <span role="cell" className="hint">
                      Loading…
                    </span>
                  </div>
                );
              })}
            </div>
          </div>
          {total === 0 && <p className="hint">{filter === 'failed' ? 'No items failed.' : 'No item has ended yet.'}</p>}
          {total === undefined && !error && <p className="hint">Loading…</p>}
        </div>
        {unlisted > 0 && (
          <p className="hint">
            … and {plural(unlisted, 'more item')} not listed: a job lists its first 1,000,000 items, and every failure.
          </p>
        )}
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        <p role="status" className="hint">
          {notice ?? ''}
        </p>
        {choice && (
          <RetryChoice
            question={choice}
            busy={busy}
            onAnswer={(answer) => void retryFailed(answer)}
            onCancel={dismissChoice}
          />
        )}
        <div className="buttons">
          <button
            type="button"
            disabled={busy || !total}
            title="Save the items shown as a CSV file"
            onClick={() => void exportCsv()}
          >
            <Download size={14} aria-hidden />
            Export CSV
          </button>
          {canRetry && !choice && (
            <button
              type="button"
              disabled={busy}
              title="Run the items that failed again, in this job"
              onClick={() => void retryFailed()}
            >
              <RotateCcw size={14} aria-hidden />
              Retry failed items
            </button>
          )}
          <button type="button" onClick={close}>
            Close
          </button>
        </div>
      </div>
    </Dialog>
  );
}

/** The answers a retry offers for items whose file was already there: never the one that failed them. */
const RETRY_ANSWERS: readonly { answer: ConflictChoice; label: string; title: string }[] = [
  { answer: 'overwrite', label: 'Replace', title: 'Replace what is there with the new one' },
  {
    answer: 'rename',
    label: 'Keep both',
    title: 'Keep what is there, and save the new one beside it as "name (1).ext"',
  },
  { answer: 'skip', label: 'Skip', title: 'Keep what is there, and leave these items out' },
];

/** Asked when a retry of the failed items would fail some the same way again: what to do with them instead. */
function RetryChoice({
  question,
  busy,
  onAnswer,
  onCancel,
}: {
  question: string;
  busy: boolean;
  onAnswer: (answer: ConflictChoice) => void;
  onCancel: () => void;
}) {
  return (
    <div className="retry-choice" role="group" aria-label="Retry the items already there">
      <p>{question}</p>
      <div className="buttons">
        {RETRY_ANSWERS.map(({ answer, label, title }) => (
          <button key={answer} type="button" disabled={busy} title={title} onClick={() => onAnswer(answer)}>
            {label}
          </button>
        ))}
        <button type="button" onClick={onCancel}>
          Not now
        </button>
      </div>
    </div>
  );
}

function ItemRow({
  item,
  index,
  style,
  measure,
}: {
  item: JobItem;
  index: number;
  style: CSSProperties;
  measure: (element: Element | null) => void;
}) {
  const state = STATES[item.state];
  const why = item.message ?? item.code ?? '';
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      className={`job-item ${item.state}`}
      style={style}
      data-index={index}
      ref={measure}
    >
      <span role="cell" className="item-state">
        <state.icon size={14} aria-hidden />
        {state.label}
      </span>
      {/* Shortened in the middle, whole in the tooltip; isolated, so a right-to-left override cannot
          reorder the row. */}
      <span role="cell" className="item-source">
        <MiddlePath text={item.source} />
      </span>
      <span role="cell" className="item-destination">
        {item.destination ? (
          <>
            → <MiddlePath text={item.destination} />
          </>
        ) : (
          ''
        )}
      </span>
      <span role="cell" className="item-size">
        {item.size === undefined ? '' : formatBytes(item.size)}
      </span>
      <span role="cell" className="item-message" title={why || undefined}>
        {why}
      </span>
    </div>
  );
}
