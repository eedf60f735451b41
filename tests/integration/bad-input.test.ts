// Bad input, table-driven: for each case the error a person sees (its code and the whole sentence:
// what is wrong, and what to do) and proof that nothing partial is left behind: no new object,
// version, delete marker or incomplete multipart upload on the server, and no file (finished or
// *.partial) in the target folder or anywhere else under the test's folder.

import { appendFile, chmod, mkdir, rm, stat, truncate, unlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, inject, it, vi } from 'vitest';
import { CreateBucketCommand, PutObjectCommand, PutObjectLegalHoldCommand } from '@aws-sdk/client-s3';
import type { ConnectionConfig } from '../../src/connection.ts';
import type { JobSnapshot } from '../../src/jobs.ts';
import { MIB } from '../../src/byte-units.ts';
import { toBargeError } from '../../main/engine/errors.ts';
import type { DownloadSpec } from '../../main/engine/jobs/job-specs.ts';
import { folderIgnoresCase, makeFolder } from '../../main/engine/disk/local-files.ts';
import { createBucket } from '../../main/engine/s3/s3-buckets.ts';
import type { S3Connection } from '../../main/engine/s3/s3-connection.ts';
import { listAllObjects, listBuckets } from '../../main/engine/s3/s3-listing.ts';
import { startFaultProxy } from '../support/fault-proxy.ts';
import { randomFile, serverConfig, setUpEngine, sha256File, uniqueBucket } from '../support/fixtures.ts';
import type { TestContext } from '../support/fixtures.ts';
import {
  assumeRole,
  bucketContents,
  filesUnder,
  isRoot,
  mountTmpfs,
  rewritingProxy,
  selfSignedTlsServer,
} from '../support/bad-input-kit.ts';
import { freePort, startS3Server } from '../support/s3-server.ts';
import { runCli } from '../support/run-cli.ts';

let t: TestContext;
let cleanups: (() => Promise<unknown> | void)[] = [];
beforeEach(async () => {
  t = await setUpEngine({ settings: { threads: 4 } });
  cleanups = [];
});
afterEach(async () => {
  vi.restoreAllMocks();
  for (const cleanup of cleanups.reverse()) await cleanup();
  await t.close();
});

/** What a person is told: the code and the sentence. */
interface Told {
  readonly code: string;
  readonly message: string;
}

/** The error a failed job shows: its first item's, or the job's own when no item failed. */
function told(end: JobSnapshot): Told {
  expect(end.state.status).toBe('failed');
  const error = end.itemErrors[0] ?? (end.state.status === 'failed' ? end.state.error : undefined);
  return { code: error?.code ?? 'none', message: error?.message ?? 'none' };
}

async function refusal(action: Promise<unknown>): Promise<Told> {
  try {
    await action;
  } catch (error) {
    const e = toBargeError(error);
    return { code: e.code, message: e.message };
  }
  throw new Error('expected a refusal, and it succeeded');
}

interface Case {
  /** Where downloads go: a folder that does not exist yet, unless the case makes it. */
  out: string;
  /** Local files the case uploads. */
  readonly src: string;
  /** Anything else the case needs on disk (certificates, the command line's data folder). */
  readonly fixtures: string;
  /** The bucket inventoried before and after (the test's own, unless the case points elsewhere). */
  watch: { connection: S3Connection; bucket: string };
  /** A connection `arrange` made for `act`, when the case needs one of its own. */
  connection?: S3Connection;
  defer(cleanup: () => Promise<unknown> | void): void;
  /** A connection to the test server with some settings changed. */
  connect(changes: Partial<ConnectionConfig>): Promise<S3Connection>;
  upload(connection: S3Connection, sources: readonly string[], destination: string): Promise<JobSnapshot>;
  download(connection: S3Connection, spec: Omit<DownloadSpec, 'bucket' | 'targetFolder'>): Promise<JobSnapshot>;
  /** An object put in place as a fixture, by the test server's root user. */
  put(key: string, body: string | Buffer): Promise<void>;
}

interface BadInput {
  readonly name: string;
  /** Set when the case cannot run here (it needs root, for mounts). */
  readonly skip?: boolean;
  /**
   * The case needs MinIO (BARGE_TEST_SERVER picks another store): its STS AssumeRole for restricted
   * credentials, or its acceptance of keys other stores refuse to hold.
   */
  readonly minioOnly?: string;
  /** Fixtures: objects, files, servers. What exists after this is what must still exist, unchanged, after `act`. */
  readonly arrange?: (c: Case) => Promise<void>;
  readonly act: (c: Case) => Promise<Told>;
  readonly expected: (c: Case) => Told;
  /** More proof of what did not happen. */
  readonly verify?: (c: Case) => Promise<void>;
}

