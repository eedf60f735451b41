// Which objects a command acts on: S3-URL wildcards, --include/--exclude globs, age, size, storage class.
//
// One definition for the engine (it filters listings as it reads them, so counts and totals are of
// matched objects only), the command line (it parses the flags) and the window (its delete dialog and
// filter box). Wildcards follow s5cmd: `*` is any run of characters, "/" included, so
// `s3://b/logs/*.gz` reaches every .gz below logs/; `?` is one character; anything else is itself.
// The store is asked to list only the literal part before the first wildcard.
//
// --include and --exclude do not depend on their order (as s5cmd, unlike aws-cli's "last one wins"
// and rclone's "first one wins", which make a reordered command mean something else): an object
// matching any --exclude is left out; where any --include is given, an object must match one. A glob
// is matched against the key below the folder the command names ("logs/a/x.tmp" under s3://b/logs/
// is "a/x.tmp"), as s5cmd and aws-cli match theirs.
//
// Ages become instants where they are typed: a job resumed tomorrow still means "older than 90 days
// when I asked", and its spec, its identity in the journal, does not change by itself.

import { z } from 'zod';
import { parseByteSize, parseDuration } from './byte-units.ts';

/** The characters that make an S3 URL's key a pattern (s5cmd's own two). */
const WILDCARD_CHARACTERS = /[*?]/;

/** S3's storage classes; a store lists an object without one (MinIO's older versions) as STANDARD. */
export const STORAGE_CLASSES = [
  'STANDARD',
  'REDUCED_REDUNDANCY',
  'STANDARD_IA',
  'ONEZONE_IA',
  'INTELLIGENT_TIERING',
  'GLACIER',
  'GLACIER_IR',
  'DEEP_ARCHIVE',
  'OUTPOSTS',
  'SNOW',
  'EXPRESS_ONEZONE',
] as const;

/** A glob longer than any S3 key (1,024 bytes) matches none; more than 100 of them is no typing. */
const GLOB_MAX_CHARACTERS = 1024;
const GLOBS_MAX = 100;

export const objectFilterSchema = z.strictObject({
  /** Globs an object's key below the named folder must match one of (any, where given). */
  include: z.array(z.string().min(1).max(GLOB_MAX_CHARACTERS)).max(GLOBS_MAX).readonly().optional(),
  /** Globs that leave an object out. */
  exclude: z.array(z.string().min(1).max(GLOB_MAX_CHARACTERS)).max(GLOBS_MAX).readonly().optional(),
  /** Modified before this instant (ms since the epoch): --older-than. */
  modifiedBefore: z.number().int().optional(),
  /** Modified after this instant: --newer-than. */
  modifiedAfter: z.number().int().optional(),
  /** More bytes than this: --larger-than. */
  largerThan: z.number().int().nonnegative().optional(),
  /** Fewer bytes than this: --smaller-than. */
  smallerThan: z.number().int().positive().optional(),
  /** One of these storage classes: --storage-class. */
  storageClasses: z.array(z.enum(STORAGE_CLASSES)).min(1).readonly().optional(),
});

export type ObjectFilter = Readonly<z.infer<typeof objectFilterSchema>>;

/** What a filter looks at: a listed object. */
export interface FilterableObject {
  readonly key: string;
  readonly size: number;
  readonly lastModified: number | undefined;
  readonly storageClass: string | undefined;
}

export function hasWildcard(key: string): boolean {
  return WILDCARD_CHARACTERS.test(key);
}

/** The literal part of a pattern before its first wildcard: all the store is asked to list. */
export function wildcardPrefix(pattern: string): string {
  const at = pattern.search(WILDCARD_CHARACTERS);
  return at < 0 ? pattern : pattern.slice(0, at);
}

/** The folder a pattern or prefix names, below which --include and --exclude see keys: up to its last "/". */
export function filterBase(prefixOrPattern: string): string {
  const literal = wildcardPrefix(prefixOrPattern);
  return literal.slice(0, literal.lastIndexOf('/') + 1);
}

/**
 * A glob's test of a whole text: `*` any run of characters ("/" too), `?` one character.
 *
 * Matched by walking both strings, going back only to the last `*` seen: time at most the product
 * of the two lengths, for any glob. A regular expression (`.*a.*a.*b`) backtracks exponentially: one
 * typed pattern against one long key held the event loop, and with it every job, for a minute.
 */
