import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { expect, it } from 'vitest';
import { shellOperands, shellWord } from '../../../src/shell-word.ts';

it('leaves a plain address as it is, and quotes anything a shell would read', () => {
  expect(shellWord('s3://b/logs/2026-11/')).toBe('s3://b/logs/2026-11/');
  expect(shellWord('')).toBe("''");
  expect(shellWord('a b')).toBe("'a b'");
  expect(shellWord("it's")).toBe("'it'\\''s'");
});

it('gives bash one word, the text itself, whatever it holds', () => {
  for (const text of ['s3://b/a b*\'$(touch /tmp/x)`id`!?~#;&|<>\\"{}/', ' lead', '\u00a0nbsp', '*']) {
    const echoed = execFileSync('bash', ['-c', `printf '%s' ${shellWord(text)}`], { encoding: 'utf8' });
    expect(echoed).toBe(text);
  }
});

const HOSTILE = ['a\nb\u001b[31m', "it's\tx", 'back\\slash\r', 'bidi\u202efdp.exe', 'c1\u009b', "\u0001'; touch x #"];

it("writes control characters as $'\\xHH' escapes of their bytes: nothing raw on the screen, bash reads the text back", () => {
  for (const text of HOSTILE)
    for (const locale of ['C.UTF-8', 'C']) {
      const word = shellWord(text);
      expect(word).not.toMatch(/[\n\r\t\u001b\u009b\u202e\u0001]/);
      const echoed = execFileSync('bash', ['-c', `printf '%s' ${word}`], { env: { LC_ALL: locale } });
      expect({ locale, echoed: echoed.toString('utf8') }).toEqual({ locale, echoed: text });
    }
  expect(shellWord('a\nb')).toBe("'a'$'\\n''b'");
  expect(shellWord('x\u202ey')).toBe("'x'$'\\xe2\\x80\\xae''y'");
});

it("gives a shell without $'...' (dash, /bin/sh on Debian) one word of text, never a command", () => {
  for (const text of HOSTILE) {
    const script = `for word in ${shellWord(text)}; do printf '[%s]' "$word"; done`;
    const words = execFileSync('dash', ['-c', script], { encoding: 'utf8', cwd: tmpdir() });
    expect(words).toMatch(/^\[[^\]]*\]$/s);
  }
});

it('puts "--" before operands when one begins with "-", so no option is read from them', () => {
  expect(shellOperands(['s3://b', 'rule-1'])).toBe('s3://b rule-1');
  expect(shellOperands(['s3://b', '-rf x'])).toBe("-- s3://b '-rf x'");
});
