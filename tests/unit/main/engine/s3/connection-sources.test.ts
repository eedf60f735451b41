// A connection's profile and region, checked before anything is dialled: a profile not found is an
// error (never the default chain), and a bad region is named by where it came from.

import http from 'node:http';
import https from 'node:https';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkedConnectionSources } from '../../../../../main/engine/s3/connection-sources.ts';
import { openConnection } from '../../../../../main/engine/s3/s3-connection.ts';
import { S3Wire } from '../../../../../main/engine/s3/s3-wire.ts';

const BAD = 'x@127.0.0.1:19096/#';
let dir: string;
const saved = { config: process.env.AWS_CONFIG_FILE, credentials: process.env.AWS_SHARED_CREDENTIALS_FILE };
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'barge-sources-'));
  process.env.AWS_CONFIG_FILE = path.join(dir, 'config');
  process.env.AWS_SHARED_CREDENTIALS_FILE = path.join(dir, 'credentials');
  await writeFile(
    process.env.AWS_CONFIG_FILE,
    `[default]\nregion = eu-west-1\n[profile work]\nregion = eu-central-1\n[profile evil]\nregion = ${BAD}\n`,
  );
  await writeFile(
    process.env.AWS_SHARED_CREDENTIALS_FILE,
    '[keys-only]\naws_access_key_id = A\naws_secret_access_key = B\n',
  );
});
afterEach(async () => {
  for (const [name, value] of [
    ['AWS_CONFIG_FILE', saved.config],
    ['AWS_SHARED_CREDENTIALS_FILE', saved.credentials],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await rm(dir, { recursive: true, force: true });
});

describe('a named profile', () => {
  it('is taken from either file', async () => {
    expect(await checkedConnectionSources({ profile: 'work' }, {})).toEqual({ region: 'eu-central-1' });
    expect(await checkedConnectionSources({ profile: 'keys-only' }, {})).toEqual({ region: 'us-east-1' });
    expect(await checkedConnectionSources({}, { AWS_PROFILE: 'work' })).toEqual({ region: 'eu-central-1' });
  });

  it('that is not found is an error, not the default chain, said as aws-cli says it for AWS_PROFILE', async () => {
    await expect(checkedConnectionSources({ profile: 'nope' }, {})).rejects.toMatchObject({
      code: 'NoSuchProfile',
      message: expect.stringMatching(/^No profile nope in .*config or .*credentials: check its name/),
    });
    await expect(checkedConnectionSources({}, { AWS_PROFILE: 'nope' })).rejects.toMatchObject({
      code: 'NoSuchProfile',
      message: expect.stringMatching(/^The config profile \(nope\) could not be found: AWS_PROFILE names it/),
    });
    // Keys of its own do not make a missing profile right: it was named, and is not there.
    await expect(
      checkedConnectionSources({ profile: 'nope', accessKeyId: 'A', secretAccessKey: 'B' }, {}),
    ).rejects.toMatchObject({ code: 'NoSuchProfile' });
  });
});

describe('a region', () => {
  it('comes from the connection, AWS_REGION, AWS_DEFAULT_REGION, the profile, or us-east-1, in that order', async () => {
    expect(await checkedConnectionSources({ region: 'ap-south-1' }, { AWS_REGION: 'sa-east-1' })).toEqual({
      region: 'ap-south-1',
    });
    expect(await checkedConnectionSources({}, { AWS_REGION: 'sa-east-1', AWS_DEFAULT_REGION: 'af-south-1' })).toEqual({
      region: 'sa-east-1',
    });
    expect(await checkedConnectionSources({}, { AWS_DEFAULT_REGION: 'af-south-1' })).toEqual({ region: 'af-south-1' });
    expect(await checkedConnectionSources({}, {})).toEqual({ region: 'eu-west-1' });
  });

  it('that is no region is refused, named by where it came from', async () => {
    const refused = (from: RegExp) => ({ code: 'InvalidRegion', message: expect.stringMatching(from) });
    await expect(checkedConnectionSources({ region: BAD }, {})).rejects.toMatchObject(
      refused(/^The connection's region is not a region \("x@127\.0\.0\.1:19096\/#"\): a region is one name/),
    );
    await expect(checkedConnectionSources({}, { AWS_REGION: BAD })).rejects.toMatchObject(
      refused(/^AWS_REGION is not a region/),
    );
    await expect(checkedConnectionSources({}, { AWS_DEFAULT_REGION: 'eu-west-1.evil.example' })).rejects.toMatchObject(
      refused(/^AWS_DEFAULT_REGION is not a region/),
    );
    await expect(checkedConnectionSources({ profile: 'evil' }, {})).rejects.toMatchObject(
      refused(/^The region of the profile evil \(in .*config or .*credentials\) is not a region/),
    );
    // A region overridden by another is not used, so not refused.
    expect(await checkedConnectionSources({ region: 'us-west-2', profile: 'evil' }, {})).toEqual({
      region: 'us-west-2',
    });
  });

  it('is refused by the engine even when a caller skipped every other door', async () => {
    await expect(
      openConnection(
        { region: BAD, accessKeyId: 'A', secretAccessKey: 'B' },
        { threads: 1, stallTimeoutMs: 1000, env: {} },
      ),
    ).rejects.toMatchObject({ code: 'InvalidRegion' });
    expect(
      () =>
        new S3Wire({
          endpoint: undefined,
          region: BAD,
          pathStyle: false,
          credentials: async () => ({ accessKeyId: 'a', secretAccessKey: 'b' }),
          httpAgent: new http.Agent(),
          httpsAgent: new https.Agent(),
          stallTimeoutMs: 1000,
        }),
    ).toThrow(expect.objectContaining({ code: 'InvalidRegion' }));
  });
});
