import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveEndpoint } from '../../../../../main/engine/s3/s3-connection.ts';

let savedConfigFile: string | undefined;
beforeEach(async () => {
  savedConfigFile = process.env.AWS_CONFIG_FILE;
  const dir = await mkdtemp(path.join(os.tmpdir(), 'barge-aws-'));
  const config = path.join(dir, 'config');
  await writeFile(config, '[default]\nregion = eu-west-1\n[profile minio]\nendpoint_url = http://minio.local:9000\n');
  process.env.AWS_CONFIG_FILE = config;
});
afterEach(() => {
  if (savedConfigFile === undefined) delete process.env.AWS_CONFIG_FILE;
  else process.env.AWS_CONFIG_FILE = savedConfigFile;
});

describe('resolveEndpoint', () => {
  it('goes to AWS, virtual-hosted, with the SDK checksums, when nothing names an endpoint', async () => {
    expect(await resolveEndpoint({}, {})).toEqual({
      endpoint: undefined,
      pathStyle: false,
      checksumMode: 'when_supported',
      uploadChecksum: 'CRC64NVME',
    });
  });

  it('prefers the explicit endpoint, then AWS_ENDPOINT_URL_S3, then AWS_ENDPOINT_URL, then the profile', async () => {
    const env = { AWS_ENDPOINT_URL_S3: 'http://s3-only:1', AWS_ENDPOINT_URL: 'http://all:2' };
    expect((await resolveEndpoint({ endpoint: 'http://explicit:3' }, env)).endpoint).toBe('http://explicit:3');
    expect((await resolveEndpoint({}, env)).endpoint).toBe('http://s3-only:1');
    expect((await resolveEndpoint({}, { AWS_ENDPOINT_URL: 'http://all:2' })).endpoint).toBe('http://all:2');
    expect((await resolveEndpoint({ profile: 'minio' }, {})).endpoint).toBe('http://minio.local:9000');
    expect((await resolveEndpoint({}, { AWS_PROFILE: 'minio' })).endpoint).toBe('http://minio.local:9000');
  });

  it('defaults a custom endpoint to path style and to checksums only where required', async () => {
    expect(await resolveEndpoint({ endpoint: 'https://r2.example.com' }, {})).toEqual({
      endpoint: 'https://r2.example.com',
      pathStyle: true,
      checksumMode: 'when_required',
      uploadChecksum: 'CRC32C',
    });
    expect(await resolveEndpoint({ endpoint: 'https://s3.eu-west-1.amazonaws.com' }, {})).toMatchObject({
      pathStyle: false,
      checksumMode: 'when_supported',
      uploadChecksum: 'CRC64NVME',
    });
  });

  it('lets the connection override the defaults', async () => {
    expect(
      await resolveEndpoint(
        { endpoint: 'http://x:1', pathStyle: false, checksumMode: 'when_supported', uploadChecksum: 'MD5' },
        {},
      ),
    ).toMatchObject({ pathStyle: false, checksumMode: 'when_supported', uploadChecksum: 'MD5' });
  });
});
