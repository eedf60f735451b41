// What the demo store holds, put there once: a bucket to browse (folders several levels deep, a
// prefix of 10,000 small keys, a few files of tens of MB, generated here) and a versioned bucket
// with history (several versions of a key, a delete marker).
//
// The 10,000 keys go as concurrent PUTs over one keep-alive pool: about ten seconds on two cores
// beside MinIO, where one at a time would take minutes.

import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  CreateBucketCommand,
  DeleteObjectCommand,
  PutBucketVersioningCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { Agent } from 'node:http';

export const DEMO_BUCKET = 'demo';
export const DEMO_VERSIONS_BUCKET = 'demo-versions';
export const SMALL_KEYS_PREFIX = 'many-small-files/';
export const DEFAULT_SMALL_KEYS = 10_000;
/** Requests in flight while seeding. */
const SEED_CONCURRENCY = 64;
const MIB = 1024 * 1024;

export interface SeedStore {
  readonly endpoint: string;
  readonly region: string;
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
}

export interface SeedOptions {
  /** Keys under many-small-files/ (default 10,000; tests seed fewer). */
  readonly smallKeys?: number;
  /** The sizes of the large files, in bytes (default 16, 32 and 48 MiB). */
  readonly largeSizes?: readonly number[];
  readonly say?: (line: string) => void;
}

/** Folders several levels deep, with a few files each: something to browse, open and download. */
const TREE: Readonly<Record<string, string>> = {
  'README.txt':
    'Welcome to the Barge demo store.\n\nBrowse the folders, drop files to upload them, download and delete; ' +
    'many-small-files/ holds 10,000 keys, large/ a few files of tens of MB, and the bucket demo-versions has ' +
    'objects with several versions and a delete marker.\n',
  'projects/barge/README.md': '# Barge\n\nA transfer manager for S3.\n',
  'projects/barge/src/engine/jobs/upload-job.ts': 'export const upload = true;\n',
  'projects/barge/src/engine/jobs/download-job.ts': 'export const download = true;\n',
  'projects/barge/src/renderer/components/TransfersPanel.tsx': 'export function TransfersPanel() { return null; }\n',
  'projects/barge/docs/architecture/overview.md': '# Overview\n\nOne engine, one door, three hosts.\n',
  'photos/2024/summer/beach/IMG_0001.txt': 'a photo would be here\n',
  'photos/2024/summer/beach/IMG_0002.txt': 'a photo would be here\n',
  'photos/2024/winter/mountains/IMG_0100.txt': 'a photo would be here\n',
  'photos/2025/spring/garden/IMG_0200.txt': 'a photo would be here\n',
  'documents/reports/2025/q1/summary.csv': 'region,revenue\nnorth,120\nsouth,95\n',
  'documents/reports/2025/q2/summary.csv': 'region,revenue\nnorth,130\nsouth,101\n',
  'documents/letters/welcome.txt': 'Dear user,\n\nwelcome aboard.\n',
};

/** History in the versioned bucket: each key's versions in order; null is a delete marker. */
const HISTORY: Readonly<Record<string, readonly (string | null)[]>> = {
  'notes.txt': ['first draft\n', 'second draft\n', 'final\n'],
  'config/settings.json': ['{"threads":8}\n', '{"threads":16}\n', '{"threads":32}\n', '{"threads":64}\n'],
  'deleted-report.txt': ['version one\n', 'version two\n', null],
};

const SEEDED_FILE = 'seeded.json';

export function isSeeded(folder: string): boolean {
  return existsSync(path.join(folder, SEEDED_FILE));
}

/** Run `count` tasks, `limit` at a time. */
async function inParallel(count: number, limit: number, task: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) await task(next++);
  };
  await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
}

/** Put the demo's buckets and objects in the store, then mark `folder` seeded. */
export async function seedDemo(folder: string, store: SeedStore, options: SeedOptions = {}): Promise<void> {
  const say = options.say ?? (() => undefined);
  const smallKeys = options.smallKeys ?? DEFAULT_SMALL_KEYS;
  const largeSizes = options.largeSizes ?? [16 * MIB, 32 * MIB, 48 * MIB];
  const agent = new Agent({ keepAlive: true, maxSockets: SEED_CONCURRENCY });
  const client = new S3Client({
    endpoint: store.endpoint,
    region: store.region,
    forcePathStyle: true,
    credentials: { accessKeyId: store.accessKeyId, secretAccessKey: store.secretAccessKey },
    requestHandler: new NodeHttpHandler({ httpAgent: agent }),
  });
  try {
    const started = Date.now();
    await client.send(new CreateBucketCommand({ Bucket: DEMO_BUCKET }));
    await client.send(new CreateBucketCommand({ Bucket: DEMO_VERSIONS_BUCKET }));
    await client.send(
      new PutBucketVersioningCommand({ Bucket: DEMO_VERSIONS_BUCKET, VersioningConfiguration: { Status: 'Enabled' } }),
    );
    for (const [key, body] of Object.entries(HISTORY)) {
      for (const version of body) {
        if (version === null) await client.send(new DeleteObjectCommand({ Bucket: DEMO_VERSIONS_BUCKET, Key: key }));
        else await client.send(new PutObjectCommand({ Bucket: DEMO_VERSIONS_BUCKET, Key: key, Body: version }));
      }
    }
    const tree = Object.entries(TREE);
    await inParallel(tree.length, SEED_CONCURRENCY, (i) =>
      client
        .send(new PutObjectCommand({ Bucket: DEMO_BUCKET, Key: tree[i]![0], Body: tree[i]![1] }))
        .then(() => undefined),
    );
    say(`Seeding ${smallKeys.toLocaleString('en-US')} small keys into s3://${DEMO_BUCKET}/${SMALL_KEYS_PREFIX}…`);
    let done = 0;
    await inParallel(smallKeys, SEED_CONCURRENCY, async (i) => {
      const name = `file-${String(i).padStart(5, '0')}.json`;
      await client.send(
        new PutObjectCommand({
          Bucket: DEMO_BUCKET,
          Key: `${SMALL_KEYS_PREFIX}${name}`,
          Body: `{"n":${i}}\n`,
          ContentType: 'application/json',
        }),
      );
      done += 1;
      if (done % 2500 === 0 && done < smallKeys)
        say(`  ${done.toLocaleString('en-US')} of ${smallKeys.toLocaleString('en-US')}`);
    });
    say(`Generating ${largeSizes.length} large files into s3://${DEMO_BUCKET}/large/…`);
    for (const size of largeSizes) {
      await client.send(
        new PutObjectCommand({
          Bucket: DEMO_BUCKET,
          Key: `large/random-${Math.round(size / MIB)}MiB.bin`,
          Body: randomBytes(size),
          ContentType: 'application/octet-stream',
        }),
      );
    }
    await writeFile(
      path.join(folder, SEEDED_FILE),
      `${JSON.stringify({ seededAt: new Date().toISOString(), smallKeys })}\n`,
    );
    say(`Seeded in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  } finally {
    client.destroy();
    agent.destroy();
  }
}
