import { describe, expect, it } from 'vitest';
import { keyToRelativePath } from '../../../src/key-path.ts';

describe('keyToRelativePath', () => {
  it('strips the prefix up to its last slash', () => {
    expect(keyToRelativePath('photos/2024/a.jpg', 'photos/')).toEqual({ ok: true, segments: ['2024', 'a.jpg'], isFolderMarker: false });
    expect(keyToRelativePath('a/photos/x.jpg', 'a/')).toEqual({ ok: true, segments: ['photos', 'x.jpg'], isFolderMarker: false });
    expect(keyToRelativePath('photos/x.jpg', 'ph')).toEqual({ ok: true, segments: ['photos', 'x.jpg'], isFolderMarker: false });
  });

  it('treats a key ending in / as a folder', () => {
    expect(keyToRelativePath('docs/sub/', 'docs/')).toEqual({ ok: true, segments: ['sub'], isFolderMarker: true });
  });

  it.each([
    ['../../etc/passwd', '..'],
    ['a/../../b', '..'],
    ['/etc/passwd', 'absolute'],
    ['a//b', 'empty'],
    ['./a', '"."'],
    ['a/\0b', 'NUL'],
  ])('refuses %j, which could leave the target folder', (key, reason) => {
    const result = keyToRelativePath(key);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toContain(reason);
  });

  it('refuses names Windows cannot hold, on Windows only', () => {
    expect(keyToRelativePath('x/CON.txt', '', 'win32').ok).toBe(false);
    expect(keyToRelativePath('x/a:b', '', 'win32').ok).toBe(false);
    expect(keyToRelativePath('C:/x', '', 'win32').ok).toBe(false);
    expect(keyToRelativePath('x/CON.txt', '', 'posix').ok).toBe(true);
  });

  it('keeps spaces, unicode and symbols', () => {
    expect(keyToRelativePath('dir/naïve café + 100%=ok.txt')).toEqual({ ok: true, segments: ['dir', 'naïve café + 100%=ok.txt'], isFolderMarker: false });
  });
});
