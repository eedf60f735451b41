// Every job with its progress, live throughput, ETA and a small speed graph; an overall graph;
// pause, resume, cancel, retry, clear finished. Virtualised, so a thousand jobs scroll smoothly.
// Docked beside the browser, or a drawer over it (a narrow window, or undocked by the user).

import { useVirtualizer } from '@tanstack/react-virtual';
import {
  ArrowDownToLine,
  ArrowUpFromLine,
  Ban,
  CircleCheck,
  CircleX,
  Clock,
  Copy,
  FileCheck,
  History,
  ListChecks,
  LoaderCircle,
  PanelRightClose,
  PanelRightOpen,
  Pause,
  Play,
  RefreshCw,
  RotateCcw,
  Trash2,
  Undo2,
  X,
} from 'lucide-react';
import type { LucideIcon } from 'lucide-react';
import { memo, useEffect, useMemo, useRef } from 'react';
import type { JobState } from '../../src/jobs.ts';
import type { JobView } from '../store/jobs-store.ts';
import { isFinished, progressFraction } from '../../src/jobs.ts';
import { plural } from '../../src/plural.ts';
import { formatBytes, formatObjectRate, formatRate } from '../format.ts';
import type { EngineStats } from '../../src/contract/models.ts';
import { jobPace } from '../job-text.ts';
import { isPreview, useJobs } from '../store/jobs-store.ts';
import type { JobAction } from '../store/jobs-store.ts';
import { Sparkline } from './Sparkline.tsx';
import { DOCK_TRANSFERS_FROM, useLayout } from '../store/layout-store.ts';
import { useWindowWidth } from '../layout/use-window-width.ts';
import { TransferSettings } from './TransferSettings.tsx';
import { NotificationToggle } from './NotificationToggle.tsx';
import { useJobDetails } from '../store/job-details-store.ts';
import { MiddleShortenedName } from './MiddleShortenedName.tsx';
import { JobPhaseLine } from './JobPhaseLine.tsx';
import { printable } from '../../src/unsafe-text.ts';
import { rowPlacement } from './useRowWindow.ts';
import { UndoDeleteButton } from './UndoDeleteButton.tsx';
import { LimitReadout } from './LimitReadout.tsx';

/** A row's three lines (name, progress, objects and actions), with its padding. */
const ROW_HEIGHT = 92;
/** Each note below them (why it failed, files kept, entries skipped, size only): a small line and its gap. */
const NOTE_HEIGHT = 21;

/**
 * How tall a job's row is: its lines and every note it shows. Rows were all 92 px, so a note below
 * the third line was cut in half ("1 object was already there and kept"), a failed row's error too.
 */
export function jobRowHeight(job: JobView): number {
  const p = job.progress;
  const kept = p.objectsKept ?? (job.itemWarnings ?? []).filter((w) => w.code === 'Exists').length;
  const notes = [
    job.state.status === 'failed',
    kept > 0,
    (p.objectsSkipped ?? 0) > 0,
    (p.objectsSizeOnly ?? 0) > 0,
  ].filter(Boolean).length;
  return ROW_HEIGHT + NOTE_HEIGHT * notes;
}
const DIRECTION: Record<JobView['kind'], { icon: LucideIcon; label: string }> = {
  upload: { icon: ArrowUpFromLine, label: 'Upload' },
  download: { icon: ArrowDownToLine, label: 'Download' },
  delete: { icon: Trash2, label: 'Delete' },
  sync: { icon: RefreshCw, label: 'Sync' },
  copy: { icon: Copy, label: 'Copy' },
  undo: { icon: Undo2, label: 'Undo' },
  restore: { icon: History, label: 'Restore' },
};
/** Status in colour, icon and word: never colour alone. */
const STATUS_ICON: Record<JobState['status'], LucideIcon> = {
  queued: Clock,
  running: LoaderCircle,
  paused: Pause,
  completed: CircleCheck,
  failed: CircleX,
  cancelled: Ban,
};

/** The jobs running now, summed: bytes a second, and objects a second where they move any; zero when none runs. */
function overallRate(stats: EngineStats | undefined): string {
  const objects = stats?.objectsPerSecond ?? 0;
  return `${formatRate(stats?.bytesPerSecond ?? 0)}${objects > 0 ? `, ${formatObjectRate(objects)}` : ''}`;
}

