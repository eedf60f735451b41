import { describe, expect, it } from 'vitest';
import { fileNameProblem, keyToRelativePath, SavedPaths } from '../../../src/key-path.ts';

describe('keyToRelativePath', () => {
  it('strips the prefix up to its last slash', () => {
    expect(keyToRelativePath('photos/2024/a.jpg', 'photos/')).toEqual({
      ok: true,
      segments: ['2024', 'a.jpg'],
      isFolderMarker: false,
    });
    expect(keyToRelativePath('a/photos/x.jpg', 'a/')).toEqual({
      ok: true,
      segments: ['photos', 'x.jpg'],
      isFolderMarker: false,
    });
    expect(keyToRelativePath('photos/x.jpg', 'ph')).toEqual({
      ok: true,
      segments: ['photos', 'x.jpg'],
      isFolderMarker: false,
    });
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

  it.each([
    'CON',
    'con',
    'Con.txt',
    'PRN',
    'AUX.tar.gz',
    'NUL',
    'nul.txt',
    'COM1',
    'com9.log',
    'COM0',
    'COM¹',
    'LPT1',
    'lpt³.txt',
    'CONIN$',
    'conout$.log',
  ])('on Windows refuses %j, a reserved device name, in any folder and with any extension', (name) => {
    for (const key of [name, `photos/${name}`, `${name}/inside.txt`]) {
      expect(keyToRelativePath(key, '', 'win32')).toEqual({
        ok: false,
        reason: `contains "${name}", a device name Windows reserves in every folder`,
      });
      expect(keyToRelativePath(key, '', 'posix')).toMatchObject({ ok: true });
    }
  });

  it.each(['CONSOLE', 'com10', 'nul_', 'con-x.txt', 'LPT', 'xCON', 'auxiliary.txt'])(
    'on Windows keeps %j, which only looks like a device name',
    (name) => {
      expect(keyToRelativePath(`d/${name}`, '', 'win32')).toEqual({
        ok: true,
        segments: ['d', name],
        isFolderMarker: false,
      });
    },
  );

  it.each([
    ['what?.txt', 'contains "what?.txt", and Windows allows no ? in a file name'],
    ['a<b', 'contains "a<b", and Windows allows no < in a file name'],
    ['pipe|x', 'contains "pipe|x", and Windows allows no | in a file name'],
    ['trailing.', 'contains "trailing.", and Windows drops a dot or space at the end of a file name'],
    ['space ', 'contains "space ", and Windows drops a dot or space at the end of a file name'],
  ])('on Windows refuses %j, saying why', (name, reason) => {
    expect(keyToRelativePath(`d/${name}`, '', 'win32')).toEqual({ ok: false, reason });
    expect(keyToRelativePath(`d/${name}`, '', 'posix').ok).toBe(true);
  });

  it.each([
    ['bell\x07.txt', '\\x07'],
    ['line\nbreak.txt', '\\n'],
    ['tab\tname', '\\t'],
    ['esc\x1b[31m', '\\x1b'],
    ['del\x7f', '\\x7f'],
  ])('refuses %j on every platform: a control character in a file name is a hazard', (key, shown) => {
    for (const platform of ['posix', 'win32'] as const) {
      expect(keyToRelativePath(`dir/${key}`, '', platform)).toEqual({
        ok: false,
        reason: `contains a control character (${shown}), which is not safe in a file name`,
      });
    }
  });

  it.each([
    ['invoice-\u202efdp.exe', 'a bidirectional formatting character (\\u202e)'],
    ['csi\x9b[2J', 'a control character (\\x9b)'],
    ['nel\x85', 'a control character (\\x85)'],
    ['mark\u200f.txt', 'a bidirectional formatting character (\\u200f)'],
    ['isolate\u2067x', 'a bidirectional formatting character (\\u2067)'],
    ['line\u2028sep', 'a line or paragraph separator (\\u2028)'],
    ['para\u2029sep', 'a line or paragraph separator (\\u2029)'],
  ])(
    'refuses %j on every platform, as a control character: a name that reads as another, or moves the cursor',
    (key, shown) => {
      for (const platform of ['posix', 'win32'] as const) {
        expect(keyToRelativePath(`dir/${key}`, '', platform)).toEqual({
          ok: false,
          reason: `contains ${shown}, which is not safe in a file name`,
        });
      }
    },
  );

  it('keeps spaces, unicode and symbols', () => {
    expect(keyToRelativePath('dir/naïve café + 100%=ok.txt')).toEqual({
      ok: true,
      segments: ['dir', 'naïve café + 100%=ok.txt'],
      isFolderMarker: false,
    });
  });
});

describe('SavedPaths', () => {
  it('refuses a second key for the same file, naming the first', () => {
    const saved = new SavedPaths({ caseInsensitive: false });
    expect(saved.claim('/out/x.txt', 'a/x.txt')).toBeUndefined();
    expect(saved.claim('/out/x.txt', 'a/x.txt')).toBeUndefined();
    expect(saved.claim('/out/x.txt', 'b/x.txt')).toBe(
      'would overwrite /out/x.txt, where "a/x.txt" is saved: download them into separate folders',
    );
  });

  it('in a case-sensitive folder, keeps names that differ only in case apart', () => {
    const saved = new SavedPaths({ caseInsensitive: false });
    expect(saved.claim('/out/p/Photo.jpg', 'p/Photo.jpg')).toBeUndefined();
    expect(saved.claim('/out/p/photo.jpg', 'p/photo.jpg')).toBeUndefined();
  });

  it('in a case-insensitive folder, refuses names that differ only in case, folders included', () => {
    const saved = new SavedPaths({ caseInsensitive: true });
    expect(saved.claim('/out/p/Photo.jpg', 'p/Photo.jpg')).toBeUndefined();
    expect(saved.claim('/out/p/photo.jpg', 'p/photo.jpg')).toBe(
      'would overwrite /out/p/Photo.jpg, where "p/Photo.jpg" is saved, as its name /out/p/photo.jpg differs only in case ' +
        'and this folder does not tell upper and lower case apart: download them into separate folders',
    );
    expect(saved.claim('/out/P/PHOTO.JPG', 'P/PHOTO.JPG')).toContain('differs only in case');
    // Different files in folders that differ only in case share the folder, and that is fine.
    expect(saved.claim('/out/P/other.jpg', 'P/other.jpg')).toBeUndefined();
    // Composed and decomposed accents are one name where case is ignored (APFS, NTFS).
    expect(saved.claim('/out/caf\u00e9', 'caf\u00e9')).toBeUndefined();
    expect(saved.claim('/out/CAFE\u0301', 'CAFE\u0301')).toContain('differs only in case');
  });
});

describe('fileNameProblem (a name to save a download as)', () => {
  it("takes a plain name, and refuses paths, dot names, NUL and what a key's file name may not hold", () => {
    expect(['report.pdf', 'with space', 'naïve-日本語.txt', '..hidden'].map((name) => fileNameProblem(name))).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect(fileNameProblem('a/b')).toBe('is a path, not a file name');
    expect(fileNameProblem('a\\b')).toBe('is a path, not a file name');
    expect(fileNameProblem('..')).toContain('".." segment');
    expect(fileNameProblem('nul\0')).toBe('contains a NUL character');
    expect(fileNameProblem('x\u202etxt.exe')).toBe(
      'contains a bidirectional formatting character (\\u202e), which is not safe in a file name',
    );
    expect(fileNameProblem('nul.txt', 'win32')).toContain('a device name Windows reserves');
  });
});
