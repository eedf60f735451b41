// Multipart limits of S3 and the part size that respects them.

import { GIB, MIB } from './byte-units.ts';

export const MIN_PART_SIZE_BYTES = 5 * MIB;
export const MAX_PART_SIZE_BYTES = 5 * GIB;
export const MAX_PARTS = 10_000;
/** S3's limit, 10,000 parts of 5 GiB. */
export const MAX_OBJECT_SIZE_BYTES = MAX_PARTS * MAX_PART_SIZE_BYTES;

export function clampPartSize(bytes: number): number {
  return Math.min(MAX_PART_SIZE_BYTES, Math.max(MIN_PART_SIZE_BYTES, Math.round(bytes)));
}

/**
 * The part size to upload a file of `fileSize` bytes with, given the setting `requested`.
 *
 * The setting is clamped to S3's 5 MiB..5 GiB, then raised when the file would need more than
 * 10,000 parts. The raise rounds up (ceil) to whole MiB: flooring here is the bug that made SDKs
 * produce 10,001 parts for some sizes.
 */
export function choosePartSize(fileSize: number, requested: number): number {
  const clamped = clampPartSize(requested);
  const smallestAllowed = Math.ceil(fileSize / MAX_PARTS / MIB) * MIB;
  return Math.min(MAX_PART_SIZE_BYTES, Math.max(clamped, smallestAllowed));
}

export interface PartRange {
  /** 1-based, as S3 numbers parts. */
  readonly partNumber: number;
  readonly start: number;
  /** Exclusive. */
  readonly end: number;
}

export function partCount(size: number, partSize: number): number {
  return Math.max(1, Math.ceil(size / partSize));
}

/** The byte range of part `partNumber` (1-based) of an object of `size` bytes. */
export function partRange(size: number, partSize: number, partNumber: number): PartRange {
  const start = (partNumber - 1) * partSize;
  return { partNumber, start, end: Math.min(size, start + partSize) };
}

/** Part numbers 1..count, lazily: a 10,000-part file needs no array of parts. */
export function* partNumbers(count: number): Generator<number> {
  for (let n = 1; n <= count; n++) yield n;
}