function newCase(): Case {
  const c: Case = {
    out: path.join(t.dir, 'out'),
    src: path.join(t.dir, 'src'),
    fixtures: path.join(t.dir, 'fixtures'),
    watch: { connection: t.connection, bucket: t.bucket },
    defer: (cleanup) => cleanups.push(cleanup),
    connect: async (changes) => t.engine.connect({ ...serverConfig(), ...changes }),
    upload: (connection, sources, destination) =>
      t.engine.upload(connection, { sources, bucket: t.bucket, destination }).finished(),
    download: (connection, spec) =>
      t.engine.download(connection, { ...spec, bucket: t.bucket, targetFolder: c.out }).finished(),
    put: async (key, body) => {
      await t.connection.client.send(new PutObjectCommand({ Bucket: t.bucket, Key: key, Body: body }));
    },
  };
  return c;
}

/** A file of `size` bytes in the case's source folder. */
async function source(c: Case, name: string, size = 10): Promise<string> {
  return (await randomFile(c.src, name, size)).path;
}

const HOUR_MS = 3_600_000;
const READ_ONLY_POLICY = {
  Version: '2012-10-17',
  Statement: [
    {
      Effect: 'Allow',
      Action: ['s3:ListBucket', 's3:ListBucketMultipartUploads', 's3:ListAllMyBuckets', 's3:GetObject'],
      Resource: ['arn:aws:s3:::*'],
    },
  ],
};
const LIST_ONLY_POLICY = {
  Version: '2012-10-17',
  Statement: [{ Effect: 'Allow', Action: ['s3:ListBucket', 's3:ListAllMyBuckets'], Resource: ['arn:aws:s3:::*'] }],
};

/** Wait until the job has sent some bytes (so a change to its file lands mid-upload). */
function firstBytes(jobId: string): Promise<void> {
  return new Promise((resolve) => {
    const stop = t.engine.onProgress((batch) => {
      if (batch.some((s) => s.id === jobId && s.progress.bytesDone > 0)) {
        stop();
        resolve();
      }
    });
  });
}

/**
 * Upload a 15 MiB file in three 5 MiB parts, one request at a time, each held 150 ms by a proxy,
 * and do `change` to the file once its first bytes are on their way.
 */
async function changeMidUpload(c: Case, change: (file: string) => Promise<void>): Promise<Told> {
  const file = await source(c, 'big.bin', 15 * MIB);
  t.engine.updateSettings({ threads: 1, partSizeBytes: 5 * MIB });
  const proxy = await startFaultProxy(serverConfig().endpoint!);
  c.defer(() => proxy.close());
  proxy.setRule(() => ({ kind: 'delay', ms: 150 }));
  const slow = await c.connect({ endpoint: proxy.endpoint });
  const job = t.engine.upload(slow, { sources: [file], bucket: t.bucket, destination: 'big.bin' });
  await firstBytes(job.id);
  await change(file);
  return told(await job.finished());
}