export function globMatcher(glob: string): (text: string) => boolean {
  const pattern = [...glob];
  return (text) => {
    const chars = [...text];
    let p = 0;
    let t = 0;
    let star = -1;
    let resumeAt = 0;
    while (t < chars.length) {
      if (p < pattern.length && pattern[p] !== '*' && (pattern[p] === '?' || pattern[p] === chars[t])) {
        p++;
        t++;
      } else if (p < pattern.length && pattern[p] === '*') {
        star = p++;
        resumeAt = t;
      } else if (star >= 0) {
        // The last `*` takes one more character, and the rest of the glob is tried again after it.
        p = star + 1;
        t = ++resumeAt;
      } else return false;
    }
    while (p < pattern.length && pattern[p] === '*') p++;
    return p === pattern.length;
  };
}

/**
 * Whether `glob` matches some text that begins with `prefix` (what a folder's keys all begin with).
 *
 * A copy of a pattern's matches into a folder that the pattern reaches would be listed again and copied
 * once more (`*` spans "/"): this is the question that refuses it. The glob's places still reachable
 * once `prefix` is read are followed as a set, so the time is the product of the two lengths.
 */
export function globMayMatchBelow(glob: string, prefix: string): boolean {
  const pattern = [...glob];
  // A `*` may match nothing: being at it is also being just past it.
  const withStars = (places: Set<number>): Set<number> => {
    for (const place of places) if (pattern[place] === '*') places.add(place + 1);
    return places;
  };
  let places = withStars(new Set([0]));
  for (const char of prefix) {
    const next = new Set<number>();
    for (const place of places) {
      if (pattern[place] === '*') next.add(place);
      else if (place < pattern.length && (pattern[place] === '?' || pattern[place] === char)) next.add(place + 1);
    }
    places = withStars(next);
    if (places.size === 0) return false;
  }
  // Whatever is left of the glob, some text after the prefix matches it.
  return places.size > 0;
}

/** Whether `text` matches `glob` as a whole. */
export function globMatches(glob: string, text: string): boolean {
  return globMatcher(glob)(text);
}

/** Whether a filter leaves anything out at all (an empty one is no filter). */
export function isFiltering(filter: ObjectFilter | undefined): filter is ObjectFilter {
  if (filter === undefined) return false;
  return Object.values(filter).some((value) => value !== undefined && (!Array.isArray(value) || value.length > 0));
}

/**
 * The part of the test that looks at the key alone: the wildcard, --include and --exclude.
 *
 * What a job can judge of a key the store listed with a broken URL encoding (its size and date are not
 * trusted): one these leave out does not matter, one they keep fails by name.
 */
export function nameMatcher(
  filter: ObjectFilter | undefined,
  base: string,
  pattern?: string,
): (key: string) => boolean {
  const whole = pattern !== undefined && hasWildcard(pattern) ? globMatcher(pattern) : undefined;
  const includes = (filter?.include ?? []).map(globMatcher);
  const excludes = (filter?.exclude ?? []).map(globMatcher);
  return (key) => {
    if (whole && !whole(key)) return false;
    const relative = key.startsWith(base) ? key.slice(base.length) : key;
    if (excludes.some((matches) => matches(relative))) return false;
    return includes.length === 0 || includes.some((matches) => matches(relative));
  };
}

/**
 * The test a listing applies to each object. `base` is the folder the command named (filterBase):
 * --include and --exclude see the key below it. `pattern`, where given, is an S3 URL's wildcard key,
 * matched against the whole key.
 */
export function objectMatcher(
  filter: ObjectFilter | undefined,
  base: string,
  pattern?: string,
): (object: FilterableObject) => boolean {
  const named = nameMatcher(filter, base, pattern);
  const classes = filter?.storageClasses ? new Set<string>(filter.storageClasses) : undefined;
  return (object) => {
    if (!named(object.key)) return false;
    if (filter?.largerThan !== undefined && !(object.size > filter.largerThan)) return false;
    if (filter?.smallerThan !== undefined && !(object.size < filter.smallerThan)) return false;
    if (classes && !classes.has((object.storageClass ?? 'STANDARD').toUpperCase())) return false;
    // An object listed without a date cannot be said to be older or newer: it is left alone.
    if (filter?.modifiedBefore !== undefined && !(object.lastModified! < filter.modifiedBefore)) return false;
    if (filter?.modifiedAfter !== undefined && !(object.lastModified! > filter.modifiedAfter)) return false;
    return true;
  };
}

/** A filter value that cannot be used, with the rule it breaks; the message names the flag as typed. */
export class FilterProblem extends Error {
  override readonly name = 'FilterProblem';
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,3})?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

/**
 * An instant from "90d", "12h", "30m", "45s", "2w" (that long before `now`) or an ISO date
 * ("2024-01-31", midnight UTC; "2024-01-31T12:00", UTC unless it gives a zone).
 */
