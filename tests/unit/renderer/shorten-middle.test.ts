import { expect, it } from 'vitest';
import { shortenInMiddle } from '../../../renderer/shorten-middle.ts';

/** A room of `width` characters, each one wide. */
const room = (width: number) => (candidate: string) => [...new Intl.Segmenter().segment(candidate)].length <= width;

it('keeps a name that fits whole, and shortens one that does not in the middle, keeping its end (where a job goes)', () => {
  expect(shortenInMiddle('a.txt → /tmp', room(20))).toBe('a.txt → /tmp');
  const name = 'photos in s3://bucket/ → /home/someone/Downloads/2024';
  const shown = shortenInMiddle(name, room(24));
  expect(shown).toHaveLength(24);
  expect(shown).toBe('photos i…/Downloads/2024');
  expect(shown.endsWith('Downloads/2024')).toBe(true);
});

it('cuts between whole characters (an emoji with its modifier, a letter with its accent), and keeps at least the ellipsis', () => {
  const name = '👍🏽👍🏽👍🏽👍🏽 → e\u0301e\u0301e\u0301e\u0301';
  const shown = shortenInMiddle(name, room(5));
  expect([...new Intl.Segmenter().segment(shown)].map((part) => part.segment)).toEqual([
    '👍🏽',
    '👍🏽',
    '…',
    'e\u0301',
    'e\u0301',
  ]);
  expect(shortenInMiddle(name, () => false)).toBe('…');
});