export function TransfersPanel({ mode, width }: { mode: 'docked' | 'drawer'; width: number }) {
  const { order: all, jobs, overall, stats, control, clearFinished, previews } = useJobs();
  // A delete's preview (its count) is no transfer: the dialog shows it, the list does not.
  const order = useMemo(() => all.filter((id) => !isPreview(jobs.get(id), previews)), [all, jobs, previews]);
  const scroller = useRef<HTMLDivElement>(null);
  // Keyed by job, sized by what each shows: a row that gains a note (it failed) is measured again.
  const virtualizer = useVirtualizer({
    count: order.length,
    getScrollElement: () => scroller.current,
    overscan: 8,
    getItemKey: (index) => `${order[index]!}:${jobRowHeight(jobs.get(order[index]!)!)}`,
    estimateSize: (index) => jobRowHeight(jobs.get(order[index]!)!),
  });
  const act = (action: JobAction, id?: string) => void control(action, id);
  const drawer = mode === 'drawer';
  const panel = useRef<HTMLElement>(null);
  const { setDrawerOpen, setTransfersDocked } = useLayout();
  const canDock = useWindowWidth() >= DOCK_TRANSFERS_FROM;
  // An opened drawer takes the focus, and gives it back to its toggle when it closes.
  useEffect(() => {
    if (!drawer) return;
    panel.current?.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    return () => document.querySelector<HTMLElement>('.transfers-toggle')?.focus();
  }, [drawer]);
  return (
    <aside
      ref={panel}
      className={`transfers-panel${drawer ? ' drawer' : ''}`}
      aria-label="Transfers panel"
      style={drawer ? undefined : { width }}
      onKeyDown={
        drawer
          ? (e) => {
              if (e.key === 'Escape' && !e.defaultPrevented) {
                e.preventDefault();
                setDrawerOpen(false);
              }
            }
          : undefined
      }
    >
      <div className="pane-title">
        <h2>Transfers</h2>
        {drawer && canDock && (
          <button
            type="button"
            className="icon"
            title="Dock beside the browser"
            aria-label="Dock the transfers panel"
            onClick={() => setTransfersDocked(true)}
          >
            <PanelRightOpen size={16} aria-hidden />
          </button>
        )}
        {!drawer && (
          <button
            type="button"
            className="icon"
            title="Hide (open it again from the top bar)"
            aria-label="Undock the transfers panel"
            onClick={() => setTransfersDocked(false)}
          >
            <PanelRightClose size={16} aria-hidden />
          </button>
        )}
        {drawer && (
          <button
            type="button"
            className="icon"
            data-autofocus
            aria-label="Close the transfers panel"
            title="Close (Escape)"
            onClick={() => setDrawerOpen(false)}
          >
            <X size={16} aria-hidden />
          </button>
        )}
      </div>
      <TransferSettings />
      <NotificationToggle />
      <section className="overall" aria-label="Overall throughput">
        <div className="overall-line">
          <span>
            All transfers: <strong>{overallRate(stats)}</strong>, {plural(stats?.activeRequests ?? 0, 'request')} in
            flight
          </span>
          <Sparkline values={overall} width={260} height={32} label="Overall throughput graph" />
        </div>
        <LimitReadout limit={stats?.limit} />
      </section>
      <div className="pane-title" role="toolbar" aria-label="All transfers">
        <button type="button" onClick={() => act('pause')}>
          <Pause size={14} aria-hidden />
          Pause all
        </button>
        <button type="button" onClick={() => act('resume')}>
          <Play size={14} aria-hidden />
          Resume all
        </button>
        <button type="button" onClick={() => void clearFinished()}>
          <X size={14} aria-hidden />
          Clear finished
        </button>
      </div>
      <div ref={scroller} className="transfers-scroll">
        <ul aria-label="Transfers" style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((item) => {
            const job = jobs.get(order[item.index]!)!;
            return (
              <li key={job.id} style={rowPlacement(item.start, item.size)}>
                <JobRow job={job} onAct={act} />
              </li>
            );
          })}
        </ul>
        {order.length === 0 && <p className="hint">No transfers yet. Drop files on a bucket to upload.</p>}
      </div>
    </aside>
  );
}

