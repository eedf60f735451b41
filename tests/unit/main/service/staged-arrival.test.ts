// The files of a browser's upload counted as they land: the upload begins only once every file that
// is on its way has ended, whatever count the page announced, so no file is uploaded half-sent.

import { expect, it } from 'vitest';
import { StagedArrival } from '../../../../main/service/staged-arrival.ts';

/** Whether `promise` has settled once every callback already queued has run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(
    () => {
      done = true;
    },
    () => {
      done = true;
    },
  );
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

it('a file still on its way when the announced count is reached is waited for, never uploaded half-sent', async () => {
  const arrival = new StagedArrival({ files: 1, bytes: 10 }, { patienceMs: 60_000, removeFiles: () => undefined });
  const here = arrival.wait(() => undefined, new AbortController().signal);
  // The page said one file, and sends two at once: the second is still being written.
  arrival.fileStarted();
  arrival.fileStarted();
  arrival.received(10);
  arrival.fileEnded();
  expect(await settled(here)).toBe(false);
  arrival.received(4);
  arrival.fileEnded();
  expect(await settled(here)).toBe(true);
  await here;
});
