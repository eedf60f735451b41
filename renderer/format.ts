// Display helpers for the window (byte and rate formatting live in src/ for every side).

export { formatBytes, formatDuration, formatObjectRate, formatRate } from '../src/byte-units.ts';

export function formatDate(ms: number | undefined): string {
  if (ms === undefined) return '';
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
