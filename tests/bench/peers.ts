// The tools the benchmark runs, and how each is asked to do each workload.
//
// Settings follow ../shared/LAB.md so the figures compare like with like: 64 files in flight for
// small files; 16 parts of 16 MiB for the large file, both ways.

import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { S3ServerInfo } from '../support/s3-server.ts';

export type Workload =
  'small-up' | 'large-up' | 'large-down' | 'list' | 'delete' | 'sync' | 'server-copy' | 'cross-copy';

export interface WorkloadArgs {
  readonly bucket: string;
  /** Local folder (small-up, sync), file (large-up) or target file (large-down). */
  readonly local: string;
  /** Key or prefix (ending in "/") in the bucket. */
  readonly key: string;
  /** server-copy: the key the object is copied to, in the same bucket (cross-copy: on the other store). */
  readonly copyTo?: string;
  /** cross-copy: the second store's endpoint, where the object is copied to. */
  readonly otherEndpoint?: string;
}

/** s5cmd and aws-cli take one endpoint per run: a copy between two stores is not one of their commands. */
const CANNOT_CROSS_COPY = 'takes one endpoint per run: it cannot copy between two stores';

/** Whether a tool can run a workload at all (cross-copy: Barge and rclone only). */
export function runsWorkload(tool: Tool, workload: Workload): boolean {
  return workload !== 'cross-copy' || tool.name === 'barge' || tool.name === 'rclone';
}

export interface Tool {
  readonly name: string;
  readonly command: string;
  readonly env: NodeJS.ProcessEnv;
  args(workload: Workload, w: WorkloadArgs): string[];
}

const LAB_BIN = process.env.S3LAB_PREFIX
  ? path.join(process.env.S3LAB_PREFIX, 'bin')
  : path.join(os.homedir(), '.cache', 's3lab', 'bin');

/** A peer's binary: from PATH, else from the lab's folder (~/.cache/s3lab/bin). */
export function findBinary(name: string): string | undefined {
  for (const dir of [...(process.env.PATH ?? '').split(':'), LAB_BIN]) {
    const candidate = path.join(dir, name);
    if (dir && existsSync(candidate)) return candidate;
  }
  return undefined;
}

/**
 * Barge as it ships (journaling every job into `dataDir`), or with the journal off (`journal: false`,
 * the tool "barge-nojournal") to measure what recording costs.
 */
export function bargeTool(
  server: S3ServerInfo,
  root: string,
  dataDir: string,
  journal = true,
  uploadChecksum?: 'md5' | 'off',
): Tool {
  // --upload-checksum md5: what every upload request costs on a store that ignores CRC headers.
  const checksum = uploadChecksum ? ['--upload-checksum', uploadChecksum] : [];
  return {
    name: `${journal ? 'barge' : 'barge-nojournal'}${uploadChecksum ? `-${uploadChecksum}` : ''}`,
    command: process.execPath,
    env: { ...bargeEnv(server, dataDir), ...(journal ? {} : { BARGE_NO_JOURNAL: '1' }) },
    args(workload, w) {
      const cli = [path.join(root, 'app', 'dist', 'barge.mjs'), '--quiet', ...checksum];
      switch (workload) {
        case 'small-up':
          return [...cli, 'cp', '-r', '--threads', '64', w.local, `s3://${w.bucket}/${w.key}`];
        case 'large-up':
          return [...cli, 'cp', '--threads', '16', '--part-size', '16MiB', w.local, `s3://${w.bucket}/${w.key}`];
        case 'large-down':
          return [...cli, 'cp', '--threads', '16', '--part-size', '16MiB', `s3://${w.bucket}/${w.key}`, w.local];
        case 'list':
          return [...cli, 'ls', '--recursive', `s3://${w.bucket}/${w.key}`];
        case 'delete':
          return [...cli, 'rm', '--recursive', '--threads', '64', `s3://${w.bucket}/${w.key}`];
        case 'sync':
          return [...cli, 'sync', '--threads', '64', w.local, `s3://${w.bucket}/${w.key}`];
        case 'server-copy':
          return [...cli, 'cp', '--threads', '16', `s3://${w.bucket}/${w.key}`, `s3://${w.bucket}/${w.copyTo}`];
        case 'cross-copy':
          return [
            ...cli,
            'cp',
            '--threads',
            '16',
            '--part-size',
            '16MiB',
            '--endpoint-url',
            w.otherEndpoint!,
            '--source-endpoint-url',
            server.endpoint,
            `s3://${w.bucket}/${w.key}`,
            `s3://${w.bucket}/${w.copyTo}`,
          ];
      }
    },
  };
}

