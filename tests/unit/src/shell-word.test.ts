import { execFileSync } from 'node:child_process';
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

it("writes control characters as $'...' escapes: nothing raw reaches the screen, and bash reads the text back", () => {
  for (const text of ['a\nb\u001b[31m', "it's\tx", 'back\\slash\r', 'bidi\u202efdp.exe', 'c1\u009b']) {
    const word = shellWord(text);
    expect(word).not.toMatch(/[\n\r\t\u001b\u009b\u202e]/);
    expect(word.startsWith("$'")).toBe(true);
    const echoed = execFileSync('bash', ['-c', `printf '%s' ${word}`], { encoding: 'utf8' });
    expect(echoed).toBe(text);
  }
  expect(shellWord('a\nb')).toBe("$'a\\nb'");
});

it('puts "--" before operands when one begins with "-", so no option is read from them', () => {
  expect(shellOperands(['s3://b', 'rule-1'])).toBe('s3://b rule-1');
  expect(shellOperands(['s3://b', '-rf x'])).toBe("-- s3://b '-rf x'");
});
