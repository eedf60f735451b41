// What the command line and the window say of keys a store listed with a broken URL encoding.

import { expect, it } from 'vitest';
import { unreadableKeysNotice, unreadableKeyWarning } from '../../../src/unreadable-key.ts';

it('names the key as sent, escaped; the window names the first and counts the others', () => {
  expect(unreadableKeyWarning('bad%zz\u202e.txt')).toContain('("bad%zz\\u202e.txt", as it sent it)');
  expect(unreadableKeysNotice(['a%zz'])).toBe(
    'Not shown: a key the store listed with a broken URL encoding, "a%zz". The store is faulty: tell its operator.',
  );
  expect(unreadableKeysNotice(['a%zz', 'b%zz', 'c%zz'])).toBe(
    'Not shown: a key the store listed with a broken URL encoding, "a%zz" (and 2 more). The store is faulty: tell its operator.',
  );
});
