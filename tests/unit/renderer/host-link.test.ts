import { expect, it } from 'vitest';
import { FIRST_RETRY_MS, MAX_RETRY_MS, reconnectDelayMs } from '../../../renderer/api/host-link.ts';
import { hostLinkNotice } from '../../../renderer/host-link-text.ts';

it('a lost host is tried again a second later, then further apart up to half a minute, each a little later at random', () => {
  const least = Array.from({ length: 8 }, (_, attempt) => reconnectDelayMs(attempt, () => 0));
  expect(least).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
  expect(least[0]).toBe(FIRST_RETRY_MS);
  expect(reconnectDelayMs(100, () => 0)).toBe(MAX_RETRY_MS);
  // Windows that lost one host do not all knock on it at once.
  expect(reconnectDelayMs(0, () => 0.999)).toBe(1_200);
  expect(reconnectDelayMs(9, () => 0.5)).toBe(33_000);
});

it('a lost host is said with the command that started it, and when the window tries again', () => {
  const now = 1_000_000;
  expect(hostLinkNotice({ state: 'connected' }, 'npm run demo', now)).toBeUndefined();
  expect(hostLinkNotice({ state: 'lost', nextTryAt: now + 7_400 }, 'npm run demo', now)).toBe(
    'The Barge host has stopped, or cannot be reached. Start it again with `npm run demo`: this window connects again by itself (next try in 8 s).',
  );
  expect(hostLinkNotice({ state: 'lost', nextTryAt: now }, 'npm run serve', now)).toContain(
    'Start it again with `npm run serve`: this window connects again by itself (next try now).',
  );
  // A host never heard from names no command it may not be.
  expect(hostLinkNotice({ state: 'lost', nextTryAt: now + 1_000 }, undefined, now)).toContain(
    'Start it again with the command that started it:',
  );
  expect(
    hostLinkNotice(
      { state: 'refused', message: 'The host refused the access token. Open the URL it printed when it started.' },
      'npm run serve',
      now,
    ),
  ).toBe('The host refused the access token. Open the URL it printed when it started.');
});