export async function peerTools(server: S3ServerInfo, scratch: string): Promise<Tool[]> {
  const tools: Tool[] = [];
  const keys = {
    AWS_ACCESS_KEY_ID: server.accessKeyId,
    AWS_SECRET_ACCESS_KEY: server.secretAccessKey,
    AWS_REGION: server.region,
  };
  const s5cmd = findBinary('s5cmd');
  if (s5cmd) {
    tools.push({
      name: 's5cmd',
      command: s5cmd,
      env: keys,
      args(workload, w) {
        const base = ['--endpoint-url', server.endpoint];
        switch (workload) {
          case 'small-up':
            return [...base, '--numworkers', '64', 'cp', `${w.local}/*`, `s3://${w.bucket}/${w.key}`];
          case 'large-up':
            return [...base, 'cp', '--concurrency', '16', '--part-size', '16', w.local, `s3://${w.bucket}/${w.key}`];
          case 'large-down':
            return [...base, 'cp', '--concurrency', '16', '--part-size', '16', `s3://${w.bucket}/${w.key}`, w.local];
          case 'list':
            return [...base, 'ls', `s3://${w.bucket}/${w.key}*`];
          case 'delete':
            return [...base, '--numworkers', '64', 'rm', `s3://${w.bucket}/${w.key}*`];
          case 'sync':
            return [...base, '--numworkers', '64', 'sync', `${w.local}/`, `s3://${w.bucket}/${w.key}`];
          case 'server-copy':
            return [...base, 'cp', '--concurrency', '16', `s3://${w.bucket}/${w.key}`, `s3://${w.bucket}/${w.copyTo}`];
          case 'cross-copy':
            throw new Error(CANNOT_CROSS_COPY);
        }
      },
    });
  }
  const rclone = findBinary('rclone');
  if (rclone) {
    const env = {
      RCLONE_CONFIG_BENCH_TYPE: 's3',
      RCLONE_CONFIG_BENCH_PROVIDER: 'Minio',
      RCLONE_CONFIG_BENCH_ENDPOINT: server.endpoint,
      RCLONE_CONFIG_BENCH_ACCESS_KEY_ID: server.accessKeyId,
      RCLONE_CONFIG_BENCH_SECRET_ACCESS_KEY: server.secretAccessKey,
      RCLONE_CONFIG_BENCH_REGION: server.region,
      RCLONE_CONFIG: path.join(scratch, 'rclone.conf'),
    };
    tools.push({
      name: 'rclone',
      command: rclone,
      env,
      args(workload, w) {
        const remote = `bench:${w.bucket}/${w.key}`;
        switch (workload) {
          case 'small-up':
            return ['copy', '--transfers', '64', '--checkers', '64', '--no-check-dest', w.local, remote];
          case 'large-up':
            return ['copyto', '--s3-upload-concurrency', '16', '--s3-chunk-size', '16M', w.local, remote];
          case 'large-down':
            return ['copyto', '--multi-thread-streams', '16', remote, w.local];
          case 'list':
            return ['lsf', '-R', '--files-only', remote];
          case 'delete':
            return ['delete', '--checkers', '64', '--transfers', '64', remote];
          case 'sync':
            // The rule s5cmd, aws-cli and Barge use (size, then a newer source than the object's
            // LastModified), from the listing alone: rclone's default reads each object's mtime
            // metadata by a HEAD per key, which no one runs against S3 at this size.
            return [
              'sync',
              '--transfers',
              '64',
              '--checkers',
              '64',
              '--fast-list',
              '--update',
              '--use-server-modtime',
              w.local,
              remote,
            ];
          case 'server-copy':
            return ['copyto', remote, `bench:${w.bucket}/${w.copyTo}`];
          case 'cross-copy':
            // The second store as a remote of its own, named inline (same keys, its endpoint).
            return [
              'copyto',
              '--s3-upload-concurrency',
              '16',
              '--s3-chunk-size',
              '16M',
              '--multi-thread-streams',
              '16',
              remote,
              `:s3,provider=Minio,endpoint='${w.otherEndpoint}',access_key_id=${server.accessKeyId},` +
                `secret_access_key=${server.secretAccessKey},region=${server.region}:${w.bucket}/${w.copyTo}`,
            ];
        }
      },
    });
  }
  const aws = findBinary('aws');
  if (aws) {
    const config = path.join(scratch, 'aws-config');
    await writeFile(
      config,
      '[default]\ns3 =\n  max_concurrent_requests = 64\n  multipart_chunksize = 16MB\n  multipart_threshold = 16MB\n',
    );
    tools.push({
      name: 'aws-cli',
      command: aws,
      env: { ...keys, AWS_CONFIG_FILE: config, AWS_SHARED_CREDENTIALS_FILE: path.join(scratch, 'none') },
      args(workload, w) {
        const s3 = ['--endpoint-url', server.endpoint, 's3'];
        const quiet = '--only-show-errors'; // cp and rm only; ls refuses it
        switch (workload) {
          case 'small-up':
            return [...s3, 'cp', quiet, '--recursive', w.local, `s3://${w.bucket}/${w.key}`];
          case 'large-up':
            return [...s3, 'cp', quiet, w.local, `s3://${w.bucket}/${w.key}`];
          case 'large-down':
            return [...s3, 'cp', quiet, `s3://${w.bucket}/${w.key}`, w.local];
          case 'list':
            return [...s3, 'ls', '--recursive', `s3://${w.bucket}/${w.key}`];
          case 'delete':
            return [...s3, 'rm', quiet, '--recursive', `s3://${w.bucket}/${w.key}`];
          case 'sync':
            return [...s3, 'sync', quiet, w.local, `s3://${w.bucket}/${w.key}`];
          case 'server-copy':
            return [...s3, 'cp', quiet, `s3://${w.bucket}/${w.key}`, `s3://${w.bucket}/${w.copyTo}`];
          case 'cross-copy':
            throw new Error(CANNOT_CROSS_COPY);
        }
      },
    });
  }
  const only = process.env.BENCH_PEERS?.split(',');
  return only ? tools.filter((t) => only.includes(t.name)) : tools;
}

/** What Barge's command line is run with in a bench: the server's credentials and a data folder of its own. */
export function bargeEnv(server: S3ServerInfo, dataDir: string): Record<string, string> {
  return {
    AWS_ACCESS_KEY_ID: server.accessKeyId,
    AWS_SECRET_ACCESS_KEY: server.secretAccessKey,
    AWS_ENDPOINT_URL: server.endpoint,
    AWS_REGION: server.region,
    BARGE_DATA_DIR: dataDir,
  };
}