export function parseInstant(flag: string, text: string, now: number): number {
  const seconds = parseDuration(text);
  if (seconds !== undefined) return now - Math.round(seconds * 1000);
  const match = ISO_DATE.exec(text.trim());
  if (match) {
    const [, year, month, day, hour = '00', minute = '00', second = '00', fraction = '', zone] = match;
    const zoned = zone === undefined ? 'Z' : zone.toUpperCase() === 'Z' ? 'Z' : zone;
    const instant = Date.parse(`${year}-${month}-${day}T${hour}:${minute}:${second}${fraction}${zoned}`);
    // Date.parse rolls 2024-02-30 over to March: a day that does not exist is refused instead.
    const calendar = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
    const real = calendar.getUTCMonth() === Number(month) - 1 && calendar.getUTCDate() === Number(day);
    if (Number.isFinite(instant) && real && Number(hour) < 24 && Number(minute) < 60 && Number(second) < 60)
      return instant;
  }
  throw new FilterProblem(
    `${flag} takes an age such as 90d, 12h, 30m or 2w, or a date such as 2024-01-31 or 2024-01-31T12:00Z, not ` +
      `"${text}".`,
  );
}

/** Bytes from "1GiB", "500MB", "10KiB", "4096". */
export function parseSizeLimit(flag: string, text: string): number {
  const bytes = parseByteSize(text);
  if (bytes === undefined)
    throw new FilterProblem(
      `${flag} takes a size such as 1GiB, 500MB, 10KiB or 4096 (bytes), not "${text}". KiB, MiB, GiB are ` +
        `1024-based; KB, MB, GB 1000-based.`,
    );
  return bytes;
}

/** Storage classes from "GLACIER" or "standard_ia,glacier_ir" (any case). */
export function parseStorageClasses(flag: string, text: string): (typeof STORAGE_CLASSES)[number][] {
  const names = text
    .split(',')
    .map((name) => name.trim().toUpperCase())
    .filter((name) => name !== '');
  const unknown = names.find((name) => !(STORAGE_CLASSES as readonly string[]).includes(name));
  if (names.length === 0 || unknown !== undefined)
    throw new FilterProblem(
      `${flag} takes one or more of ${STORAGE_CLASSES.join(', ')} (separated by commas), not "${unknown ?? text}".`,
    );
  return names as (typeof STORAGE_CLASSES)[number][];
}

/** A glob for --include or --exclude: any text but the empty one. */
export function parseGlob(flag: string, text: string): string {
  if (text === '') throw new FilterProblem(`${flag} takes a glob such as "*.tmp" or "2024-*/*.gz", not an empty one.`);
  return text;
}

/** What a person types, before it is parsed: every field optional, each as the text after its flag. */
export interface FilterText {
  readonly include?: readonly string[];
  readonly exclude?: readonly string[];
  readonly olderThan?: string;
  readonly newerThan?: string;
  readonly largerThan?: string;
  readonly smallerThan?: string;
  readonly storageClass?: string;
}

/** What each field is called where it was typed: a flag on the command line, a label in the window. */
export type FilterFieldNames = Readonly<Record<keyof FilterText, string>>;

/** The command line's names: its flags. */
export const FLAG_NAMES: FilterFieldNames = {
  include: '--include',
  exclude: '--exclude',
  olderThan: '--older-than',
  newerThan: '--newer-than',
  largerThan: '--larger-than',
  smallerThan: '--smaller-than',
  storageClass: '--storage-class',
};

/**
 * Globs typed in one field, separated by commas ("*.tmp, *.log"): the space after a comma is typing,
 * not part of the next glob, and an empty glob between two commas is none.
 */
export function splitGlobList(text: string): string[] {
  return text
    .split(',')
    .map((glob) => glob.trim())
    .filter((glob) => glob !== '');
}

/**
 * The filter typed, checked as a whole: a future --older-than (it would match everything: a slip, most
 * likely, of a date's year), a future --newer-than (nothing), and limits that leave nothing between
 * them are refused. Each refusal names the field as `names` spell it (the flags unless told).
 */
