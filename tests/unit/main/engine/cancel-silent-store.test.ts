// Cancel ends a job whose store has stopped answering, even while the job is still reading the
// bucket's versioning: that read once ignored the job's cancel and waited out its timeouts and retries.

import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Engine } from '../../../../main/engine/engine.ts';
import type { Job } from '../../../../main/engine/jobs/job.ts';
import type { S3Connection } from '../../../../main/engine/s3/s3-connection.ts';

let engine: Engine;
let connection: S3Connection;
let server: Server;
/** Resolved by the first request whose query names `versioning`. */
let versioningAsked: (request: IncomingMessage) => void = () => {};

beforeAll(async () => {
  // Takes every request and answers none.
  server = createServer((request) => {
    if (new URL(request.url ?? '/', 'http://store').searchParams.has('versioning')) versioningAsked(request);
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  engine = new Engine();
  connection = await engine.connect({
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    region: 'us-east-1',
    accessKeyId: 'a',
    secretAccessKey: 'b',
  });
});

afterAll(() => {
  engine.close();
  server.closeAllConnections();
  server.close();
});

async function cancelledWhileAsking(start: () => Job): Promise<string> {
  const asked = new Promise<IncomingMessage>((resolve) => (versioningAsked = resolve));
  const job = start();
  const request = await asked;
  job.cancel();
  const end = await job.finished();
  // The request itself was given up, not left open on the store (else this waits out the test).
  if (!request.socket.destroyed) await once(request.socket, 'close');
  return end.state.status;
}

it('a delete of named keys is cancelled while it reads the versioning', async () => {
  const status = await cancelledWhileAsking(() => engine.delete(connection, { bucket: 'b', keys: ['a.txt'] }));
  expect(status).toBe('cancelled');
});

it('a restore to a moment is cancelled while it checks that the bucket keeps versions', async () => {
  const status = await cancelledWhileAsking(() =>
    engine.restoreTo(connection, { bucket: 'b', prefix: 'p/', to: Date.now() }),
  );
  expect(status).toBe('cancelled');
});
