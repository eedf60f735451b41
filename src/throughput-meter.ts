// Bytes per second over a sliding window, and the ETA that follows from it.
//
// Speed is averaged over the last few seconds, not since the job began: an average since the start
// is the classic reason transfer tools show wrong speeds and ETAs after a stall or a slow start.

export const METER_WINDOW_MS = 5_000;
const BUCKET_MS = 250;
const BUCKET_COUNT = METER_WINDOW_MS / BUCKET_MS;
/** A rate from less than this is noise (a single chunk would read as gigabytes per second). */
const MIN_ELAPSED_MS = 100;

export class ThroughputMeter {
  /** Bytes per time bucket, a ring indexed by bucket number modulo BUCKET_COUNT. */
  private readonly buckets = new Float64Array(BUCKET_COUNT);
  private lastBucket = -1;
  private firstSampleMs: number | undefined;

  /** Bytes moved; negative for bytes taken back (an attempt that failed): speed counts what stayed sent. */
  add(bytes: number, nowMs: number): void {
    this.advance(nowMs);
    this.firstSampleMs ??= nowMs;
    this.buckets[this.lastBucket % BUCKET_COUNT]! += bytes;
  }

  /** Bytes per second over the window (or over the time since the first sample, if shorter). */
  bytesPerSecond(nowMs: number): number {
    this.advance(nowMs);
    if (this.firstSampleMs === undefined) return 0;
    let total = 0;
    for (const bytes of this.buckets) total += bytes;
    // The ring spans the current, partly elapsed bucket and the BUCKET_COUNT - 1 before it.
    const windowStartMs = (this.lastBucket - BUCKET_COUNT + 1) * BUCKET_MS;
    const elapsedMs = Math.max(MIN_ELAPSED_MS, nowMs - Math.max(windowStartMs, this.firstSampleMs));
    return (Math.max(0, total) * 1000) / elapsedMs;
  }

  /** Seconds left for `remainingBytes` at the current rate; undefined while the rate is zero. */
  etaSeconds(remainingBytes: number, nowMs: number): number | undefined {
    const rate = this.bytesPerSecond(nowMs);
    if (remainingBytes <= 0) return 0;
    return rate > 0 ? remainingBytes / rate : undefined;
  }

  /** Move the ring to the bucket of `nowMs`, zeroing the buckets skipped over. */
  private advance(nowMs: number): void {
    const bucket = Math.floor(nowMs / BUCKET_MS);
    if (this.lastBucket < 0) {
      this.lastBucket = bucket;
      return;
    }
    if (bucket <= this.lastBucket) return;
    const steps = Math.min(BUCKET_COUNT, bucket - this.lastBucket);
    for (let i = 1; i <= steps; i++) this.buckets[(this.lastBucket + i) % BUCKET_COUNT] = 0;
    this.lastBucket = bucket;
  }
}