export const JobRow = memo(function JobRow({
  job,
  onAct,
}: {
  job: JobView;
  onAct: (action: JobAction, id?: string) => void;
}) {
  const skipped = (job.itemWarnings ?? []).filter((w) => w.code === 'Exists');
  // The count, not the list: a job lists its first 1,000 warnings, and counts on past them.
  const kept = job.progress.objectsKept ?? skipped.length;
  const history = useJobs((s) => s.history.get(job.id) ?? []);
  const saveReceipt = useJobs((s) => s.saveReceipt);
  const openDetails = useJobDetails((s) => s.open);
  const p = job.progress;
  const fraction = progressFraction(job);
  const status = job.state.status;
  const pace = jobPace(job);
  const direction = DIRECTION[job.kind];
  const StatusIcon = STATUS_ICON[status];
  return (
    <article className={`job ${status}`} aria-label={printable(job.name)}>
      <div className="job-line">
        <span className="direction" title={direction.label}>
          <direction.icon size={14} aria-hidden />
          <span className="visually-hidden">{direction.label}</span>
        </span>
        <MiddleShortenedName className="job-name" text={job.name} />
        <span className="state">
          <StatusIcon size={13} aria-hidden className={status === 'running' ? 'spin' : undefined} />
          {status === 'running' && job.progress.waitingForStore ? 'waiting for the store' : status}
        </span>
      </div>
      {p.phase ? (
        <JobPhaseLine phase={p.phase} name={job.name} />
      ) : (
        <div className="job-line">
          <div
            role="progressbar"
            aria-label={`Progress of ${printable(job.name)}`}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={Math.round(fraction * 100)}
            className="bar"
          >
            <div className="fill" style={{ width: `${(fraction * 100).toFixed(1)}%` }} />
          </div>
          <span className="bytes">
            {p.totalsKnown && p.bytesDone === p.bytesTotal
              ? formatBytes(p.bytesTotal)
              : `${formatBytes(p.bytesDone)} / ${formatBytes(p.bytesTotal)}${p.totalsKnown ? '' : '+'}`}
          </span>
          <span className="rate" title={isFinished(job.state) ? 'Average throughput' : 'Throughput'}>
            {pace.rate}
          </span>
          <span className="eta" title={pace.detail}>
            {pace.timing}
          </span>
        </div>
      )}
      {/* Files on their way to the host are not paused by the store's queue: no Pause then, only Cancel. */}
      <div className="job-line">
        <span className="objects">
          {p.objectsDone.toLocaleString()} of {p.objectsTotal.toLocaleString()}
          {p.totalsKnown ? '' : '+'} {p.objectsTotal === 1 && p.totalsKnown ? 'object' : 'objects'}
          {p.objectsFailed ? `, ${p.objectsFailed} failed` : ''}
          {p.retries ? `, ${p.retries.toLocaleString()} ${p.retries === 1 ? 'resend' : 'resends'}` : ''}
        </span>
        <Sparkline values={history} label={`Throughput of ${printable(job.name)}`} />
        <span className="actions">
          {(status === 'running' || status === 'queued') && !p.phase && (
            <button type="button" onClick={() => onAct('pause', job.id)}>
              <Pause size={12} aria-hidden />
              Pause
            </button>
          )}
          {status === 'paused' && (
            <button type="button" onClick={() => onAct('resume', job.id)}>
              <Play size={12} aria-hidden />
              Resume
            </button>
          )}
          {!isFinished(job.state) && (
            <button type="button" onClick={() => onAct('cancel', job.id)}>
              <X size={12} aria-hidden />
              Cancel
            </button>
          )}
          {(status === 'failed' || status === 'cancelled') && (
            <button type="button" onClick={() => onAct('retry', job.id)}>
              <RotateCcw size={12} aria-hidden />
              Retry
            </button>
          )}
          <UndoDeleteButton job={job} />
          {job.kind !== 'delete' && p.objectsDone > 0 && isFinished(job.state) && (
            <button
              type="button"
              className="icon"
              aria-label="Receipt"
              title="Receipt: save what was stored or saved, with key, size, ETag, version and checksum (CSV)"
              onClick={() => void saveReceipt(job.id)}
            >
              <FileCheck size={15} aria-hidden />
            </button>
          )}
          <button
            type="button"
            className="icon"
            aria-label={`Details of ${printable(job.name)}`}
            title="Details: its items one by one, where each went, and why any failed"
            onClick={() => openDetails(job.id)}
          >
            <ListChecks size={15} aria-hidden />
          </button>
        </span>
      </div>
      {job.state.status === 'failed' && (
        <p className="error" title={job.itemErrors.map((e) => e.message).join('\n')}>
          {job.state.error.message}
        </p>
      )}
      {kept > 0 && (
        <p className="warning" title={skipped.map((w) => w.message).join('\n')}>
          {kept.toLocaleString()}{' '}
          {job.kind === 'upload'
            ? kept === 1
              ? 'object was'
              : 'objects were'
            : kept === 1
              ? 'file was'
              : 'files were'}{' '}
          already there and kept
        </p>
      )}
      {(p.objectsSkipped ?? 0) > 0 && (
        <p
          className="warning"
          title={(job.itemWarnings ?? [])
            .filter((w) => w.code === 'Skipped')
            .map((w) => w.message)
            .join('\n')}
        >
          {plural(p.objectsSkipped!, 'entry was', 'entries were')} skipped (not files: pipes, devices, links not
          followed)
        </p>
      )}
      {(p.objectsSizeOnly ?? 0) > 0 && (
        <p
          className="warning"
          title={(job.itemWarnings ?? [])
            .filter((w) => w.code === 'SizeOnly')
            .map((w) => w.message)
            .join('\n')}
        >
          {p.objectsSizeOnly!.toLocaleString()} {p.objectsSizeOnly === 1 ? 'object' : 'objects'} checked for size only:
          no checksum or ETag could prove the content
        </p>
      )}
    </article>
  );
});