const cases: BadInput[] = [
  // Bucket names: refused before anything is sent, saying which rule each breaks.
  ...(
    [
      ['UPPER', 'may contain only lowercase letters, digits, dots (.) and hyphens (-)'],
      ['ab', 'must be 3 to 63 characters long (it has 2)'],
      ['b'.repeat(64), 'must be 3 to 63 characters long (it has 64)'],
      ['192.168.1.1', 'must not look like an IP address'],
      ['my..bucket', 'must not contain two dots in a row'],
      ['-dashed-', 'must start and end with a letter or digit'],
      ['under_score', 'may contain only lowercase letters, digits, dots (.) and hyphens (-)'],
    ] as const
  ).map(([name, rule]): BadInput => ({
    name: `an invalid bucket name: ${name.length > 20 ? `${name.slice(0, 8)}… (${name.length} characters)` : name}`,
    act: () => refusal(createBucket(t.connection, name)),
    expected: () => ({ code: 'InvalidBucketName', message: `"${name}" is not a valid bucket name: it ${rule}.` }),
    verify: async () => expect((await listBuckets(t.connection)).map((b) => b.name)).not.toContain(name),
  })),
  {
    name: 'an upload to a bucket that does not exist',
    act: async (c) =>
      told(
        await t.engine
          .upload(t.connection, {
            sources: [await source(c, 'a.txt')],
            bucket: 'no-such-bucket-barge',
            destination: 'a.txt',
          })
          .finished(),
      ),
    expected: (c) => ({
      code: 'NoSuchBucket',
      message: `Cannot upload ${path.join(c.src, 'a.txt')} to s3://no-such-bucket-barge/a.txt: The bucket does not exist (check its name and the endpoint).`,
    }),
  },

  // Keys.
  {
    name: 'a key over 1,024 bytes',
    act: async (c) => told(await c.upload(t.connection, [await source(c, 'short.txt')], `${'k'.repeat(1030)}.txt`)),
    expected: () => ({
      code: 'InvalidKey',
      message: `The key "${'k'.repeat(80)}…" is 1034 bytes long in UTF-8; S3 allows at most 1024: shorten the name or the destination prefix.`,
    }),
  },
  {
    name: 'an upload whose key would hold a control character',
    act: async (c) => told(await c.upload(t.connection, [await source(c, 'bell\x07.txt')], '')),
    expected: () => ({
      code: 'InvalidKey',
      message:
        'The key "bell\\x07.txt…" contains a control character (\\x07), which many S3 tools cannot list or show: rename the file.',
    }),
  },
  {
    name: 'a download of a key that holds a terminal escape',
    minioOnly: 'needs a store that holds a key with an escape character',
    arrange: (c) => c.put('dir/esc\x1b[31mred.txt', 'x'),
    act: async (c) => told(await c.download(t.connection, { prefixes: ['dir/'] })),
    expected: () => ({
      code: 'UnsafeKey',
      message:
        'The key "dir/esc\\x1b[31mred.txt" contains a control character (\\x1b), which is not safe in a file name; it was not downloaded.',
    }),
  },
  {
    name: 'a download of a key with ".." segments (from a store that holds one)',
    arrange: (c) => c.put('p/real.txt', 'x'),
    act: async (c) => {
      const store = await rewritingProxy((request, answer) =>
        request.url?.includes('list-type=2')
          ? {
              ...answer,
              body: Buffer.from(
                answer.body.toString().replace('<Key>p/real.txt</Key>', '<Key>p/../../escaped.txt</Key>'),
              ),
            }
          : answer,
      );
      c.defer(() => store.close());
      return told(await c.download(await c.connect({ endpoint: store.endpoint }), { prefixes: ['p/'] }));
    },
    expected: () => ({
      code: 'UnsafeKey',
      message:
        'The key "p/../../escaped.txt" contains a ".." segment that would leave the target folder; it was not downloaded.',
    }),
    verify: async () => {
      for (const escaped of [path.join(t.dir, 'escaped.txt'), path.join(os.tmpdir(), 'escaped.txt')])
        expect(await stat(escaped).catch(() => 'absent')).toBe('absent');
    },
  },
  {
    name: 'a download of a key that is an absolute path (from a store that holds one)',
    minioOnly: 'the rewritten listing is URL-encoded, as MinIO sends it',
    arrange: (c) => c.put('real.txt', 'x'),
    act: async (c) => {
      const store = await rewritingProxy((request, answer) =>
        request.url?.includes('list-type=2')
          ? {
              ...answer,
              body: Buffer.from(
                answer.body
                  .toString()
                  .replace('<Key>real.txt</Key>', `<Key>${encodeURIComponent('/tmp/barge-escaped.txt')}</Key>`),
              ),
            }
          : answer,
      );
      c.defer(() => store.close());
      return told(await c.download(await c.connect({ endpoint: store.endpoint }), { prefixes: [''] }));
    },
    expected: () => ({
      code: 'UnsafeKey',
      message: 'The key "/tmp/barge-escaped.txt" is an absolute path; it was not downloaded.',
    }),
    verify: async () => expect(await stat('/tmp/barge-escaped.txt').catch(() => 'absent')).toBe('absent'),
  },
  {
    name: 'a download by name of a key ending in ".."',
    act: async (c) => told(await c.download(t.connection, { keys: ['photos/..'] })),
    expected: () => ({
      code: 'UnsafeKey',
      message: 'The key "photos/.." does not end in a usable file name; it was not downloaded.',
    }),
  },

  // Local files that change under the upload: nothing is stored, and the parts are taken back.
  {
    name: 'a file that grows mid-upload',
    act: (c) => changeMidUpload(c, (file) => appendFile(file, 'more')),
    expected: (c) => ({
      code: 'FileChanged',
      message: `${path.join(c.src, 'big.bin')} changed while it was being uploaded: nothing was stored; retry when it no longer changes.`,
    }),
  },
  {
    name: 'a file truncated mid-upload',
    act: (c) => changeMidUpload(c, (file) => truncate(file, 1024)),
    expected: (c) => ({
      code: 'FileChanged',
      message: `${path.join(c.src, 'big.bin')} changed while it was being uploaded (it is shorter than when the upload began).`,
    }),
  },
  {
    name: 'a file deleted mid-upload',
    act: (c) => changeMidUpload(c, (file) => unlink(file)),
    expected: (c) => ({
      code: 'ENOENT',
      message: `Cannot upload ${path.join(c.src, 'big.bin')} to s3://${t.bucket}/big.bin: No such file or folder.`,
    }),
  },

  // Local permissions and the disk.
  {
    name: 'a download into a read-only file system',
    skip: !isRoot,
    arrange: async (c) => {
      await c.put('a.txt', 'x');
      const mount = await mountTmpfs({ sizeBytes: MIB, readOnly: true });
      c.defer(() => mount.unmount());
      c.out = mount.dir;
    },
    act: async (c) => told(await c.download(t.connection, { keys: ['a.txt'] })),
    expected: (c) => ({
      code: 'EROFS',
      message: `Cannot download s3://${t.bucket}/a.txt: The file system is read-only (${path.join(c.out, 'a.txt')}). Choose a folder you can write to.`,
    }),
  },
  {
    name: 'an upload of a file the user may not read (the command line, as an ordinary user)',
    skip: !isRoot,
    arrange: async (c) => {
      await source(c, 'secret.txt');
      for (const dir of [t.dir, c.src]) await chmod(dir, 0o755);
      await chmod(path.join(c.src, 'secret.txt'), 0o600);
    },
    act: async (c) => {
      const dataDir = path.join(c.fixtures, 'cli-data');
      await mkdir(dataDir, { recursive: true });
      await chmod(dataDir, 0o777);
      const result = await runCli(['cp', '--json', path.join(c.src, 'secret.txt'), `s3://${t.bucket}/in/`], {
        uid: 65534,
        gid: 65534,
        env: { BARGE_DATA_DIR: dataDir },
      });
      expect(result.code).toBe(1);
      expect(result.stderr).not.toMatch(/\n\s+at /);
      return told(JSON.parse(result.stdout.trim().split('\n').at(-1)!) as JobSnapshot);
    },
    expected: (c) => ({
      code: 'EACCES',
      message: `Cannot upload ${path.join(c.src, 'secret.txt')} to s3://${t.bucket}/in/secret.txt: Permission denied. Check its permissions, or choose another file or folder.`,
    }),
  },
  {
    name: 'a download where a file is in the way of the target folder',
    arrange: async (c) => {
      await c.put('a.txt', 'x');
      await writeFile(path.join(t.dir, 'in-the-way'), 'a file');
      c.out = path.join(t.dir, 'in-the-way', 'sub');
    },
    act: async (c) => told(await c.download(t.connection, { keys: ['a.txt'] })),
    expected: (c) => ({
      code: 'ENOTDIR',
      message: `Cannot download into ${c.out}: A file is in the way where a folder should be (${path.join(t.dir, 'in-the-way')}). Move the file, or choose another folder.`,
    }),
  },
  {
    name: 'a download onto a folder of the same name',
    arrange: async (c) => {
      await c.put('a.txt', 'x');
      await mkdir(path.join(c.out, 'a.txt'), { recursive: true });
    },
    act: async (c) => told(await c.download(t.connection, { keys: ['a.txt'] })),
    expected: (c) => ({
      code: 'EISDIR',
      message: `Cannot download s3://${t.bucket}/a.txt: Expected a file but found a folder (${path.join(c.out, 'a.txt')}).`,
    }),
  },
  {
    name: 'a full disk during a download',
    skip: !isRoot,
    arrange: async (c) => {
      await c.put('big.bin', Buffer.alloc(5 * MIB, 7));
      const mount = await mountTmpfs({ sizeBytes: 2 * MIB });
      c.defer(() => mount.unmount());
      c.out = mount.dir;
    },
    act: async (c) => told(await c.download(t.connection, { keys: ['big.bin'] })),
    expected: () => ({
      code: 'ENOSPC',
      message: `Cannot download s3://${t.bucket}/big.bin: The disk is full. Free some space or choose another folder, then try again.`,
    }),
  },

  // Rights and credentials.
  {
    name: 'an upload with credentials that may only read (S3 AccessDenied)',
    minioOnly: "needs MinIO's STS AssumeRole with a session policy",
    act: async (c) =>
      told(await c.upload(await c.connect(await assumeRole(READ_ONLY_POLICY)), [await source(c, 'a.txt')], 'a.txt')),
    expected: (c) => ({
      code: 'AccessDenied',
      message: `Cannot upload ${path.join(c.src, 'a.txt')} to s3://${t.bucket}/a.txt: Access denied: these credentials lack permission for this operation. Ask the bucket's owner for access, or use other credentials.`,
    }),
  },
  {
    name: 'a multipart upload with credentials that may only read (S3 AccessDenied)',
    minioOnly: "needs MinIO's STS AssumeRole with a session policy",
    act: async (c) =>
      told(
        await c.upload(
          await c.connect(await assumeRole(READ_ONLY_POLICY)),
          [await source(c, 'big.bin', 20 * MIB)],
          'big.bin',
        ),
      ),
    expected: (c) => ({
      code: 'AccessDenied',
      message: `Cannot upload ${path.join(c.src, 'big.bin')} to s3://${t.bucket}/big.bin: Access denied: these credentials lack permission for this operation. Ask the bucket's owner for access, or use other credentials.`,
    }),
  },
  {
    name: 'a download with credentials that may list but not read (S3 AccessDenied)',
    minioOnly: "needs MinIO's STS AssumeRole with a session policy",
    arrange: (c) => c.put('d/a.txt', 'x'),
    act: async (c) => told(await c.download(await c.connect(await assumeRole(LIST_ONLY_POLICY)), { prefixes: ['d/'] })),
    expected: () => ({
      code: 'AccessDenied',
      message: `Cannot download s3://${t.bucket}/d/a.txt: Access denied: these credentials lack permission for this operation. Ask the bucket's owner for access, or use other credentials.`,
    }),
  },
  {
    name: 'an access key ID the server does not know',
    act: async (c) =>
      told(await c.upload(await c.connect({ accessKeyId: 'nobody-knows-me' }), [await source(c, 'a.txt')], 'a.txt')),
    expected: (c) => ({
      code: 'InvalidAccessKeyId',
      message: `Cannot upload ${path.join(c.src, 'a.txt')} to s3://${t.bucket}/a.txt: The server does not know this access key ID. Check the keys, AWS_PROFILE or --profile.`,
    }),
  },
  {
    name: 'a wrong secret access key',
    act: async (c) =>
      told(
        await c.upload(
          await c.connect({ secretAccessKey: 'not-the-secret-at-all' }),
          [await source(c, 'a.txt')],
          'a.txt',
        ),
      ),
    expected: (c) => ({
      code: 'SignatureDoesNotMatch',
      message: `Cannot upload ${path.join(c.src, 'a.txt')} to s3://${t.bucket}/a.txt: The secret access key does not match the access key ID. Check the credentials.`,
    }),
  },
  {
    name: 'temporary credentials with a session token that is not theirs (invalid or expired)',
    minioOnly: "needs MinIO's STS AssumeRole with a session policy",
    act: async (c) => {
      const credentials = await assumeRole(READ_ONLY_POLICY);
      return told(
        await c.upload(
          await c.connect({ ...credentials, sessionToken: `${credentials.sessionToken.slice(0, -8)}AAAAAAAA` }),
          [await source(c, 'a.txt')],
          'a.txt',
        ),
      );
    },
    expected: (c) => ({
      code: 'InvalidToken',
      message: `Cannot upload ${path.join(c.src, 'a.txt')} to s3://${t.bucket}/a.txt: The session token is not valid for these temporary credentials. Get new temporary credentials (aws sso login, or assume the role again) and try again.`,
    }),
  },
  {
    name: 'temporary keys without their session token',
    minioOnly: "needs MinIO's STS AssumeRole with a session policy",
    act: async (c) => {
      const { accessKeyId, secretAccessKey } = await assumeRole(READ_ONLY_POLICY);
      return told(
        await c.upload(await c.connect({ accessKeyId, secretAccessKey }), [await source(c, 'a.txt')], 'a.txt'),
      );
    },
    expected: (c) => ({
      code: 'InvalidToken',
      message: `Cannot upload ${path.join(c.src, 'a.txt')} to s3://${t.bucket}/a.txt: The session token is not valid for these temporary credentials. Get new temporary credentials (aws sso login, or assume the role again) and try again.`,
    }),
  },
  {
    name: "a clock an hour fast, where the server's answers carry no Date to correct it from",
    act: async (c) => {
      const noDate = await rewritingProxy((_request, answer) => {
        const headers = { ...answer.headers };
        delete headers.date;
        return { ...answer, headers };
      });
      c.defer(() => noDate.close());
      const file = await source(c, 'a.txt');
      const connection = await c.connect({ endpoint: noDate.endpoint });
      const realNow = Date.now.bind(Date);
      vi.spyOn(Date, 'now').mockImplementation(() => realNow() + HOUR_MS);
      try {
        return told(await c.upload(connection, [file], 'a.txt'));
      } finally {
        vi.restoreAllMocks();
      }
    },
    expected: (c) => ({
      code: 'RequestTimeTooSkewed',
      message: `Cannot upload ${path.join(c.src, 'a.txt')} to s3://${t.bucket}/a.txt: This computer's clock is too far from the server's. Set the clock right and try again.`,
    }),
  },

  // The endpoint.
  {
    name: 'an endpoint on a closed port',
    act: async (c) => {
      t.engine.updateSettings({ maxAttempts: 2 });
      return told(
        await c.upload(
          await c.connect({ endpoint: `http://127.0.0.1:${await freePort()}` }),
          [await source(c, 'a.txt')],
          'a.txt',
        ),
      );
    },
    expected: (c) => ({
      code: 'ECONNREFUSED',
      message: `Cannot upload ${path.join(c.src, 'a.txt')} to s3://${t.bucket}/a.txt: The connection was refused. Is the endpoint URL right and the server running?`,
    }),
  },
  {
    name: 'an endpoint host name that does not resolve',
    act: async (c) =>
      told(
        await c.upload(
          await c.connect({ endpoint: 'http://barge-test.invalid:9000' }),
          [await source(c, 'a.txt')],
          'a.txt',
        ),
      ),
    expected: (c) => ({
      code: 'ENOTFOUND',
      message: `Cannot upload ${path.join(c.src, 'a.txt')} to s3://${t.bucket}/a.txt: The endpoint host name does not resolve. Check the endpoint URL.`,
    }),
  },
  {
    name: 'https:// to a server that speaks plain HTTP (a TLS error)',
    act: async (c) =>
      told(
        await c.upload(
          await c.connect({ endpoint: serverConfig().endpoint!.replace('http:', 'https:') }),
          [await source(c, 'a.txt')],
          'a.txt',
        ),
      ),
    expected: (c) => ({
      code: 'EPROTO',
      message: `Cannot upload ${path.join(c.src, 'a.txt')} to s3://${t.bucket}/a.txt: The secure (TLS) connection failed: the server does not speak TLS on this port. Check the endpoint URL (http:// or https://, and the port).`,
    }),
  },
  {
    name: 'a server whose TLS certificate is self-signed',
    act: async (c) => {
      await mkdir(c.fixtures, { recursive: true });
      const server = await selfSignedTlsServer(c.fixtures);
      c.defer(() => server.close());
      return told(await c.upload(await c.connect({ endpoint: server.endpoint }), [await source(c, 'a.txt')], 'a.txt'));
    },
    expected: (c) => ({
      code: 'DEPTH_ZERO_SELF_SIGNED_CERT',
      message:
        `Cannot upload ${path.join(c.src, 'a.txt')} to s3://${t.bucket}/a.txt: The server's TLS certificate is not trusted (it is self-signed, or signed by an authority this computer does not know). ` +
        'Check the endpoint URL; if you trust this server, name its CA certificate in NODE_EXTRA_CA_CERTS (a PEM file) and start again.',
    }),
  },
];

