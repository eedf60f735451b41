// The one error type every side shares: a stable code for programs (the window, --json, exit
// statuses) and a sentence for people. Pure, so hosts and the window name failures without the
// engine; the engine's errors.ts turns whatever a request or a file throws into one.

export class BargeError extends Error {
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'BargeError';
    this.code = code;
  }
}
