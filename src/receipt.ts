// A job's receipt: what it stored or saved, object by object, with what the store said about each
// (ETag, version ID, checksum), as CSV or JSON. Pure formatting; the journal supplies the lines.
// Unsafe characters in names (unsafe-text.ts) are escapes in both: \u202e in JSON, the same value.

import { printable, printableJson } from './unsafe-text.ts';
import { VERIFICATION_LABELS } from './verification.ts';
import type { Verification } from './verification.ts';

export interface ReceiptEntry {
  readonly key: string;
  readonly path: string;
  readonly size: number;
  readonly etag?: string;
  readonly versionId?: string;
  readonly checksum?: string;
  /** How the object's bytes were checked; absent in receipts of older runs. */
  readonly verified?: Verification;
  readonly finishedAt: number;
  /**
   * Absent (or "done") for an object stored or saved; failed (with why); skipped: found but not sent
   * (a named pipe, a link not followed), with why; kept: a file or object already there, kept as
   * asked (--if-exists skip or newer), with why.
   */
  readonly status?: 'done' | 'failed' | 'skipped' | 'kept';
  readonly error?: string;
}

export type ReceiptFormat = 'csv' | 'json';

// New columns go at the end, so readers that go by position keep working.
const COLUMNS = [
  'key',
  'path',
  'size',
  'etag',
  'versionId',
  'checksumAlgorithm',
  'checksum',
  'finishedAt',
  'verified',
  'status',
  'error',
] as const;

/** The format a file name asks for: .json is JSON, anything else CSV. */
export function receiptFormatFor(fileName: string): ReceiptFormat {
  return fileName.toLowerCase().endsWith('.json') ? 'json' : 'csv';
}

/**
 * RFC 4180: quote a field holding a comma, quote, or line break; double its quotes. Also one holding
 * a semicolon or a tab: Excel splits a .csv on the locale's list separator (";" wherever the decimal
 * mark is a comma) and importers offer tab, so an unquoted "a;=cmd…" would become a cell of its own
 * that starts like a formula. A field a spreadsheet would run as a formula (starting with = + - @,
 * a tab or a carriage return: a key such as =HYPERLINK(...)) gets a leading apostrophe, which
 * spreadsheets show as text.
 */
export function csvField(value: string, neutralise = true): string {
  // A key's control characters, bidi overrides and line separators shown as escapes (unsafe-text.ts):
  // a receipt opened in a terminal or a spreadsheet shows each name as it is, never reordered.
  const shown = printable(value);
  const safe = neutralise && /^[=+\-@\t\r]/.test(shown) ? `'${shown}` : shown;
  return /[",;\t\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

function row(entry: ReceiptEntry): Record<(typeof COLUMNS)[number], string | number | null> {
  const [algorithm, value] = entry.checksum ? entry.checksum.split(':', 2) : [undefined, undefined];
  return {
    key: entry.key,
    path: entry.path,
    size: entry.size,
    // ETags arrive quoted, as HTTP has them; the receipt keeps the value.
    etag: entry.etag?.replaceAll('"', '') ?? null,
    versionId: entry.versionId ?? null,
    checksumAlgorithm: algorithm ?? null,
    checksum: value ?? null,
    verified: entry.verified ? VERIFICATION_LABELS[entry.verified] : null,
    status: entry.status ?? 'done',
    error: entry.error ?? null,
    finishedAt: new Date(entry.finishedAt).toISOString(),
  };
}

/** The receipt as text, line by line (a million objects never sit in one string). */
export function* formatReceipt(entries: Iterable<ReceiptEntry>, format: ReceiptFormat): Generator<string> {
  if (format === 'csv') {
    yield `${COLUMNS.join(',')}\n`;
    for (const entry of entries) {
      const fields = row(entry);
      // A checksum is the base64 Barge computed and matched, which may start with "+": kept exact.
      yield `${COLUMNS.map((column) => csvField(String(fields[column] ?? ''), column !== 'checksum')).join(',')}\n`;
    }
    return;
  }
  let first = true;
  yield '[';
  for (const entry of entries) {
    yield `${first ? '\n' : ',\n'}  ${printableJson(row(entry))}`;
    first = false;
  }
  yield first ? ']\n' : '\n]\n';
}