describe('bad input: the error a person sees, and nothing partial left', () => {
  it('has at least twenty cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(20);
  });

  it.for(cases)('$name', async (bad, { skip }) => {
    if (bad.skip) skip('needs root (tmpfs mounts, or a command run as another user)');
    if (bad.minioOnly && inject('s3').kind !== 'minio') skip(bad.minioOnly);
    const c = newCase();
    await bad.arrange?.(c);
    const onServer = await bucketContents(c.watch.connection, c.watch.bucket);
    const local = await filesUnder(t.dir);

    const error = await bad.act(c);

    expect(error).toEqual(bad.expected(c));
    // Nothing new on the server: no object, version, delete marker or incomplete multipart upload.
    expect(await bucketContents(c.watch.connection, c.watch.bucket)).toEqual(onServer);
    // Nothing in the target folder, finished or *.partial, and no new file anywhere else in the
    // test's folder but the case's own sources and fixtures.
    expect(await filesUnder(c.out)).toEqual([]);
    const own = (file: string) =>
      [c.src, c.fixtures].some((dir) => path.join(t.dir, file).startsWith(`${dir}${path.sep}`));
    expect((await filesUnder(t.dir)).filter((file) => !local.includes(file) && !own(file))).toEqual([]);
    expect((await filesUnder(t.dir)).filter((file) => file.endsWith('.partial'))).toEqual([]);
    await bad.verify?.(c);
  });
});

