// A size a store states for an object: a whole number of bytes from 0 to 5 TiB (S3's largest
// object), written in digits. Anything else is a store's bug or its lie, and the object fails by
// name before a byte is written: a listing's Size -1 once saved an 88-byte object as a 0-byte file
// ("size only, done"), and 1.5, NaN or 1e20 failed with Node's "The value of 'len' is out of range".

import { BargeError } from '../../../src/errors.ts';

/** S3's largest object. */
export const MAX_OBJECT_BYTES = 5 * 1024 ** 4;

/** The size `stated` gives, or undefined when it is no size an object can have. */
export function parseObjectSize(stated: string | number | undefined): number | undefined {
  const size =
    typeof stated === 'number'
      ? stated
      : stated !== undefined && /^\d{1,16}$/.test(stated)
        ? Number(stated)
        : undefined;
  return size !== undefined && Number.isSafeInteger(size) && size >= 0 && size <= MAX_OBJECT_BYTES ? size : undefined;
}

/** How a stated size is shown in a message: quoted as it came, cut short. */
export function statedSize(stated: unknown): string {
  return stated === undefined || stated === '' ? 'no size' : `"${String(stated).slice(0, 40)}"`;
}

/** The failure of an object whose size, as the store stated it (`where`: "listing", "HEAD answer"...), is no size. */
export function badSizeError(what: string, where: string, stated: unknown): BargeError {
  return new BargeError(
    'BadSize',
    `The store's ${where} gives ${what} ${statedSize(stated)} as its size, which no object can have (a whole ` +
      `number of bytes from 0 to 5 TiB); nothing was saved. The store is faulty: tell its operator.`,
  );
}

/** A Content-Range header's numbers (bytes START-END/TOTAL, TOTAL possibly "*"), or undefined when it is not one. */
export function parseContentRange(
  header: string | undefined,
): { readonly start: number; readonly end: number; readonly total: string } | undefined {
  const match = /^bytes (\d{1,16})-(\d{1,16})\/(\d+|\*)$/.exec(header ?? '');
  return match ? { start: Number(match[1]), end: Number(match[2]), total: match[3]! } : undefined;
}
