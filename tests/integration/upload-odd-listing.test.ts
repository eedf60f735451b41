// An upload that asks before it replaces reads what is there from a listing of the destination. A
// store whose listing gives a date no one can read (a faulty gateway's "LastModified") has told
// nothing of when the object was written: "Replace if newer" keeps it saying that the date is
// unknown, and the question shows no date, never "Invalid Date" nor "as new or newer". A Size that
// is no size is no size either: the question shows none, never "0 B".

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { serverConfig, setUpEngine } from '../support/fixtures.ts';
import type { TestContext } from '../support/fixtures.ts';

let t: TestContext;
let proxy: http.Server;
/** What the proxy does to a listing's XML. */
let rewrite: (xml: string) => string;

beforeEach(async () => {
  t = await setUpEngine();
  // In front of the test store: every listing is rewritten as the test says (a date or a size that
  // is none). Requests pass unchanged (Host included, so their signatures hold).
  rewrite = (xml) => xml.replace(/<LastModified>[^<]*<\/LastModified>/g, '<LastModified>yesterday-ish</LastModified>');
  const store = new URL(serverConfig().endpoint!);
  proxy = http.createServer((request, response) => {
    const onward = http.request(
      { host: store.hostname, port: store.port, method: request.method, path: request.url, headers: request.headers },
      (answer) => {
        const listing = request.method === 'GET' && (request.url ?? '').includes('list-type=2');
        if (!listing) {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
          return;
        }
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const body = Buffer.from(rewrite(Buffer.concat(chunks).toString('utf8')));
          response.writeHead(answer.statusCode ?? 502, { ...answer.headers, 'content-length': String(body.length) });
          response.end(body);
        });
      },
    );
    request.pipe(onward);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
});

afterEach(async () => {
  await new Promise((resolve) => proxy.close(resolve));
  await t.close();
});

it('a listing whose LastModified is no date: "Replace if newer" keeps the object saying its date is unknown, and the question shows no date', async () => {
  await t.connection.client.send(
    new PutObjectCommand({ Bucket: t.bucket, Key: 'docs/README.txt', Body: 'x'.repeat(257) }),
  );
  await t.connection.client.send(new PutObjectCommand({ Bucket: t.bucket, Key: 'docs/other.txt', Body: 'x' }));
  const folder = path.join(t.dir, 'drop');
  await mkdir(folder, { recursive: true });
  const readme = path.join(folder, 'README.txt');
  const other = path.join(folder, 'other.txt');
  await writeFile(readme, 'mine');
  await writeFile(other, 'mine');
  const { port } = proxy.address() as AddressInfo;
  const odd = await t.engine.connect({ ...serverConfig(), endpoint: `http://127.0.0.1:${port}` });

  const newer = await t.engine
    .upload(odd, { sources: [readme], bucket: t.bucket, destination: 'docs/', ifExists: 'newer' })
    .finished();
  expect(newer.state.status).toBe('completed');
  expect(newer.itemWarnings).toEqual([
    expect.objectContaining({ message: expect.stringContaining('which is newer cannot be told (a date is unknown)') }),
  ]);

  const asking = t.engine.upload(odd, { sources: [other], bucket: t.bucket, destination: 'docs/', ifExists: 'ask' });
  await expect.poll(() => asking.summary().conflicts?.length ?? 0).toBe(1);
  const question = asking.summary().conflicts![0]!;
  expect(question.existing).toEqual({ size: 1 });
  asking.resolveConflict(question.id, 'skip', false);
  await asking.finished();
});

it('a listing whose Size is no size: the question shows no size for the object there, never 0 B', async () => {
  rewrite = (xml) => xml.replace(/<Size>[^<]*<\/Size>/g, '<Size>lots</Size>');
  await t.connection.client.send(
    new PutObjectCommand({ Bucket: t.bucket, Key: 'docs/sized.txt', Body: 'x'.repeat(257) }),
  );
  const folder = path.join(t.dir, 'drop');
  await mkdir(folder, { recursive: true });
  const sized = path.join(folder, 'sized.txt');
  await writeFile(sized, 'mine');
  const { port } = proxy.address() as AddressInfo;
  const odd = await t.engine.connect({ ...serverConfig(), endpoint: `http://127.0.0.1:${port}` });
  const asking = t.engine.upload(odd, { sources: [sized], bucket: t.bucket, destination: 'docs/', ifExists: 'ask' });
  await expect.poll(() => asking.summary().conflicts?.length ?? 0).toBe(1);
  const question = asking.summary().conflicts![0]!;
  expect(question.existing?.size).toBeUndefined();
  asking.resolveConflict(question.id, 'skip', false);
  await asking.finished();
});