export function parseObjectFilter(
  text: FilterText,
  now: number,
  names: FilterFieldNames = FLAG_NAMES,
): ObjectFilter | undefined {
  const filter: {
    -readonly [K in keyof ObjectFilter]: ObjectFilter[K];
  } = {};
  if (text.include?.length) filter.include = text.include.map((glob) => parseGlob(names.include, glob));
  if (text.exclude?.length) filter.exclude = text.exclude.map((glob) => parseGlob(names.exclude, glob));
  if (text.olderThan !== undefined) {
    filter.modifiedBefore = parseInstant(names.olderThan, text.olderThan, now);
    if (filter.modifiedBefore > now)
      throw new FilterProblem(
        `${names.olderThan} ${text.olderThan} is in the future: every object is older than that. Give a past ` +
          `date or an age such as 90d.`,
      );
  }
  if (text.newerThan !== undefined) {
    filter.modifiedAfter = parseInstant(names.newerThan, text.newerThan, now);
    if (filter.modifiedAfter > now)
      throw new FilterProblem(
        `${names.newerThan} ${text.newerThan} is in the future: no object is newer than that. Give a past date ` +
          `or an age such as 12h.`,
      );
  }
  if (
    filter.modifiedBefore !== undefined &&
    filter.modifiedAfter !== undefined &&
    filter.modifiedAfter >= filter.modifiedBefore
  )
    throw new FilterProblem(
      `${names.newerThan} ${text.newerThan} and ${names.olderThan} ${text.olderThan} leave no time between ` +
        `them: nothing could match. The object must be newer than the first and older than the second.`,
    );
  if (text.largerThan !== undefined) filter.largerThan = parseSizeLimit(names.largerThan, text.largerThan);
  if (text.smallerThan !== undefined) {
    filter.smallerThan = parseSizeLimit(names.smallerThan, text.smallerThan);
    if (filter.smallerThan === 0)
      throw new FilterProblem(`${names.smallerThan} 0 matches nothing: no object has fewer than 0 bytes.`);
  }
  if (
    filter.largerThan !== undefined &&
    filter.smallerThan !== undefined &&
    filter.smallerThan <= filter.largerThan + 1
  )
    throw new FilterProblem(
      `${names.largerThan} ${text.largerThan} and ${names.smallerThan} ${text.smallerThan} leave no size ` +
        `between them: nothing could match.`,
    );
  if (text.storageClass !== undefined)
    filter.storageClasses = parseStorageClasses(names.storageClass, text.storageClass);
  return isFiltering(filter) ? filter : undefined;
}

/** The filter in its flags' words ("--older-than 2024-01-31T00:00:00Z, --exclude *.log"), for "nothing matched". */
export function describeFilter(filter: ObjectFilter | undefined): string {
  if (!isFiltering(filter)) return '';
  const date = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
  const parts = [
    ...(filter.include ?? []).map((glob) => `--include ${glob}`),
    ...(filter.exclude ?? []).map((glob) => `--exclude ${glob}`),
    filter.modifiedBefore === undefined ? '' : `--older-than ${date(filter.modifiedBefore)}`,
    filter.modifiedAfter === undefined ? '' : `--newer-than ${date(filter.modifiedAfter)}`,
    filter.largerThan === undefined ? '' : `--larger-than ${filter.largerThan} bytes`,
    filter.smallerThan === undefined ? '' : `--smaller-than ${filter.smallerThan} bytes`,
    filter.storageClasses === undefined ? '' : `--storage-class ${filter.storageClasses.join(',')}`,
  ];
  return parts.filter((part) => part !== '').join(', ');
}

/**
 * What a job says of a pattern, or a filtered folder, that matched nothing (`done`: "downloaded",
 * "copied", "moved"): "No object below s3://b/logs/ matches --larger-than 1024 bytes: nothing was moved."
 */
export function nothingMatched(
  bucket: string,
  named: string,
  folder: boolean,
  filter: ObjectFilter | undefined,
  done: string,
): string {
  const where = `s3://${bucket}/${folder && named !== '' && !named.endsWith('/') ? `${named}/` : named}`;
  const how = describeFilter(filter);
  return `No object ${folder ? 'below ' : ''}${where} matches${how ? ` ${how}` : ''}: nothing was ${done}.`;
}

/** Where a listing starts and what it keeps: the prefix sent to the store, the folder globs see, the pattern. */
export interface ListingRoot {
  /** What the store is asked to list below. */
  readonly listPrefix: string;
  /** The folder --include and --exclude see keys below (filterBase). */
  readonly base: string;
  /** The wildcard key every object must match whole, for a pattern. */
  readonly pattern?: string;
}

/** A pattern's listing: the literal part before its first wildcard, and its folder. */
export function patternRoot(pattern: string): ListingRoot {
  return { listPrefix: wildcardPrefix(pattern), base: filterBase(pattern), pattern };
}

/** A folder's listing ("logs/": everything below it), globs seeing keys below it. */
export function folderRoot(folder: string): ListingRoot {
  return { listPrefix: folder, base: folder };
}
