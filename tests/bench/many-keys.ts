// npm run bench:many-keys — a download of a million keys in bounded memory, beside s5cmd.
//
// Writing a million objects into MinIO first would take longer than the download, so the store is
// synthetic: a small HTTP server that lists BENCH_KEYS keys (default 1,000,000) of 1 byte each, in
// pages of 1,000, and answers every GET and HEAD with that byte. Both tools download the whole
// prefix with 64 requests in flight; the figures are wall time and peak RSS (GNU time). What grows
// with the prefix shows in peak RSS: run with BENCH_KEYS=100000 and 1000000 to see whether it grows.
// Not part of the tests: figures, not assertions. `npm run bench` runs the same download as its
// many-keys-down row (BENCH_WORKLOADS=many-keys-down), with its store from here.

import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const KEYS = Number(process.env.BENCH_KEYS ?? 1_000_000);
const PAGE = 1000;
const BODY = Buffer.from('x');
const ETAG = `"${createHash('md5').update(BODY).digest('hex')}"`;
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
const keyOf = (i: number) => `many/${String(Math.floor(i / 1000)).padStart(4, '0')}/k${String(i).padStart(7, '0')}`;
const escapeXml = (text: string) => text.replace(/[<>&]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;' })[c]!);

function listPage(url: URL): string {
  const after = url.searchParams.get('start-after') ?? url.searchParams.get('continuation-token') ?? '';
  // Keys are in order: the next index is found by its number.
  const start = after === '' ? 0 : Number(/k(\d+)$/.exec(after)?.[1] ?? -1) + 1;
  const end = Math.min(KEYS, start + PAGE);
  const contents = [];
  for (let i = start; i < end; i++) {
    contents.push(
      `<Contents><Key>${escapeXml(keyOf(i))}</Key><LastModified>2026-01-01T00:00:00.000Z</LastModified><ETag>${escapeXml(ETAG)}</ETag><Size>1</Size><StorageClass>STANDARD</StorageClass></Contents>`,
    );
  }
  const truncated = end < KEYS;
  return `<?xml version="1.0" encoding="UTF-8"?><ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>bench</Name><Prefix>${escapeXml(url.searchParams.get('prefix') ?? '')}</Prefix><KeyCount>${end - start}</KeyCount><MaxKeys>${PAGE}</MaxKeys><IsTruncated>${truncated}</IsTruncated>${truncated ? `<NextContinuationToken>${escapeXml(keyOf(end - 1))}</NextContinuationToken>` : ''}${contents.join('')}</ListBucketResult>`;
}

/** A store that lists KEYS keys of one byte below many/, and answers every GET and HEAD with that byte. */
export function startSyntheticStore(): Promise<{ endpoint: string; close(): void }> {
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://store');
    if (request.method === 'GET' && url.searchParams.get('list-type') === '2') {
      response.writeHead(200, { 'content-type': 'application/xml' });
      response.end(listPage(url));
      return;
    }
    const headers = {
      'content-length': String(BODY.length),
      etag: ETAG,
      'last-modified': 'Thu, 01 Jan 2026 00:00:00 GMT',
      'content-type': 'application/octet-stream',
      'accept-ranges': 'bytes',
    };
    response.writeHead(200, headers);
    response.end(request.method === 'HEAD' ? undefined : BODY);
  });
  server.keepAliveTimeout = 60_000;
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() }),
    ),
  );
}

async function run(
  name: string,
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  scratch: string,
): Promise<void> {
  const timeFile = path.join(scratch, `${name}.time`);
  const started = process.hrtime.bigint();
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn('/usr/bin/time', ['-f', '%M %U %S', '-o', timeFile, command, ...args], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    child.on('close', resolve);
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const [rssKiB] = (await readFile(timeFile, 'utf8')).trim().split('\n').at(-1)!.split(' ').map(Number);
  console.log(
    `${name.padEnd(8)} ${KEYS.toLocaleString('en-US')} keys  exit ${code}  ${seconds.toFixed(1)} s  ${(KEYS / seconds).toFixed(0)} obj/s  peak RSS ${(rssKiB! / 1024).toFixed(0)} MiB`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const store = await startSyntheticStore();
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'barge-many-keys-'));
  const credentials = { AWS_ACCESS_KEY_ID: 'bench', AWS_SECRET_ACCESS_KEY: 'benchbench', AWS_REGION: 'us-east-1' };
  try {
    await run(
      'barge',
      process.execPath,
      [
        path.join(root, 'app', 'dist', 'barge.mjs'),
        '--quiet',
        'cp',
        '-r',
        '--threads',
        '64',
        's3://bench/many/',
        path.join(scratch, 'barge'),
      ],
      { ...credentials, AWS_ENDPOINT_URL: store.endpoint, BARGE_DATA_DIR: path.join(scratch, 'data') },
      scratch,
    );
    await rm(path.join(scratch, 'barge'), { recursive: true, force: true });
    const s5cmd = [...(process.env.PATH ?? '').split(':'), path.join(os.homedir(), '.cache', 's3lab', 'bin')]
      .map((dir) => path.join(dir, 's5cmd'))
      .find((file) => existsSync(file));
    if (s5cmd) {
      await run(
        's5cmd',
        s5cmd,
        [
          '--endpoint-url',
          store.endpoint,
          '--numworkers',
          '64',
          'cp',
          's3://bench/many/*',
          `${path.join(scratch, 's5cmd')}/`,
        ],
        credentials,
        scratch,
      );
    } else {
      console.log('s5cmd not found (ONLY=s5cmd bash ../shared/lab/install-peers.sh): Barge alone.');
    }
  } finally {
    store.close();
    await rm(scratch, { recursive: true, force: true });
  }
}
