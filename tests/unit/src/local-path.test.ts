import { describe, expect, it } from 'vitest';
import { isWholePath, relativePathProblem } from '../../../src/local-path.ts';

describe('whole paths', () => {
  it.each(['/home/me/Downloads', '/', 'C:\\Users\\me', 'd:/data', '\\\\server\\share\\x'])('takes %j', (text) => {
    expect(isWholePath(text)).toBe(true);
  });

  it.each(['exports', './exports', '../etc', '~/Downloads', 'C:relative', ''])(
    'refuses %j, which a host would take from its working folder',
    (text) => {
      expect(isWholePath(text)).toBe(false);
    },
  );

  it('says why, naming the path', () => {
    expect(relativePathProblem('exports')).toMatch(/^"exports" is a relative path: give the whole path/);
  });
});