describe('bad input that is not an error', () => {
  it("sends a bucket on a server in another region there: MinIO's own refusal names it, and the jobs complete", async () => {
    // A second server, in eu-west-1 (MinIO checks the region only when it is given one).
    process.env.MINIO_SITE_REGION = 'eu-west-1';
    const server = await startS3Server('minio').finally(() => delete process.env.MINIO_SITE_REGION);
    try {
      const there = {
        endpoint: server.endpoint,
        accessKeyId: server.accessKeyId,
        secretAccessKey: server.secretAccessKey,
        pathStyle: true,
      };
      await createBucket(await t.engine.connect({ ...there, region: 'eu-west-1' }), 'eu-bucket');
      // Signed for us-east-1, the region the test server is in.
      const fromUsEast1 = await t.engine.connect({ ...there, region: 'us-east-1' });
      const small = await randomFile(t.dir, 'eu/a.txt', 100);
      const large = await randomFile(t.dir, 'eu/big.bin', 12 * MIB);
      const up = t.engine.upload(fromUsEast1, {
        sources: [small.path, large.path],
        bucket: 'eu-bucket',
        destination: '',
      });
      expect((await up.finished()).state).toEqual({ status: 'completed' });
      expect(up.retryCount).toBe(0);
      expect(fromUsEast1.regions.known('eu-bucket')).toBe('eu-west-1');
      const out = path.join(t.dir, 'eu-out');
      const down = await t.engine
        .download(await t.engine.connect({ ...there, region: 'us-east-1' }), {
          bucket: 'eu-bucket',
          keys: ['a.txt', 'big.bin'],
          targetFolder: out,
        })
        .finished();
      expect(down.state).toEqual({ status: 'completed' });
      expect(await sha256File(path.join(out, 'a.txt'))).toBe(small.sha256);
      expect(await sha256File(path.join(out, 'big.bin'))).toBe(large.sha256);
    } finally {
      await server.stop();
    }
  });

  it("corrects a clock an hour fast from the server's Date, and the upload completes intact", async () => {
    const small = await randomFile(t.dir, 'a.txt', 100);
    const large = await randomFile(t.dir, 'big.bin', 20 * MIB);
    const realNow = Date.now.bind(Date);
    vi.spyOn(Date, 'now').mockImplementation(() => realNow() + HOUR_MS);
    // A new connection, whose clocks (the SDK's and the wire's) have learnt nothing yet.
    const skewed = await t.engine.connect(serverConfig());
    const job = t.engine.upload(skewed, { sources: [small.path, large.path], bucket: t.bucket, destination: '' });
    const end = await job.finished();
    vi.restoreAllMocks();
    expect(end.state).toEqual({ status: 'completed' });
    expect(job.retryCount).toBeGreaterThanOrEqual(1);
    const out = path.join(t.dir, 'out');
    expect(
      (
        await t.engine
          .download(t.connection, { bucket: t.bucket, keys: ['a.txt', 'big.bin'], targetFolder: out })
          .finished()
      ).state.status,
    ).toBe('completed');
    expect(await sha256File(path.join(out, 'a.txt'))).toBe(small.sha256);
    expect(await sha256File(path.join(out, 'big.bin'))).toBe(large.sha256);
  });

  it('saves keys that are reserved names on Windows (CON, nul.txt, COM1...) as they are on Linux', async () => {
    const names = ['CON', 'nul.txt', 'COM1', 'lpt9.log', 'AUX.tar.gz', 'PRN'];
    for (const name of names) await randomFile(path.join(t.dir, 'src'), `win/${name}`, 10);
    expect(
      (
        await t.engine
          .upload(t.connection, { sources: [path.join(t.dir, 'src', 'win')], bucket: t.bucket, destination: '' })
          .finished()
      ).state.status,
    ).toBe('completed');
    const out = path.join(t.dir, 'out');
    const end = await t.engine
      .download(t.connection, { bucket: t.bucket, prefixes: ['win/'], targetFolder: out })
      .finished();
    expect(end.state.status).toBe('completed');
    expect(await filesUnder(out)).toEqual(names.map((n) => `win/${n}`).sort());
    for (const name of names)
      expect(await sha256File(path.join(out, 'win', name))).toBe(
        await sha256File(path.join(t.dir, 'src', 'win', name)),
      );
  });

  it('keeps two keys that differ only in case apart in a case-sensitive folder (Linux)', async () => {
    const out = path.join(t.dir, 'out');
    expect(await folderIgnoresCase(out)).toBe(false);
    await t.connection.client.send(new PutObjectCommand({ Bucket: t.bucket, Key: 'p/Photo.jpg', Body: 'upper' }));
    await t.connection.client.send(new PutObjectCommand({ Bucket: t.bucket, Key: 'p/photo.jpg', Body: 'lower' }));
    expect(
      (await t.engine.download(t.connection, { bucket: t.bucket, prefixes: ['p/'], targetFolder: out }).finished())
        .state.status,
    ).toBe('completed');
    expect(await filesUnder(out)).toEqual(['p/Photo.jpg', 'p/photo.jpg']);
    // The probe left nothing behind, and made no folder.
    expect(await filesUnder(t.dir)).toEqual(['out/p/Photo.jpg', 'out/p/photo.jpg']);
  });

  it('an object lock refuses to delete a held version: the delete fails for it, and nothing is deleted', async () => {
    const locked = uniqueBucket();
    await t.connection.client.send(new CreateBucketCommand({ Bucket: locked, ObjectLockEnabledForBucket: true }));
    await t.connection.client.send(new PutObjectCommand({ Bucket: locked, Key: 'held.txt', Body: 'keep me' }));
    await t.connection.client.send(
      new PutObjectLegalHoldCommand({ Bucket: locked, Key: 'held.txt', LegalHold: { Status: 'ON' } }),
    );
    const before = await bucketContents(t.connection, locked);
    const end = await t.engine
      .delete(t.connection, { bucket: locked, keys: ['held.txt'], allVersions: true })
      .finished();
    expect(end.state.status).toBe('failed');
    expect(end.progress.objectsFailed).toBe(1);
    const version = before.versions[0]!.split(' ')[1]!;
    // The code and advice come with the patch in /tmp/bad-input-patches (tests/integration/bad-input-pending.test.ts).
    expect(end.itemErrors[0]!.message).toMatch(
      new RegExp(`^Cannot delete s3://${locked}/held\\.txt \\(version ${version}\\): .*(WORM|object lock)`, 'i'),
    );
    expect(await bucketContents(t.connection, locked)).toEqual(before);
  });
});

