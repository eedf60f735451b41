// The line of a job's row during a phase before its own work: a browser's files on their way to
// the web host (bytes, rate, files, ETA), which it uploads once they are all there.

import type { JobPhase } from '../../src/jobs.ts';
import { plural } from '../../src/plural.ts';
import { printable } from '../../src/unsafe-text.ts';
import { formatBytes, formatDuration, formatRate } from '../format.ts';

export function JobPhaseLine({ phase, name }: { phase: JobPhase; name: string }) {
  const fraction =
    phase.bytesTotal > 0
      ? Math.min(1, phase.bytesDone / phase.bytesTotal)
      : phase.filesDone / Math.max(1, phase.filesTotal);
  const files = `${phase.filesDone.toLocaleString()} of ${plural(phase.filesTotal, 'file')}`;
  const said =
    `sending to the host, ` +
    `${files}${phase.etaSeconds === undefined ? '' : `, ETA ${formatDuration(phase.etaSeconds)}`}`;
  return (
    <div className="job-line">
      <div
        role="progressbar"
        aria-label={`Sending ${printable(name)} to the host`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(fraction * 100)}
        className="bar"
      >
        <div className="fill" style={{ width: `${(fraction * 100).toFixed(1)}%` }} />
      </div>
      <span className="bytes">
        {formatBytes(phase.bytesDone)} / {formatBytes(phase.bytesTotal)}
      </span>
      <span className="rate" title="Throughput to the host">
        {formatRate(phase.bytesPerSecond)}
      </span>
      <span className="eta" title={said}>
        {said}
      </span>
    </div>
  );
}
