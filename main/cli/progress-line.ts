// A one-line progress bar on a terminal, redrawn from the engine's progress batches.

import { formatBytes, formatDuration, formatObjectRate, formatRate } from '../../src/byte-units.ts';
import type { JobUpdate } from '../../src/jobs.ts';
import { groupDigits } from '../../src/digit-groups.ts';
import { progressFraction } from '../../src/jobs.ts';
import type { LimitReadout } from '../../src/contract/models.ts';
import { LIMIT_NAMES } from '../../src/limit-names.ts';

const BAR_WIDTH = 24;

/** The text of the progress line for a job; `limit`: what limits it now, named last (cut first when narrow). */
export function progressLine(snapshot: JobUpdate, columns = 100, limit?: LimitReadout): string {
  const p = snapshot.progress;
  const shown = progressFraction(snapshot);
  const filled = Math.round(shown * BAR_WIDTH);
  const bar = `[${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}]`;
  const counting = p.totalsKnown ? '' : '+';
  const parts = [
    bar,
    `${Math.floor(shown * 100)}%${counting}`,
    `${formatBytes(p.bytesDone)} / ${formatBytes(p.bytesTotal)}${counting}`,
    // Many files: objects a second beside the bytes (small files move objects more than bytes).
    p.objectsTotal > 1 && (p.objectsPerSecond ?? 0) > 0
      ? `${formatRate(p.bytesPerSecond)}, ${formatObjectRate(p.objectsPerSecond ?? 0)}`
      : formatRate(p.bytesPerSecond),
    `ETA ${formatDuration(p.etaSeconds)}${p.etaSeconds === undefined ? '' : counting}`,
    `${groupDigits(p.objectsDone)}/${groupDigits(p.objectsTotal)}${counting} ` +
      `${p.objectsTotal === 1 && !counting ? 'object' : 'objects'}`,
    p.objectsFailed > 0 ? `${p.objectsFailed} failed` : '',
    p.retries ? `${p.retries} ${p.retries === 1 ? 'resend' : 'resends'}` : '',
    p.waitingForStore ? 'waiting for the store' : '',
    limit ? `limited by ${LIMIT_NAMES[limit.kind]}` : '',
  ].filter(Boolean);
  const line = parts.join('  ');
  return line.length > columns - 1 ? line.slice(0, columns - 1) : line;
}

export interface ProgressView {
  update(snapshot: JobUpdate, limit?: LimitReadout): void;
  done(): void;
}

export function terminalProgress(stream: NodeJS.WriteStream): ProgressView {
  let drawn = false;
  return {
    update(snapshot, limit) {
      stream.write(`\r\x1b[2K${progressLine(snapshot, stream.columns ?? 100, limit)}`);
      drawn = true;
    },
    done() {
      if (drawn) stream.write('\r\x1b[2K');
      drawn = false;
    },
  };
}

export const silentProgress: ProgressView = { update() {}, done() {} };
