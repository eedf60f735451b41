// The object-filter flags (--include, --exclude, --older-than, --newer-than, --larger-than,
// --smaller-than, --storage-class, --raw), parsed once for every command that lists: ls, cp, rm,
// sync, du. A command takes them by adding FILTER_FLAGS to its accepted flags.
//
// What they mean is src/object-filter.ts (the engine and the window use the same); this file only
// reads them off the command line and words its refusals as usage errors.

import { hasWildcard, parseObjectFilter } from '../../src/object-filter.ts';
import type { ObjectFilter } from '../../src/object-filter.ts';

/** parseArgs' spec of the filter flags (--older-than is in options.ts: abort-uploads takes it too). */
export const FILTER_OPTION_SPEC = {
  include: { type: 'string', multiple: true },
  exclude: { type: 'string', multiple: true },
  'newer-than': { type: 'string' },
  'larger-than': { type: 'string' },
  'smaller-than': { type: 'string' },
  'storage-class': { type: 'string' },
  raw: { type: 'boolean' },
} as const;

/** The flags a command that filters what it lists accepts. */
export const FILTER_FLAGS = [
  'include',
  'exclude',
  'older-than',
  'newer-than',
  'larger-than',
  'smaller-than',
  'storage-class',
  'raw',
] as const;

export interface FilterValues {
  readonly include?: string[];
  readonly exclude?: string[];
  readonly 'older-than'?: string;
  readonly 'newer-than'?: string;
  readonly 'larger-than'?: string;
  readonly 'smaller-than'?: string;
  readonly 'storage-class'?: string;
}

/**
 * The filter the flags describe (undefined for none), ages taken from `now`. A bad value throws a
 * FilterProblem naming the flag (parseCli words it as a usage error).
 */
export function parseFilterFlags(values: FilterValues, now: number): ObjectFilter | undefined {
  return parseObjectFilter(
    {
      include: values.include,
      exclude: values.exclude,
      olderThan: values['older-than'],
      newerThan: values['newer-than'],
      largerThan: values['larger-than'],
      smallerThan: values['smaller-than'],
      storageClass: values['storage-class'],
    },
    now,
  );
}

/**
 * Whether an address's key is a wildcard pattern: it holds * or ? and --raw was not given (with --raw,
 * as in s5cmd, a key such as "what?.txt" is that key).
 */
export function isPattern(key: string, raw: boolean): boolean {
  return !raw && hasWildcard(key);
}
