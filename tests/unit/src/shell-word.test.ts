import { execFileSync } from 'node:child_process';
import { expect, it } from 'vitest';
import { shellWord } from '../../../src/shell-word.ts';

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

it('shows control characters escaped: no newline or terminal escape reaches the command', () => {
  const word = shellWord('a\nb\u001b[31m');
  expect(word).not.toMatch(/[\n\u001b]/);
  expect(word).toBe("'a\\nb\\x1b[31m'");
});
