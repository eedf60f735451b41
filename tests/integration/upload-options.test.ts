// Upload options (--storage-class, content headers, metadata, tags, encryption, ACL) as the store keeps them:
// a single PUT and a multipart upload alike, through the command line, and through a store that predates
// flexible checksums (legacy-store-proxy.ts).

import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { GetObjectTaggingCommand, HeadObjectCommand } from '@aws-sdk/client-s3';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { setUpEngine, serverConfig } from '../support/fixtures.ts';
import type { TestContext } from '../support/fixtures.ts';
import { runCli } from '../support/run-cli.ts';
import { startLegacyStoreProxy } from '../support/legacy-store-proxy.ts';

const MIB = 1024 * 1024;

let t: TestContext;
beforeEach(async () => {
  t = await setUpEngine({ settings: { partSizeBytes: 5 * MIB } });
});
afterEach(() => t.close());

const OPTIONS = [
  '--storage-class',
  'reduced_redundancy',
  '--content-type',
  'application/x-barge',
  '--cache-control',
  'public, max-age=3600',
  '--content-encoding',
  'identity',
  '--content-disposition',
  'attachment; filename="report.bin"',
  '--metadata',
  'team=ops',
  '--metadata',
  'build=a=b',
  '--tags',
  'project=barge',
  '--tags',
  'stage=test run',
  '--acl',
  'private',
];

async function stored(key: string) {
  const head = await t.connection.client.send(new HeadObjectCommand({ Bucket: t.bucket, Key: key }));
  const tagging = await t.connection.client.send(new GetObjectTaggingCommand({ Bucket: t.bucket, Key: key }));
  return { head, tags: Object.fromEntries((tagging.TagSet ?? []).map((tag) => [tag.Key, tag.Value])) };
}

/** versitygw keeps no storage class (it answers STANDARD for every object); MinIO keeps REDUCED_REDUNDANCY. */
const KEPT_CLASS = inject('s3').kind === 'versitygw' ? 'STANDARD' : 'REDUCED_REDUNDANCY';

function expectOptionsKept(found: Awaited<ReturnType<typeof stored>>): void {
  expect(found.head).toMatchObject({
    StorageClass: KEPT_CLASS,
    ContentType: 'application/x-barge',
    CacheControl: 'public, max-age=3600',
    ContentEncoding: 'identity',
    ContentDisposition: 'attachment; filename="report.bin"',
  });
  expect(found.head.Metadata).toMatchObject({ team: 'ops', build: 'a=b' });
  expect(found.tags).toEqual({ project: 'barge', stage: 'test run' });
}

