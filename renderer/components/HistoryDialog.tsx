// The History view: the jobs every host ran, kept after they end and across restarts, newest first,
// a page at a time (the history keeps up to 10,000), filtered by kind or to the failed ones. A job
// picked shows what it was asked in words, where it ran, when, its counts and error, the bucket's
// versioning, and who undid it; and offers Export (what it removed, CSV), Undo (a delete in a
// bucket keeping versions; otherwise disabled, with the reason said) and Retry failed items.

import { Download, RotateCcw, Undo2 } from 'lucide-react';
import type { HistoryEntry } from '../../src/history.ts';
import { JOB_KIND_NAMES } from '../../src/jobs.ts';
import { plural } from '../../src/plural.ts';
import { printable } from '../../src/unsafe-text.ts';
import { formatBytes } from '../format.ts';
import { outcomeInWords, specInWords, versioningInWords } from '../history-text.ts';
import { formatEnd } from '../job-text.ts';
import { HISTORY_PAGE_SIZE, useHistory } from '../store/history-store.ts';
import type { HistoryKinds } from '../store/history-store.ts';
import { Dialog } from './Dialog.tsx';
import { Name } from './Name.tsx';

const KIND_FILTERS: readonly { readonly kinds: HistoryKinds; readonly label: string }[] = [
  { kinds: 'all', label: 'All' },
  { kinds: 'upload', label: 'Uploads' },
  { kinds: 'download', label: 'Downloads' },
  { kinds: 'delete', label: 'Deletes' },
];

const HOSTS: Record<HistoryEntry['host'], string> = { app: 'app', web: 'web', cli: 'command line' };

/** The History view, when its store has it open. */
export function HistoryDialog() {
  const open = useHistory((s) => s.open);
  return open ? <HistoryView /> : null;
}

