// Every job with its progress, live throughput, ETA and a small speed graph; an overall graph;
// pause, resume, cancel, retry, clear finished. Virtualised, so a thousand jobs scroll smoothly.

import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useMemo, useRef } from 'react';
import type { JobView } from '../store/jobs-store.ts';
import { isFinished, progressFraction } from '../../src/jobs.ts';
import { plural } from '../../src/plural.ts';
import { formatBytes, formatRate } from '../format.ts';
import { jobPace } from '../job-text.ts';
import { useJobs } from '../store/jobs-store.ts';
import type { JobAction } from '../store/jobs-store.ts';
import { Sparkline } from './Sparkline.tsx';
import { ConflictDialog, firstConflict } from './ConflictDialog.tsx';
import { TransferSettings } from './TransferSettings.tsx';
import { JobDetailsDialog } from './JobDetailsDialog.tsx';
import { NotificationToggle } from './NotificationToggle.tsx';
import { useJobDetails } from '../store/job-details-store.ts';

const ROW_HEIGHT = 92;
const DIRECTION = { upload: '↑ Upload', download: '↓ Download', delete: '✕ Delete' } as const;

export function TransfersPanel() {
  const { order: all, jobs, overall, stats, control, clearFinished, previews } = useJobs();
  // A delete's preview (its count) is no transfer: the dialog shows it, the list does not.
  const order = useMemo(() => (previews.size === 0 ? all : all.filter((id) => !previews.has(id))), [all, previews]);
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count: order.length, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 8 });
  const act = (action: JobAction, id?: string) => void control(action, id);
  const asking = firstConflict(jobs.values());
  return (
    <aside className="transfers-panel" aria-label="Transfers panel">
      {asking && <ConflictDialog key={`${asking.job.id}:${asking.conflict.id}`} job={asking.job} conflict={asking.conflict} />}
      <JobDetailsDialog />
      <TransferSettings />
      <NotificationToggle />
      <section className="overall" aria-label="Overall throughput">
        <span>All transfers: <strong>{formatRate(stats?.bytesPerSecond ?? 0)}</strong>, {stats?.activeRequests ?? 0} requests in flight</span>
        <Sparkline values={overall} width={260} height={32} label="Overall throughput graph" />
      </section>
      <div className="pane-title">
        <h2>Transfers</h2>
        <button type="button" onClick={() => act('pause')}>Pause all</button>
        <button type="button" onClick={() => act('resume')}>Resume all</button>
        <button type="button" onClick={() => void clearFinished()}>Clear finished</button>
      </div>
      <div ref={scroller} className="transfers-scroll">
        <ul aria-label="Transfers" style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((item) => {
            const job = jobs.get(order[item.index]!)!;
            return (
              <li key={job.id} style={{ position: 'absolute', top: 0, left: 0, right: 0, height: ROW_HEIGHT, transform: `translateY(${item.start}px)` }}>
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

export const JobRow = memo(function JobRow({ job, onAct }: { job: JobView; onAct: (action: JobAction, id?: string) => void }) {
  const skipped = (job.itemWarnings ?? []).filter((w) => w.code === 'Exists');
  const history = useJobs((s) => s.history.get(job.id) ?? []);
  const saveReceipt = useJobs((s) => s.saveReceipt);
  const openDetails = useJobDetails((s) => s.open);
  const p = job.progress;
  const fraction = progressFraction(job);
  const status = job.state.status;
  const pace = jobPace(job);
  return (
    <article className={`job ${status}`} aria-label={job.name}>
      <div className="job-line">
        <span className="direction">{DIRECTION[job.kind]}</span>
        <span className="job-name" title={job.name}><bdi>{job.name}</bdi></span>
        <span className="state">{status === 'running' && job.progress.waitingForStore ? 'waiting for the store' : status}</span>
      </div>
      <div className="job-line">
        <div role="progressbar" aria-label={`Progress of ${job.name}`} aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(fraction * 100)} className="bar">
          <div className="fill" style={{ width: `${(fraction * 100).toFixed(1)}%` }} />
        </div>
        <span className="bytes">{p.totalsKnown && p.bytesDone === p.bytesTotal ? formatBytes(p.bytesTotal) : `${formatBytes(p.bytesDone)} / ${formatBytes(p.bytesTotal)}${p.totalsKnown ? '' : '+'}`}</span>
        <span className="rate" aria-label={isFinished(job.state) ? 'Average throughput' : 'Throughput'}>{pace.rate}</span>
        <span className="eta" title={pace.detail}>{pace.timing}</span>
      </div>
      <div className="job-line">
        <span className="objects">{p.objectsDone.toLocaleString()} of {p.objectsTotal.toLocaleString()}{p.totalsKnown ? '' : '+'} {p.objectsTotal === 1 && p.totalsKnown ? 'object' : 'objects'}{p.objectsFailed ? `, ${p.objectsFailed} failed` : ''}{p.retries ? `, ${p.retries.toLocaleString()} ${p.retries === 1 ? 'resend' : 'resends'}` : ''}</span>
        <Sparkline values={history} label={`Throughput of ${job.name}`} />
        <span className="actions">
          {(status === 'running' || status === 'queued') && <button type="button" onClick={() => onAct('pause', job.id)}>Pause</button>}
          {status === 'paused' && <button type="button" onClick={() => onAct('resume', job.id)}>Resume</button>}
          {!isFinished(job.state) && <button type="button" onClick={() => onAct('cancel', job.id)}>Cancel</button>}
          {(status === 'failed' || status === 'cancelled') && <button type="button" onClick={() => onAct('retry', job.id)}>Retry</button>}
          {job.kind !== 'delete' && p.objectsDone > 0 && isFinished(job.state) && (
            <button type="button" title="Save what was stored or saved: key, size, ETag, version, checksum (CSV)" onClick={() => void saveReceipt(job.id)}>Receipt</button>
          )}
          <button type="button" aria-label={`Details of ${job.name}`} title="Its items one by one: where each went, and why any failed" onClick={() => openDetails(job.id)}>Details</button>
        </span>
      </div>
      {job.state.status === 'failed' && <p className="error" title={job.itemErrors.map((e) => e.message).join('\n')}>{job.state.error.message}</p>}
      {skipped.length > 0 && (
        <p className="warning" title={skipped.map((w) => w.message).join('\n')}>
          {skipped.length.toLocaleString()} {skipped.length === 1 ? 'file was' : 'files were'} already there and kept
        </p>
      )}
      {(p.objectsSkipped ?? 0) > 0 && (
        <p className="warning" title={(job.itemWarnings ?? []).filter((w) => w.code === 'Skipped').map((w) => w.message).join('\n')}>
          ⚠ {plural(p.objectsSkipped!, 'entry was', 'entries were')} skipped (not files: pipes, devices, links not followed)
        </p>
      )}
      {(p.objectsSizeOnly ?? 0) > 0 && (
        <p className="warning" title={(job.itemWarnings ?? []).filter((w) => w.code === 'SizeOnly').map((w) => w.message).join('\n')}>
          ⚠ {p.objectsSizeOnly!.toLocaleString()} {p.objectsSizeOnly === 1 ? 'object' : 'objects'} checked for size only: no checksum or ETag could prove the content
        </p>
      )}
    </article>
  );
});
