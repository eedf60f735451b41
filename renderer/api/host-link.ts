// How a browser window keeps its link to the web host: when to try again after losing it, and when
// a silent socket counts as lost.
//
// A host that stops closes its sockets, and the window hears it at once; a tunnel that drops (the
// SSH tunnel the README suggests) may say nothing for minutes, so silence counts too: the host sends
// its stats every second. Tries to connect again start a second apart and double up to half a
// minute, each a little later at random, so windows left open all night do not knock on a host
// that is down, nor all at once on one that comes back.

/** The first try after the host was lost. */
export const FIRST_RETRY_MS = 1_000;
/** Tries never come further apart than this (before the random part). */
export const MAX_RETRY_MS = 30_000;
/** Up to this share of a wait is added at random. */
const JITTER = 0.2;
/** The host speaks every second (its stats): this long without a word, the link is lost. */
export const SILENCE_LIMIT_MS = 15_000;
/** How often silence is looked for. */
export const SILENCE_CHECK_MS = 5_000;

/** The wait before try number `attempt` (0 is the first after the loss). */
export function reconnectDelayMs(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, attempt));
  return Math.round(base * (1 + JITTER * random()));
}