describe('cp with upload options', () => {
  it.each([
    ['a single PUT', 1000],
    ['a multipart upload', 11 * MIB],
  ])('stores each option with %s', async (_how, size) => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'barge-options-'));
    await writeFile(path.join(dir, 'file.txt'), randomBytes(size));
    const result = await runCli([
      'cp',
      '--part-size',
      '5MiB',
      ...OPTIONS,
      path.join(dir, 'file.txt'),
      `s3://${t.bucket}/f`,
    ]);
    expect(result.stderr).toContain('Uploaded 1 of 1 object');
    expect(result.code).toBe(0);
    expectOptionsKept(await stored('f'));
  });

  it('asks the store for server-side encryption: refused by MinIO without a KMS, ignored by versitygw', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'barge-sse-'));
    await writeFile(path.join(dir, 'secret.txt'), 'hush');
    const result = await runCli(['cp', '--sse', 'AES256', path.join(dir, 'secret.txt'), `s3://${t.bucket}/secret.txt`]);
    if (inject('s3').kind === 'versitygw') {
      // versitygw has no server-side encryption and takes the header without a word.
      expect(result.code).toBe(0);
    } else {
      // MinIO without a KMS refuses SSE-S3 by name: the header reached it.
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/KMS/);
    }
  });

  it('stores the options through a store that predates flexible checksums', async () => {
    const s3 = inject('s3');
    const proxy = await startLegacyStoreProxy(
      s3.endpoint,
      { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
      s3.region,
    );
    try {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'barge-options-legacy-'));
      await writeFile(path.join(dir, 'big.bin'), randomBytes(6 * MIB));
      const connection = await t.engine.connect({ ...serverConfig(), endpoint: proxy.endpoint });
      const end = await t.engine
        .upload(connection, {
          sources: [path.join(dir, 'big.bin')],
          bucket: t.bucket,
          destination: 'legacy.bin',
          uploadOptions: {
            storageClass: 'REDUCED_REDUNDANCY',
            contentType: 'application/x-barge',
            cacheControl: 'public, max-age=3600',
            contentEncoding: 'identity',
            contentDisposition: 'attachment; filename="report.bin"',
            metadata: { team: 'ops', build: 'a=b' },
            tags: { project: 'barge', stage: 'test run' },
          },
        })
        .finished();
      expect(end.state).toEqual({ status: 'completed' });
      expectOptionsKept(await stored('legacy.bin'));
    } finally {
      await proxy.close();
    }
  });

  it.each([
    // One flag on every cp (a filter on a download, the class to store in on an upload): one rule.
    [['--storage-class', 'FAST'], '--storage-class takes one or more of STANDARD, REDUCED_REDUNDANCY'],
    [['--metadata', 'novalue'], '--metadata takes name=value, not "novalue".'],
    [['--tags', '=x'], '--tags takes name=value, not "=x".'],
    [
      ['--cache-control', 'a\r\nx-evil: 1'],
      '--cache-control: The cache-control "a\\x0d\\x0ax-evil: 1" holds a control character',
    ],
    [['--sse', 'rot13'], '--sse: "rot13" is not a server-side encryption: AES256 or aws:kms.'],
    [['--sse-kms-key-id', 'k1'], 'A KMS key ID goes with aws:kms encryption'],
    [['--acl', 'everyone'], '--acl: "everyone" is not a canned ACL'],
  ])('refuses %j with its rule, before anything is sent', async (flags, message) => {
    const result = await runCli(['cp', ...flags, 'package.json', `s3://${t.bucket}/x`]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
  });

  it('refuses upload options on a download, where --storage-class is a filter of what is listed', async () => {
    const result = await runCli(['cp', '--cache-control', 'no-cache', `s3://${t.bucket}/x`, os.tmpdir()]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('are for uploads: a download keeps the object as it is');
    const filtered = await runCli(['cp', '--storage-class', 'STANDARD', `s3://${t.bucket}/x`, os.tmpdir()]);
    expect(filtered.code).toBe(2);
    expect(filtered.stderr).toContain('--storage-class filters what a listing finds');
  });
});

describe("an object's metadata and tags edited in place", () => {
  it('replaces both by a copy onto itself, keeping its bytes and content headers', async () => {
    const body = randomBytes(3000);
    const dir = await mkdtemp(path.join(os.tmpdir(), 'barge-labels-'));
    await writeFile(path.join(dir, 'doc.bin'), body);
    const up = await runCli([
      'cp',
      '--content-type',
      'application/x-doc',
      '--metadata',
      'owner=ana',
      '--tags',
      'keep=yes',
      path.join(dir, 'doc.bin'),
      `s3://${t.bucket}/doc.bin`,
    ]);
    expect(up.code).toBe(0);
    await t.engine.replaceObjectLabels(t.connection, t.bucket, 'doc.bin', {
      metadata: { owner: 'bo', team: 'ops' },
      tags: { stage: 'test' },
    });
    const found = await stored('doc.bin');
    expect(found.head.Metadata).toEqual({ owner: 'bo', team: 'ops' });
    expect(found.head.ContentType).toBe('application/x-doc');
    expect(found.head.ContentLength).toBe(3000);
    expect(found.tags).toEqual({ stage: 'test' });
  });
});
