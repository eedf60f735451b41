import { describe, expect, it } from 'vitest';
import { copyPlacesProblem, copyTargetKey } from '../../../src/copy-targets.ts';

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
});
