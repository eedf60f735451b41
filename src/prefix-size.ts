// A prefix's size (objects.size): per storage class, and the running total of its stretches.
//
// The engine counts a prefix a stretch at a time; every host adds the stretches up the same way here,
// so the command line's totals and the window's are the same numbers.

export interface SizeByClass {
  readonly storageClass: string;
  /** Current objects (every object, where versions were not asked for). */
  readonly objects: number;
  readonly bytes: number;
  /** Noncurrent versions (counted only where versions were asked for). */
  readonly noncurrentObjects: number;
  readonly noncurrentBytes: number;
}

export interface PrefixSize {
  /** By storage class, in the order first met (sortedClasses orders them). */
  readonly classes: readonly SizeByClass[];
  /** Delete markers (counted only where versions were asked for). */
  readonly deleteMarkers: number;
  /** Where the count goes on: absent once the prefix is counted whole. */
  readonly nextToken?: string;
}

export const EMPTY_PREFIX_SIZE: PrefixSize = { classes: [], deleteMarkers: 0 };

/** `total` with one more stretch added; the stretch's `nextToken` carried, so `done` follows the last one. */
export function addPrefixSize(total: PrefixSize, stretch: PrefixSize): PrefixSize {
  const classes = new Map(total.classes.map((entry) => [entry.storageClass, entry]));
  for (const entry of stretch.classes) {
    const was = classes.get(entry.storageClass);
    classes.set(
      entry.storageClass,
      was === undefined
        ? entry
        : {
            storageClass: entry.storageClass,
            objects: was.objects + entry.objects,
            bytes: was.bytes + entry.bytes,
            noncurrentObjects: was.noncurrentObjects + entry.noncurrentObjects,
            noncurrentBytes: was.noncurrentBytes + entry.noncurrentBytes,
          },
    );
  }
  return {
    classes: sortedClasses([...classes.values()]),
    deleteMarkers: total.deleteMarkers + stretch.deleteMarkers,
    ...(stretch.nextToken === undefined ? {} : { nextToken: stretch.nextToken }),
  };
}

/** The sum over every class. */
export function sizeTotals(size: PrefixSize): Omit<SizeByClass, 'storageClass'> {
  const sum = { objects: 0, bytes: 0, noncurrentObjects: 0, noncurrentBytes: 0 };
  for (const entry of size.classes) {
    sum.objects += entry.objects;
    sum.bytes += entry.bytes;
    sum.noncurrentObjects += entry.noncurrentObjects;
    sum.noncurrentBytes += entry.noncurrentBytes;
  }
  return sum;
}

/** Largest first, then by name: what matters most on top. */
export function sortedClasses(classes: readonly SizeByClass[]): SizeByClass[] {
  return [...classes].sort(
    (a, b) =>
      b.bytes + b.noncurrentBytes - (a.bytes + a.noncurrentBytes) || a.storageClass.localeCompare(b.storageClass),
  );
}
