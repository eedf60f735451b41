// Ctrl-C (or a hangup, or SIGTERM) as a stop the command sees, for commands that are no job.
//
// A job's command cancels its job (run-job.ts); du, cat and pipe stop what they do themselves and
// clean up (an unfinished multipart upload aborted), so the signal must not end the process first.

const STOPPING_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/**
 * Run `work` with `stopped()` (and `signal`) telling it a stop was asked; resolves true if one was.
 * A second signal while it stops ends the process at once, as the user asked twice.
 */
export async function untilInterrupted(
  work: (stopped: () => boolean, signal: AbortSignal) => Promise<void>,
): Promise<boolean> {
  const controller = new AbortController();
  const onSignal = (received: NodeJS.Signals) => {
    if (controller.signal.aborted) {
      for (const each of STOPPING_SIGNALS) process.off(each, onSignal);
      process.kill(process.pid, received);
      return;
    }
    controller.abort(new Error(`${received} received`));
  };
  for (const each of STOPPING_SIGNALS) process.on(each, onSignal);
  try {
    await work(() => controller.signal.aborted, controller.signal);
  } catch (error) {
    if (!controller.signal.aborted) throw error;
  } finally {
    for (const each of STOPPING_SIGNALS) process.off(each, onSignal);
  }
  return controller.signal.aborted;
}
