// A body the wire sends (s3/s3-wire.ts) made by the rooms below it: a file's range
// (file-range-body.ts), or a checksum trailer's framing around one (integrity/trailing-checksum.ts).

/**
 * A streamed request body that writes itself: each chunk's memory is used again once `write`
 * resolves (the socket took it), so a body of any size costs the few buffers its source keeps.
 */
export interface StreamedBody {
  /** Hands every byte to `write`, in order; once. */
  pipeTo(write: (chunk: Buffer) => Promise<void>): Promise<void>;
  /** Lets go of what it holds (an open file) if it never ran or did not end; safe to call again. */
  release(): Promise<void>;
}
