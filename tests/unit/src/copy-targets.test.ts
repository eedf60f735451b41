import { describe, expect, it } from 'vitest';
import { copyPlacesProblem, copyTargetKey, patternTargetKey } from '../../../src/copy-targets.ts';

const spec = (destination: string, more: object = {}) => ({ sourceBucket: 'a', bucket: 'b', destination, ...more });

describe('where a copy puts each object', () => {
  it('puts a key in a folder under its name, or at a new name', () => {
    expect(copyTargetKey(spec('x/'), 'p/q.txt')).toBe('x/q.txt');
    expect(copyTargetKey(spec(''), 'p/q.txt')).toBe('q.txt');
    expect(copyTargetKey(spec('x/r.txt'), 'p/q.txt')).toBe('x/r.txt');
  });

  it('puts a prefix in a folder with its folder name, or renames it', () => {
    expect(copyTargetKey(spec('x/'), 'photos/2024/a.jpg', 'photos')).toBe('x/photos/2024/a.jpg');
    expect(copyTargetKey(spec('pictures'), 'photos/2024/a.jpg', 'photos/')).toBe('pictures/2024/a.jpg');
    expect(copyTargetKey(spec('x/'), 'a.jpg', '')).toBe('x/a.jpg');
  });

  it('refuses a move onto itself, a copy that changes nothing, and a folder into itself, with the rule', () => {
    expect(copyPlacesProblem(spec('p/', { bucket: 'a', keys: ['p/q.txt'] }), 'move')).toBe(
      'Cannot move s3://a/p/q.txt onto itself: the source and the destination are the same object. Give another destination.',
    );
    expect(copyPlacesProblem(spec('p/q.txt', { bucket: 'a', keys: ['p/q.txt'] }), 'copy')).toMatch(
      /would change nothing/,
    );
    expect(copyPlacesProblem(spec('photos', { bucket: 'a', prefixes: ['photos/'] }), 'move')).toMatch(/onto itself/);
    expect(copyPlacesProblem(spec('photos/old/', { bucket: 'a', prefixes: ['photos'] }), 'copy')).toMatch(
      /into itself/,
    );
    expect(copyPlacesProblem(spec('one-name', { keys: ['a', 'b'] }), 'copy')).toMatch(/must be a folder/);
    expect(copyPlacesProblem(spec('p/', { keys: ['p/q.txt'] }), 'move')).toBeUndefined();
    expect(copyPlacesProblem(spec('x/'), 'copy')).toMatch(/Nothing to copy/);
  });

  it("puts a pattern's match below the destination folder by its key below the pattern's folder, as s5cmd", () => {
    expect(patternTargetKey(spec('old/'), 'logs/2024-01/a.gz', 'logs/2024-*/*.gz')).toBe('old/2024-01/a.gz');
    expect(patternTargetKey(spec(''), 'logs/deep/b.gz', 'logs/*.gz')).toBe('deep/b.gz');
    expect(patternTargetKey(spec('x/'), 'a.gz', '*.gz')).toBe('x/a.gz');
  });

  it("refuses a pattern's matches onto themselves or into a folder the pattern reaches, and a pattern to one name", () => {
    const same = (destination: string, patterns: string[]) => spec(destination, { bucket: 'a', patterns });
    expect(copyPlacesProblem(same('logs/', ['logs/*.gz']), 'move')).toBe(
      'Cannot move what s3://a/logs/*.gz matches onto itself: each match would land on its own key. Give another ' +
        'destination.',
    );
    expect(copyPlacesProblem(same('logs/', ['logs/2024-*']), 'copy')).toMatch(/would change nothing/);
    expect(copyPlacesProblem(same('old/', ['*.gz']), 'move')).toBe(
      'Cannot move what s3://a/*.gz matches into s3://a/old/: the pattern matches keys there too, so its copies ' +
        'would be copied again. Choose a destination the pattern does not reach.',
    );
    expect(copyPlacesProblem(same('logs/old/', ['logs/2024-??.gz']), 'move')).toBeUndefined();
    expect(copyPlacesProblem(same('archive/', ['logs/*.gz']), 'move')).toBeUndefined();
    // Another bucket, or another store: nothing lands on a source.
    expect(copyPlacesProblem(spec('logs/', { patterns: ['logs/*.gz'] }), 'move')).toBeUndefined();
    expect(copyPlacesProblem(same('logs/', ['logs/*.gz']), 'move', false)).toBeUndefined();
    expect(copyPlacesProblem(spec('gz', { patterns: ['logs/*.gz'] }), 'copy')).toBe(
      'To copy what s3://a/logs/*.gz matches, the destination must be a folder: end it with "/".',
    );
    expect(copyPlacesProblem(spec('x/', { patterns: ['logs/*.gz'] }), 'copy')).toBeUndefined();
  });

  it("refuses sources of one job where one's copies may land on another before it is moved, and only then", () => {
    const one = (more: object) => spec('D/', { bucket: 'a', ...more });
    // E/x/y/z would go to D/x/y/z, a key of the folder D/x/y moved in the same run: replaced, then deleted.
    expect(copyPlacesProblem(one({ prefixes: ['E/x', 'D/x/y'] }), 'move')).toBe(
      'Cannot move s3://a/E/x/ and s3://a/D/x/y/ in one run: a copy from the first could land on the second ' +
        'before it is moved, replacing it. Move them one at a time.',
    );
    expect(copyPlacesProblem(one({ keys: ['D/x/y/z'], patterns: ['E/*'] }), 'move')).toMatch(
      /^Cannot move s3:\/\/a\/E\/\* and s3:\/\/a\/D\/x\/y\/z in one run/,
    );
    expect(copyPlacesProblem(one({ prefixes: ['D/x/y'], patterns: ['E/*.gz'] }), 'copy')).toMatch(/in one run/);
    expect(copyPlacesProblem(one({ keys: ['D/x/z'], prefixes: ['E/x'] }), 'move')).toMatch(/in one run/);
    // A file and a folder moved up a level land beside each other; a pattern that cannot name them misses them.
    expect(copyPlacesProblem(one({ keys: ['D/sub/a'], prefixes: ['D/sub/f'] }), 'move')).toBeUndefined();
    expect(copyPlacesProblem(one({ keys: ['D/sub/a.txt'], patterns: ['logs/*.gz'] }), 'move')).toBeUndefined();
    expect(copyPlacesProblem(one({ prefixes: ['E/x', 'D/sub/y'] }), 'move')).toBeUndefined();
    // In another store, the sources are not where the copies land.
    expect(copyPlacesProblem(one({ prefixes: ['E/x', 'D/x/y'] }), 'move', false)).toBeUndefined();
  });
});