function HistoryView() {
  const { kinds, failedOnly, offset, jobs, total, selected, error, notice, close } = useHistory();
  const { setKinds, setFailedOnly, page, select } = useHistory();
  const now = Date.now();
  const last = Math.min(offset + HISTORY_PAGE_SIZE, total ?? 0);
  return (
    <Dialog title="History" onClose={close}>
      <div className="history">
        <div className="history-filters">
          <fieldset className="job-details-filter">
            <legend>Show</legend>
            {KIND_FILTERS.map((filter) => (
              <label key={filter.kinds}>
                <input
                  type="radio"
                  name="history-kinds"
                  checked={kinds === filter.kinds}
                  onChange={() => void setKinds(filter.kinds)}
                />{' '}
                {filter.label}
              </label>
            ))}
          </fieldset>
          <label className="inline">
            <input type="checkbox" checked={failedOnly} onChange={(e) => void setFailedOnly(e.target.checked)} /> Failed
            only
          </label>
        </div>
        <div className="history-scroll" role="region" tabIndex={0} aria-label="Finished jobs, scrollable">
          <table className="history-table" aria-label="Finished jobs">
            <thead>
              <tr>
                <th scope="col">Ended</th>
                <th scope="col">Kind</th>
                <th scope="col">What</th>
                <th scope="col">Outcome</th>
                <th scope="col">Host</th>
                <th scope="col">Connection</th>
              </tr>
            </thead>
            <tbody>
              {jobs.map((job) => (
                <tr key={job.id} className={`${job.status}${selected?.id === job.id ? ' selected' : ''}`}>
                  <td>{job.endedAt === undefined ? '—' : formatEnd(job.endedAt, now)}</td>
                  <td>{JOB_KIND_NAMES[job.kind]}</td>
                  <td className="history-what">
                    {/* The row's one control: picking it shows the job's details below. */}
                    <button
                      type="button"
                      className="link"
                      aria-current={selected?.id === job.id ? 'true' : undefined}
                      onClick={() => void select(job.id)}
                    >
                      <Name text={job.name} />
                    </button>
                  </td>
                  <td>{outcomeInWords(job)}</td>
                  <td>{HOSTS[job.host]}</td>
                  <td className="history-connection">
                    <Name text={job.connection} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {total === 0 && <p className="hint">No finished jobs{failedOnly || kinds !== 'all' ? ' match' : ' yet'}.</p>}
          {total === undefined && !error && <p className="hint">Loading…</p>}
        </div>
        <div className="history-pages">
          <span role="status">
            {total ? `${(offset + 1).toLocaleString()}–${last.toLocaleString()} of ${plural(total, 'job')}` : ''}
          </span>
          <button type="button" disabled={offset === 0} onClick={() => void page(offset - HISTORY_PAGE_SIZE)}>
            Newer
          </button>
          <button type="button" disabled={last >= (total ?? 0)} onClick={() => void page(offset + HISTORY_PAGE_SIZE)}>
            Older
          </button>
        </div>
        {selected && <HistoryDetails entry={selected} />}
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        <p role="status" className="hint">
          {notice ?? ''}
        </p>
        <div className="buttons">
          <button type="button" data-autofocus onClick={close}>
            Close
          </button>
        </div>
      </div>
    </Dialog>
  );
}

/** One job of the history, whole, with what can be done with it. */
function HistoryDetails({ entry }: { entry: HistoryEntry }) {
  const { busy, exportRemovals, undo, retry } = useHistory();
  const p = entry.progress;
  const when = (ms: number) => new Date(ms).toLocaleString();
  const failed = entry.status === 'failed';
  return (
    <section className="history-details" aria-label={`Job ${printable(entry.name)}`}>
      <h3>
        <Name text={entry.name} />
      </h3>
      <dl className="details">
        <dt>Job</dt>
        <dd>{entry.id}</dd>
        <dt>Kind</dt>
        <dd>{JOB_KIND_NAMES[entry.kind]}</dd>
        <dt>Asked</dt>
        <dd>
          <Name text={specInWords(entry)} />
        </dd>
        <dt>Connection</dt>
        <dd>
          <Name text={entry.connection} /> ({HOSTS[entry.host]})
        </dd>
        <dt>Started</dt>
        <dd>{when(entry.createdAt)}</dd>
        <dt>Ended</dt>
        <dd>{entry.endedAt === undefined ? 'not ended' : when(entry.endedAt)}</dd>
        <dt>Outcome</dt>
        <dd>{outcomeInWords(entry)}</dd>
        {p && (
          <>
            <dt>Objects</dt>
            <dd>
              {p.objectsDone.toLocaleString()} done, {p.objectsFailed.toLocaleString()} failed
              {(p.objectsKept ?? 0) > 0 ? `, ${p.objectsKept!.toLocaleString()} kept as they were` : ''},{' '}
              {formatBytes(p.bytesDone)}
            </dd>
          </>
        )}
        {entry.removed > 0 && (
          <>
            <dt>Removed</dt>
            <dd>{plural(entry.removed, 'object')}</dd>
          </>
        )}
        {entry.state?.status === 'failed' && (
          <>
            <dt>Error</dt>
            <dd className="error">
              <Name text={entry.state.error.message} />
            </dd>
          </>
        )}
        {entry.versioning && (
          <>
            <dt>Versioning</dt>
            <dd>{versioningInWords(entry.versioning)} (when it ran)</dd>
          </>
        )}
        {entry.undoneBy && (
          <>
            <dt>Undone by</dt>
            <dd>job {entry.undoneBy}</dd>
          </>
        )}
      </dl>
      {entry.kind === 'delete' && !entry.undo.possible && (
        <p className="hint" id="history-undo-why">
          Undo is not possible: <Name text={entry.undo.why} />
        </p>
      )}
      <div className="buttons">
        <button
          type="button"
          disabled={busy || entry.removed === 0}
          title="Save each key it removed, with the version deleted or the delete marker made (CSV)"
          onClick={() => void exportRemovals()}
        >
          <Download size={14} aria-hidden />
          Export
        </button>
        {entry.kind === 'delete' && (
          <button
            type="button"
            disabled={busy || !entry.undo.possible}
            aria-describedby={entry.undo.possible ? undefined : 'history-undo-why'}
            title={entry.undo.possible ? 'Remove exactly the delete markers this delete made' : entry.undo.why}
            onClick={() => void undo()}
          >
            <Undo2 size={14} aria-hidden />
            Undo
          </button>
        )}
        {failed && (
          <button type="button" disabled={busy} onClick={() => void retry()}>
            <RotateCcw size={14} aria-hidden />
            Retry failed items
          </button>
        )}
      </div>
    </section>
  );
}
