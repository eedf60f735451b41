// Byte sizes as people write them ("64MiB", "5 GB", "1048576") and as they read them.

import { groupDigits } from './digit-groups.ts';

const UNIT_BYTES: Readonly<Record<string, number>> = {
  b: 1,
  k: 1024,
  kb: 1000,
  kib: 1024,
  m: 1024 ** 2,
  mb: 1000 ** 2,
  mib: 1024 ** 2,
  g: 1024 ** 3,
  gb: 1000 ** 3,
  gib: 1024 ** 3,
  t: 1024 ** 4,
  tb: 1000 ** 4,
  tib: 1024 ** 4,
};

export const KIB = 1024;
export const MIB = 1024 ** 2;
export const GIB = 1024 ** 3;

/**
 * Parse a size such as "64MiB", "16M", "5 GB" or "1048576" into bytes.
 *
 * Bare K/M/G/T are binary (as in s5cmd and rclone); KB/MB/GB are decimal. Returns undefined for
 * anything that is not a whole, non-negative number of bytes.
 */
export function parseByteSize(text: string): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text);
  if (!match) return undefined;
  const unit = UNIT_BYTES[(match[2] ?? '').toLowerCase() || 'b'];
  if (unit === undefined) return undefined;
  const bytes = Number(match[1]) * unit;
  return Number.isSafeInteger(bytes) ? bytes : undefined;
}

/**
 * Parse a rate such as "50MB/s", "50 MiB/s", "500KB/s" or "2M" into bytes a second ("/s" may be
 * left off; units as `parseByteSize`, a fraction rounded to a whole byte). Undefined for anything else.
 */
export function parseRate(text: string): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*(?:\/\s*s)?\s*$/i.exec(text);
  if (!match) return undefined;
  const unit = UNIT_BYTES[(match[2] ?? '').toLowerCase() || 'b'];
  if (unit === undefined) return undefined;
  const bytesPerSecond = Math.round(Number(match[1]) * unit);
  return Number.isSafeInteger(bytesPerSecond) ? bytesPerSecond : undefined;
}

/** "1.5 GiB", "512 B": binary units, three significant digits. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes)) return '?';
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
  let value = Math.abs(bytes);
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = unit === 0 || value >= 100 ? 0 : value >= 10 ? 1 : 2;
  return `${bytes < 0 ? '-' : ''}${value.toFixed(digits)} ${units[unit]}`;
}

/**
 * Throughput in binary units a second, as rclone and aws-cli show it: MiB/s from 1 MiB/s up (the
 * unit of the sizes beside it, so "512 MiB at 256 MiB/s" reads as two seconds), KiB/s or B/s below,
 * where a job of small files moves its bytes: "0.0 MiB/s" would say it moved nothing.
 */
export function formatRate(bytesPerSecond: number): string {
  const rate = Math.max(0, bytesPerSecond);
  if (rate < KIB) return `${Math.round(rate)} B/s`;
  const [value, unit] = rate < MIB ? [rate / KIB, 'KiB/s'] : [rate / MIB, 'MiB/s'];
  return `${value.toFixed(value >= 100 ? 0 : 1)} ${unit}`;
}

/** Objects a second, in words: "770 objects/s", "2.5 objects/s", "1 object/s". */
export function formatObjectRate(objectsPerSecond: number): string {
  const rate = Math.max(0, objectsPerSecond);
  const shown = rate >= 10 ? Math.round(rate) : Math.round(rate * 10) / 10;
  return `${Number.isInteger(shown) ? groupDigits(shown) : String(shown)} ${shown === 1 ? 'object' : 'objects'}/s`;
}

/** "1h02m", "3m05s", "42s"; "?" when unknown. */
export function formatDuration(seconds: number | undefined): string {
  if (seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return '?';
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

const DURATION_UNITS: Readonly<Record<string, number>> = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 };

/** A duration as people write it ("90s", "30m", "2h", "7d", "1w") in seconds, or undefined. */
export function parseDuration(text: string): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([smhdw])\s*$/i.exec(text);
  return match ? Number(match[1]) * DURATION_UNITS[match[2]!.toLowerCase()]! : undefined;
}

/** An age in the largest whole unit: "45s", "12m", "5h", "3d". */
export function formatAge(seconds: number): string {
  if (seconds < 60) return `${Math.max(0, Math.floor(seconds))}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)}h`;
  return `${Math.floor(seconds / 86_400)}d`;
}
