// Each request to AWS goes to its bucket's regional endpoint and is signed for that region; a custom
// endpoint keeps its host and changes only the signature's scope. No network: the URLs are built,
// presigned, and the SDK's request is stopped before it is sent.

import { afterEach, describe, expect, it } from 'vitest';
import { GetBucketVersioningCommand } from '@aws-sdk/client-s3';
import { awsRegionalEndpoint, endpointFor } from '../../../../../main/engine/s3/regional-endpoint.ts';
import { openConnection } from '../../../../../main/engine/s3/s3-connection.ts';
import type { S3Connection } from '../../../../../main/engine/s3/s3-connection.ts';

const keys = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' };
const open: S3Connection[] = [];
afterEach(() => {
  for (const connection of open.splice(0)) connection.close();
});

async function connect(config: { endpoint?: string; region: string }): Promise<S3Connection> {
  const connection = await openConnection({ ...keys, ...config }, { threads: 1, stallTimeoutMs: 1000, env: {} });
  open.push(connection);
  return connection;
}

describe("AWS's regional endpoints", () => {
  it('is s3.<region>.amazonaws.com, and .amazonaws.com.cn in China', () => {
    expect(awsRegionalEndpoint('eu-west-1').href).toBe('https://s3.eu-west-1.amazonaws.com/');
    expect(awsRegionalEndpoint('us-east-1').href).toBe('https://s3.us-east-1.amazonaws.com/');
    expect(awsRegionalEndpoint('cn-north-1').href).toBe('https://s3.cn-north-1.amazonaws.com.cn/');
  });

  it('refuses a region that is not one (it would become the host)', () => {
    expect(() => awsRegionalEndpoint('x@127.0.0.1:19096/#')).toThrow(/not a region/);
    expect(() => awsRegionalEndpoint('eu-west-1.evil.example')).toThrow(/not a region/);
  });

  it('keeps a custom endpoint whatever the region', () => {
    expect(endpointFor('http://127.0.0.1:9000', 'eu-west-1').href).toBe('http://127.0.0.1:9000/');
    expect(endpointFor(undefined, 'ap-southeast-2').host).toBe('s3.ap-southeast-2.amazonaws.com');
  });
});

describe('a connection to AWS addresses each bucket in its own region', () => {
  it("signs links for the bucket's region, on its regional host (virtual-hosted, or path-style for a name with dots)", async () => {
    const connection = await connect({ region: 'us-east-1' });
    connection.regions.learn('in-ireland', 'eu-west-1');
    connection.regions.learn('in.china', 'cn-north-1');
    const ireland = new URL(await connection.wire.presignGet('in-ireland', 'a b.txt', 60));
    expect(ireland.host).toBe('in-ireland.s3.eu-west-1.amazonaws.com');
    expect(ireland.pathname).toBe('/a%20b.txt');
    expect(ireland.searchParams.get('X-Amz-Credential')).toMatch(/^AKIDEXAMPLE\/\d{8}\/eu-west-1\/s3\/aws4_request$/);
    const china = new URL(await connection.wire.presignGet('in.china', 'k', 60));
    expect(china.host).toBe('s3.cn-north-1.amazonaws.com.cn');
    expect(china.pathname).toBe('/in.china/k');
    expect(china.searchParams.get('X-Amz-Credential')).toContain('/cn-north-1/s3/aws4_request');
  });

  it("sends the SDK's commands for a bucket to its region's endpoint, signed for it", async () => {
    const connection = await connect({ region: 'us-east-1' });
    connection.regions.learn('in-ireland', 'eu-west-1');
    const sent = await stoppedRequest(
      connection,
      'eu-west-1',
      new GetBucketVersioningCommand({ Bucket: 'in-ireland' }),
    );
    expect(sent.hostname).toBe('in-ireland.s3.eu-west-1.amazonaws.com');
    expect(sent.authorization).toContain('/eu-west-1/s3/aws4_request');
  });

  it("on a custom endpoint, keeps the host and changes only the signature's region", async () => {
    const connection = await connect({ endpoint: 'http://127.0.0.1:9', region: 'us-east-1' });
    connection.regions.learn('b', 'eu-west-1');
    const link = new URL(await connection.wire.presignGet('b', 'k', 60));
    expect(link.host).toBe('127.0.0.1:9');
    expect(link.searchParams.get('X-Amz-Credential')).toContain('/eu-west-1/s3/aws4_request');
    const sent = await stoppedRequest(connection, 'eu-west-1', new GetBucketVersioningCommand({ Bucket: 'b' }));
    expect(sent.hostname).toBe('127.0.0.1');
    expect(sent.authorization).toContain('/eu-west-1/s3/aws4_request');
  });
});

/** The host and signature of the request the SDK would send for `command`, stopped once signed. */
async function stoppedRequest(
  connection: S3Connection,
  region: string,
  command: GetBucketVersioningCommand,
): Promise<{ hostname: string; authorization: string }> {
  let sent: { hostname: string; authorization: string } | undefined;
  const stop = new Error('stopped before sending');
  connection.client.clientFor(region).middlewareStack.add(
    (_next) => async (args) => {
      const request = args.request as { hostname: string; headers: Record<string, string> };
      sent = { hostname: request.hostname, authorization: request.headers.authorization ?? '' };
      throw stop;
    },
    { step: 'finalizeRequest', priority: 'low', name: 'stopBeforeSending' },
  );
  await expect(connection.client.send(command)).rejects.toBe(stop);
  return sent!;
}
