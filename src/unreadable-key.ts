// What a listing says of a key the store sent with a broken URL encoding ("%zz"): no request can
// name it, so it is left out of the rows and said instead, as sent and escaped, on the command line
// (a warning per key) and in the window (one status line for the folder).

import { printableName } from './unsafe-text.ts';

export function unreadableKeyWarning(sent: string): string {
  return (
    `the store listed a key whose URL encoding is broken ("${printableName(sent)}", as it sent it): it is left ` +
    `out, as no request can name it. The store is faulty: tell its operator.`
  );
}

/** One line for every such key of a listing (the first named, the others counted). */
export function unreadableKeysNotice(sent: readonly string[]): string {
  const more = sent.length > 1 ? ` (and ${(sent.length - 1).toLocaleString('en-US')} more)` : '';
  return (
    `Not shown: a key the store listed with a broken URL encoding, "${printableName(sent[0] ?? '')}"${more}. ` +
    `The store is faulty: tell its operator.`
  );
}

/**
 * What can be read of a key sent with a broken URL encoding: its well-formed escapes decoded, the broken ones
 * left as sent ("caf%C3%A9%zz.log" is "café%zz.log"). Enough for a wildcard or --exclude to judge its name.
 */
export function readablePartOf(sent: string): string {
  return sent.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}
