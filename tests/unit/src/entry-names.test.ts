import { describe, expect, it } from 'vitest';
import { folderMarkerKey, newFolderNameProblem, renameProblem } from '../../../src/entry-names.ts';

describe('new folder and rename names', () => {
  it('makes a folder marker as a prefix, its name and "/"', () => {
    expect(folderMarkerKey('a/', 'b')).toBe('a/b/');
    expect(folderMarkerKey('', 'b')).toBe('b/');
  });

  it('refuses an empty name, a "/", a dot folder, a control character, a key too long', () => {
    expect(newFolderNameProblem('', 'ok')).toBeUndefined();
    expect(newFolderNameProblem('', ' ')).toBe('Give a folder a name.');
    expect(newFolderNameProblem('', 'a/b')).toMatch(/a name has no "\/" in it/);
    expect(newFolderNameProblem('', '.')).toMatch(/means this folder/);
    expect(newFolderNameProblem('', 'a\u0007')).toBe(
      '"a\\x07" cannot name a folder: it holds a control character (\\x07).',
    );
    expect(newFolderNameProblem('p/', 'x'.repeat(1022))).toMatch(/1025 bytes long in UTF-8; S3 allows at most 1024/);
    expect(newFolderNameProblem('p/', 'x'.repeat(1021))).toBeUndefined();
  });

  it('refuses a rename to the same name, or to one with "/", saying the rule', () => {
    expect(renameProblem('p/', 'a.txt', 'a.txt', false)).toBe('"a.txt" is the name it has: give another name.');
    expect(renameProblem('p/', 'a.txt', 'b/c.txt', false)).toMatch(/cannot name an object: a name has no "\/"/);
    expect(renameProblem('p/', 'a.txt', '', false)).toBe('Give an object a name.');
    expect(renameProblem('p/', 'docs', 'papers', true)).toBeUndefined();
    // A folder's new key ends in "/": one byte more than an object's.
    expect(renameProblem('', 'd', 'x'.repeat(1024), false)).toBeUndefined();
    expect(renameProblem('', 'd', 'x'.repeat(1024), true)).toMatch(/1025 bytes/);
  });
});
