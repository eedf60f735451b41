// What the window says while its host is gone: that it is, the command that starts it again (the
// host said which when it was there: `npm run demo` and `npm run serve` are not the same), and
// that the window connects again by itself, and when it next tries.

import type { HostLink } from '../src/contract/api.ts';

/** The notice for a link that is not connected, or undefined when it is. */
export function hostLinkNotice(link: HostLink, startedBy: string | undefined, nowMs: number): string | undefined {
  if (link.state === 'connected') return undefined;
  // The host answers, to another token (started again without BARGE_TOKEN): only its new URL helps.
  if (link.state === 'refused') return link.message;
  const seconds = Math.max(0, Math.ceil((link.nextTryAt - nowMs) / 1000));
  const start = startedBy ? `Start it again with \`${startedBy}\`` : 'Start it again with the command that started it';
  const nextTry = seconds === 0 ? 'now' : `in ${seconds} s`;
  return (
    `The Barge host has stopped, or cannot be reached. ${start}: this window connects again by itself ` +
    `(next try ${nextTry}).`
  );
}
