// The keys a sync's walk left out on purpose (a link not followed, a special file), and whether a
// destination key lies under one of them.
//
// What the destination holds under a skipped entry is that entry's, not extra, and is kept. Looked
// up by the key and each of its folders in a set: an extra costs its depth, not the number of links
// skipped (a walk past 10,000 links checked each of 100,000 extras against every one).

export class SkippedKeys {
  private readonly keys = new Set<string>();

  /** A key left out ("photos/link", or "photos/link/" for a folder): it and everything below it. */
  add(key: string): void {
    this.keys.add(key.endsWith('/') ? key.slice(0, -1) : key);
  }

  /** Whether `key` is a skipped key or lies below one. */
  covers(key: string): boolean {
    if (this.keys.size === 0) return false;
    const bare = key.endsWith('/') ? key.slice(0, -1) : key;
    if (this.keys.has(bare)) return true;
    for (let slash = bare.indexOf('/'); slash >= 0; slash = bare.indexOf('/', slash + 1))
      if (this.keys.has(bare.slice(0, slash))) return true;
    return false;
  }
}
