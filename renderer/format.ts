// Display helpers for the window (byte and rate formatting live in src/ for every side).

export { formatBytes, formatDuration, formatObjectRate, formatRate } from '../src/byte-units.ts';

/** "2025-03-01 14:05" (with `seconds`, "14:05:09": two sides of a question can differ by less than a minute). */
export function formatDate(ms: number | undefined, options: { seconds?: boolean } = {}): string {
  if (ms === undefined) return '';
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  const day = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  const minutes = `${day} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
  return options.seconds ? `${minutes}:${pad(d.getSeconds())}` : minutes;
}
