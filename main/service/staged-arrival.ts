// The files of a browser's upload still on their way to the host, counted as they land: the first
// phase of its job (the engine's Arrival), which appears at once and uploads once they are all here.
//
// A file refused (a path the disk cannot hold, a full disk) or broken off (the page closed, the
// connection lost) fails the job in words, and the files that came are removed: nothing is uploaded
// from half a drop. A browser that goes away between two files sends nothing more: after
// RECEIVE_PATIENCE_MS without a file on its way, the job fails the same way. Cancel stops the
// files arriving (the host cuts their requests) and removes those that came.

import { BargeError } from '../engine/errors.ts';
import type { Arrival } from '../engine/engine.ts';

/** How long an upload waits, with no file of it on its way, for the next one (the web host's idle limit too). */
export const RECEIVE_PATIENCE_MS = 60_000;

/** What the browser said it would send. */
export interface Coming {
  readonly files: number;
  readonly bytes: number;
}

type Waiter = { received: (files: number, bytes: number) => void; resolve: () => void; reject: (error: Error) => void };

export class StagedArrival implements Arrival {
  readonly filesTotal: number;
  readonly bytesTotal: number;
  private files = 0;
  private bytes = 0;
  private inFlight = 0;
  /** 'arriving', 'here' (every file), or why they will not all come. */
  private outcome: 'arriving' | 'here' | BargeError = 'arriving';
  private waiter: Waiter | undefined;
  private patience: NodeJS.Timeout | undefined;
  private readonly stopper = new AbortController();
  private readonly patienceMs: number;
  /** The files that came are no longer wanted: remove them. */
  private readonly removeFiles: () => void;

  constructor(coming: Coming, options: { readonly patienceMs?: number; readonly removeFiles: () => void }) {
    this.filesTotal = coming.files;
    this.bytesTotal = coming.bytes;
    this.patienceMs = options.patienceMs ?? RECEIVE_PATIENCE_MS;
    this.removeFiles = options.removeFiles;
    this.waitForNextFile();
  }

  /** Still taking files. */
  get open(): boolean {
    return this.outcome === 'arriving';
  }

  /** Aborted once no file of it is wanted any more (cancelled, failed): requests still sending one are cut. */
  get stopped(): AbortSignal {
    return this.stopper.signal;
  }

  /** A file of it begins to arrive. */
  fileStarted(): void {
    this.inFlight += 1;
    clearTimeout(this.patience);
  }

  /** Bytes of a file written. */
  received(bytes: number): void {
    if (!this.open) return;
    this.bytes += bytes;
    this.waiter?.received(this.files, this.bytes);
  }

  /** A file ended: whole, or refused or broken off (`failure`, in words), which fails the upload. */
  fileEnded(failure?: BargeError): void {
    this.inFlight -= 1;
    if (!this.open) return;
    if (failure) return this.fail(failure);
    this.files += 1;
    this.waiter?.received(this.files, this.bytes);
    // Every file announced is here, and none is still being written (a page that sends more than
    // it announced): a file still on its way would otherwise be uploaded half-sent.
    if (this.files >= this.filesTotal && this.inFlight === 0) {
      this.outcome = 'here';
      this.waiter?.resolve();
      this.waiter = undefined;
    } else if (this.inFlight === 0) {
      this.waitForNextFile();
    }
  }

  /** The upload will not get its files (`error` says why): those that came are removed. */
  fail(error: BargeError): void {
    if (!this.open) return;
    this.outcome = error;
    clearTimeout(this.patience);
    this.stopper.abort();
    this.removeFiles();
    this.waiter?.reject(error);
    this.waiter = undefined;
  }

  wait(received: (files: number, bytes: number) => void, signal: AbortSignal): Promise<void> {
    received(this.files, this.bytes);
    if (this.outcome === 'here') return Promise.resolve();
    if (this.outcome !== 'arriving') return Promise.reject(this.outcome);
    return new Promise<void>((resolve, reject) => {
      const cancelled = () => {
        const waiter = this.waiter;
        this.waiter = undefined;
        // A later run (a retry) is told where the files went.
        this.fail(
          new BargeError(
            'NoSuchStaging',
            'The files of this upload were removed from the host when it was cancelled: drop them again to ' +
              'upload them.',
          ),
        );
        waiter?.reject(Object.assign(new Error('cancelled'), { name: 'AbortError' }));
      };
      if (signal.aborted) return cancelled();
      signal.addEventListener('abort', cancelled, { once: true });
      const settled = () => signal.removeEventListener('abort', cancelled);
      this.waiter = {
        received,
        resolve: () => {
          settled();
          resolve();
        },
        reject: (error) => {
          settled();
          reject(error);
        },
      };
    });
  }

  /** No file is on its way: one must start within the patience, or the browser is taken to be gone. */
  private waitForNextFile(): void {
    clearTimeout(this.patience);
    this.patience = setTimeout(() => {
      const left = this.filesTotal - this.files;
      this.fail(
        new BargeError(
          'BrowserGone',
          `The browser sent nothing for ${Math.round(this.patienceMs / 1000)} s with ` +
            `${left.toLocaleString('en-US')} of ${this.filesTotal.toLocaleString('en-US')} ` +
            `${this.filesTotal === 1 ? 'file' : 'files'} still to come (its page was closed, or lost its ` +
            `connection): nothing was uploaded. Drop the files again.`,
        ),
      );
    }, this.patienceMs);
    this.patience.unref();
  }
}
