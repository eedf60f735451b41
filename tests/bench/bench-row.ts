// What bench.ts hands each of its grid rows (latency-grid, throttled, auto-loopback, many-keys-down,
// huge-file), and what a row gives back: the table it prints and its figures for bench.json.

import type { Engine } from '../../main/engine/engine.ts';
import type { S3Connection } from '../../main/engine/s3/s3-connection.ts';
import type { RunningS3Server } from '../support/s3-server.ts';

export interface RowContext {
  readonly server: RunningS3Server;
  /** Barge's engine in-process: seeds and clears the store, untimed. */
  readonly engine: Engine;
  readonly connection: S3Connection;
  readonly bucket: string;
  readonly scratch: string;
  /** The project's root: Barge runs as app/dist/barge.mjs. */
  readonly root: string;
  /** Barge's data folder (its journal) for every run. */
  readonly dataDir: string;
  readonly rounds: number;
}

export interface RowResult {
  /** Markdown, printed after the run. */
  readonly table: string;
  /** The figures, kept in test-results/bench.json. */
  readonly figures: unknown;
}

/** Delete a prefix (or one key) the row wrote, so the disk does not fill over a long row. */
export async function clearKeys(ctx: RowContext, what: { prefix?: string; key?: string }): Promise<void> {
  const spec = what.prefix
    ? { bucket: ctx.bucket, prefixes: [what.prefix] }
    : { bucket: ctx.bucket, keys: [what.key!] };
  const end = await ctx.engine.delete(ctx.connection, spec).finished();
  if (end.state.status !== 'completed') throw new Error(`could not clear ${JSON.stringify(what)}`);
}

/** Upload a local file or folder with the engine, untimed (a download's source). */
export async function seedObject(ctx: RowContext, source: string, destination: string): Promise<void> {
  const end = await ctx.engine
    .upload(ctx.connection, { sources: [source], bucket: ctx.bucket, destination })
    .finished();
  if (end.state.status !== 'completed') throw new Error(`could not upload ${source}: ${JSON.stringify(end.state)}`);
}
