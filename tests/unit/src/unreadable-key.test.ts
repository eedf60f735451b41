// What the command line and the window say of keys a store listed with a broken URL encoding.

import { expect, it } from 'vitest';
import { readablePartOf, unreadableKeysNotice, unreadableKeyWarning } from '../../../src/unreadable-key.ts';

it('names the key as sent, escaped; the window names the first and counts the others', () => {
  expect(unreadableKeyWarning('bad%zz\u202e.txt')).toContain('("bad%zz\\u202e.txt", as it sent it)');
  expect(unreadableKeysNotice(['a%zz'])).toBe(
    'Not shown: a key the store listed with a broken URL encoding, "a%zz". The store is faulty: tell its operator.',
  );
  expect(unreadableKeysNotice(['a%zz', 'b%zz', 'c%zz'])).toBe(
    'Not shown: a key the store listed with a broken URL encoding, "a%zz" (and 2 more). The store is faulty: tell its operator.',
  );
});

it('reads what it can of such a key for a filter: good escapes decoded, broken ones left as sent', () => {
  expect(readablePartOf('logs/caf%C3%A9%zz.log')).toBe('logs/café%zz.log');
  expect(readablePartOf('a%2Fb%E9c')).toBe('a/b%E9c');
  expect(readablePartOf('plain%')).toBe('plain%');
});
