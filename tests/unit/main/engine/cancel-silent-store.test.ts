// Cancel ends a job whose store has stopped answering, whichever request the job is waiting on. Reads
// of a bucket's versioning and of its unfinished uploads once ignored the job's cancel, and waited out
// their timeouts and retries (minutes, on a store that takes requests and answers none).

import { once } from 'node:events';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Engine } from '../../../../main/engine/engine.ts';
import type { Job } from '../../../../main/engine/jobs/job.ts';
import type { S3Connection } from '../../../../main/engine/s3/s3-connection.ts';

const XMLNS = 'xmlns="http://s3.amazonaws.com/doc/2006-03-01/"';

let engine: Engine;
let connection: S3Connection;
let server: Server;
/** The request the store keeps silent on; it answers the others as a bucket that is empty but for `listed`. */
let silentOn: (query: URLSearchParams) => boolean = () => true;
let silenced: (request: IncomingMessage) => void = () => {};
let listed: string | undefined;

function answer(response: ServerResponse, xml: string): void {
  response.writeHead(200, { 'content-type': 'application/xml' });
  response.end(`<?xml version="1.0" encoding="UTF-8"?>${xml}`);
}

function listing(): string {
  const entry = listed
    ? `<Contents><Key>${listed}</Key><Size>3</Size><LastModified>2020-01-01T00:00:00.000Z</LastModified>` +
      `<ETag>"x"</ETag></Contents>`
    : '';
  return `<ListBucketResult ${XMLNS}><Name>b</Name><IsTruncated>false</IsTruncated>${entry}</ListBucketResult>`;
}

beforeAll(async () => {
  server = createServer((request, response) => {
    const query = new URL(request.url ?? '/', 'http://store').searchParams;
    request.resume();
    if (silentOn(query)) return silenced(request);
    if (query.get('list-type') === '2') return answer(response, listing());
    if (query.has('versioning')) return answer(response, `<VersioningConfiguration ${XMLNS}/>`);
    response.writeHead(501).end();
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

/** The job's end, cancelled once the store has received the request it keeps silent on. */
async function cancelledWhileSilent(on: (query: URLSearchParams) => boolean, start: () => Job): Promise<string> {
  silentOn = on;
  const silent = new Promise<IncomingMessage>((resolve) => (silenced = resolve));
  const job = start();
  const request = await silent;
  job.cancel();
  const end = await job.finished();
  // The request itself was given up, not left open on the store (else this waits out the test).
  if (!request.socket.destroyed) await once(request.socket, 'close');
  return end.state.status;
}

const versioning = (query: URLSearchParams) => query.has('versioning');

it('a delete of named keys is cancelled while it reads the versioning', async () => {
  const status = await cancelledWhileSilent(versioning, () =>
    engine.delete(connection, { bucket: 'b', keys: ['a.txt'] }),
  );
  expect(status).toBe('cancelled');
});

it('a restore to a moment is cancelled while it checks that the bucket keeps versions', async () => {
  const status = await cancelledWhileSilent(versioning, () =>
    engine.restoreTo(connection, { bucket: 'b', prefix: 'p/', to: Date.now() }),
  );
  expect(status).toBe('cancelled');
});

it('a delete that aborts unfinished uploads is cancelled while it lists them', async () => {
  const status = await cancelledWhileSilent(
    (query) => query.has('uploads'),
    () => engine.delete(connection, { bucket: 'b', prefixes: ['p/'], abortUploads: true }),
  );
  expect(status).toBe('cancelled');
});

it('an upload that asks before replacing is cancelled while it reads the versioning for the question', async () => {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'barge-silent-'));
  await writeFile(path.join(folder, 'there.txt'), 'abc');
  listed = 'there.txt';
  try {
    const status = await cancelledWhileSilent(versioning, () =>
      engine.upload(connection, {
        sources: [path.join(folder, 'there.txt')],
        bucket: 'b',
        destination: '',
        ifExists: 'ask',
      }),
    );
    expect(status).toBe('cancelled');
  } finally {
    listed = undefined;
  }
});