describe('local folders', () => {
  it('a missing folder on a read-only disk fails as read-only, not as "no such file"', async () => {
    if (!isRoot) return;
    const mount = await mountTmpfs({ sizeBytes: MIB, readOnly: true });
    cleanups.push(() => mount.unmount());
    await expect(makeFolder(path.join(mount.dir, 'new', 'deeper'))).rejects.toMatchObject({ code: 'EROFS' });
    await makeFolder(path.join(t.dir, 'a', 'b', 'c'));
    expect((await stat(path.join(t.dir, 'a', 'b', 'c'))).isDirectory()).toBe(true);
  });

  it('finds whether a folder tells case apart without leaving anything, even before it exists', async () => {
    expect(await folderIgnoresCase(path.join(t.dir, 'not', 'yet'))).toBe(false);
    expect(await filesUnder(t.dir)).toEqual([]);
    if (!isRoot) return;
    // Where nothing can be written, the platform's usual answer.
    const mount = await mountTmpfs({ sizeBytes: MIB, readOnly: true });
    cleanups.push(() => mount.unmount());
    expect(await folderIgnoresCase(mount.dir, 'darwin')).toBe(true);
    expect(await folderIgnoresCase(mount.dir, 'linux')).toBe(false);
  });
});

describe('bad input, job by job', () => {
  it('stops at the first file when the bucket does not exist, instead of failing every file', async () => {
    for (let i = 0; i < 50; i++) await randomFile(t.dir, `many/${i}.txt`, 10);
    const end = await t.engine
      .upload(t.connection, { sources: [path.join(t.dir, 'many')], bucket: 'no-such-bucket-here', destination: '' })
      .finished();
    expect(end.state.status).toBe('failed');
    expect(end.state.status === 'failed' && end.state.error).toMatchObject({
      code: 'NoSuchBucket',
      message: expect.stringContaining('The bucket does not exist'),
    });
    expect(end.progress.objectsFailed).toBeLessThan(50);
  });

  it('stops at the first file when the credentials are wrong', async () => {
    for (let i = 0; i < 50; i++) await randomFile(t.dir, `many/${i}.txt`, 10);
    const wrong = await t.engine.connect({ ...serverConfig(), secretAccessKey: 'not-the-secret-at-all' });
    const end = await t.engine
      .upload(wrong, { sources: [path.join(t.dir, 'many')], bucket: t.bucket, destination: '' })
      .finished();
    expect(end.state.status === 'failed' && end.state.error.code).toBe('SignatureDoesNotMatch');
    expect(end.progress.objectsFailed).toBeLessThan(50);
    expect(JSON.stringify(end)).not.toContain('not-the-secret-at-all');
    const keys = [];
    for await (const o of listAllObjects(t.connection, { bucket: t.bucket })) keys.push(o.key);
    expect(keys).toEqual([]);
  });

  it('a missing object fails its download clearly and leaves no file', async () => {
    const out = path.join(t.dir, 'out');
    const end = await t.engine
      .download(t.connection, { bucket: t.bucket, keys: ['nope.bin'], targetFolder: out })
      .finished();
    expect(end.state.status).toBe('failed');
    expect(end.itemErrors[0]).toMatchObject({
      item: `s3://${t.bucket}/nope.bin`,
      message: `Cannot download s3://${t.bucket}/nope.bin: The object does not exist.`,
    });
    expect(await filesUnder(out)).toEqual([]);
  });

  it('uploads nothing for a folder with no files, and says it completed', async () => {
    const empty = path.join(t.dir, 'empty');
    await mkdir(empty);
    const end = await t.engine.upload(t.connection, { sources: [empty], bucket: t.bucket, destination: '' }).finished();
    expect(end.state.status).toBe('completed');
    expect(end.progress.objectsTotal).toBe(0);
    expect((await bucketContents(t.connection, t.bucket)).versions).toEqual([]);
    await rm(empty, { recursive: true });
  });
});
