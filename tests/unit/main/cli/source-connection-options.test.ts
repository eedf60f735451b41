// How a copy between two connections names its source: --source-endpoint-url, --source-profile and
// --source-region, each replacing its own option for the source, as AWS names a profile's parts.

import { describe, expect, it } from 'vitest';
import { parseCli } from '../../../../main/cli/options.ts';

describe('--source-* options', () => {
  it('describe no source connection when none is given: the sources are on the destination connection', () => {
    expect(parseCli(['cp', 's3://a/x', 's3://b/y']).sourceConnection).toBeUndefined();
  });

  it('replace the destination endpoint alone with --source-endpoint-url, keeping its profile and region', () => {
    const options = parseCli([
      'cp',
      '--profile',
      'dr',
      '--region',
      'eu-west-1',
      '--endpoint-url',
      'http://dest.example:9000',
      '--source-endpoint-url',
      'http://source.example:9000',
      's3://a/x',
      's3://b/y',
    ]);
    expect(options.connection).toMatchObject({ endpoint: 'http://dest.example:9000', profile: 'dr' });
    expect(options.sourceConnection).toMatchObject({
      endpoint: 'http://source.example:9000',
      profile: 'dr',
      region: 'eu-west-1',
    });
  });

  it('take a --source-profile whole: its endpoint and region come from the profile, not the destination options', () => {
    const options = parseCli([
      'mv',
      '--endpoint-url',
      'http://dest.example:9000',
      '--region',
      'eu-west-1',
      '--source-profile',
      'prod',
      's3://a/x',
      's3://b/y',
    ]);
    expect(options.sourceConnection).toMatchObject({ profile: 'prod' });
    expect(options.sourceConnection?.endpoint).toBeUndefined();
    expect(options.sourceConnection?.region).toBeUndefined();
  });

  it('are refused where no copy between s3:// addresses reads them, and checked as their own options are', () => {
    expect(() => parseCli(['ls', '--source-profile', 'prod', 's3://a/'])).toThrow(/ls does not take --source-profile/);
    expect(() => parseCli(['cp', '--source-region', 'not a region', 's3://a/x', 's3://b/y'])).toThrow(
      /--source-region takes a region/,
    );
    expect(() => parseCli(['cp', '--source-endpoint-url', 'ftp://x', 's3://a/x', 's3://b/y'])).toThrow(
      /--source-endpoint-url must be an http/,
    );
  });

  it('never echo a password written into --source-endpoint-url or --endpoint-url when they refuse it', () => {
    for (const flag of ['--source-endpoint-url', '--endpoint-url']) {
      let message = '';
      try {
        parseCli(['cp', flag, 'http://u:SECRETPW@host.example:9000', 's3://a/x', 's3://b/y']);
      } catch (error) {
        message = String((error as Error).message);
      }
      expect(message).toMatch(/user name or password/);
      expect(message).not.toContain('SECRETPW');
    }
  });
});
