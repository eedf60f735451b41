import { inspect } from 'node:util';
import { SignatureV4 } from '@smithy/signature-v4';
import { describe, expect, it } from 'vitest';
import { LeanSigner } from '../../../../../main/engine/s3/lean-signer.ts';
import type { HeaderSigned } from '../../../../../main/engine/s3/lean-signer.ts';
import { NodeSha256 } from '../../../../../main/engine/s3/s3-wire.ts';

const SHA = '5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03';
const requests: { what: string; request: HeaderSigned }[] = [
  {
    what: 'a PUT of a small file with its CRC',
    request: {
      method: 'PUT',
      path: '/bench/small/f00001.bin',
      headers: {
        host: '127.0.0.1:9000',
        'content-length': '65536',
        'content-type': 'application/octet-stream',
        'x-amz-checksum-crc32c': 'yZRlqg==',
        'x-amz-content-sha256': SHA,
      },
    },
  },
  {
    what: 'a ranged GET with no payload hash given',
    request: {
      method: 'GET',
      path: '/b/a%20b/%E2%9C%93.txt',
      headers: { host: 's3.eu-west-3.amazonaws.com', range: 'bytes=0-1023' },
    },
  },
  {
    what: 'an UploadPart with a query to escape and headers the SDK does not sign',
    request: {
      method: 'PUT',
      path: '/b/big.bin',
      query: { partNumber: '7', uploadId: 'a+b/c=d~e!f*(g)' },
      headers: {
        Host: 'minio.local',
        'user-agent': 'barge',
        'Content-Length': '5242880',
        expect: '100-continue',
        'proxy-authorization': 'x',
        'x-amz-content-sha256': 'UNSIGNED-PAYLOAD',
        'X-Amz-Meta-Note': '  two  spaces\tand a\nline  ',
        authorization: 'stale',
        'x-amz-date': 'stale',
        'x-absent': undefined,
      },
    },
  },
  {
    what: 'a HEAD with a version id',
    request: { method: 'HEAD', path: '/b/k', query: { versionId: 'null' }, headers: { host: 'h' } },
  },
];

describe('the lean signer signs as the SDK does', () => {
  const dates = [new Date('2026-11-26T15:04:05.678Z'), new Date('2026-12-31T23:59:59.999Z')];
  for (const session of [undefined, 'FwoGZXIvYXdzE//token+with/odd=chars']) {
    const credentials = {
      accessKeyId: 'AKIAEXAMPLE',
      secretAccessKey: 'wJalr/XUtnFEMI+K7MDENG',
      sessionToken: session,
    };
    for (const { what, request } of requests) {
      it(`${what}${session ? ', with a session token' : ''}`, async () => {
        const sdk = new SignatureV4({
          service: 's3',
          region: 'us-east-1',
          credentials: async () => credentials,
          sha256: NodeSha256,
          uriEscapePath: false,
          applyChecksum: false,
        });
        const lean = new LeanSigner('s3', async () => ({ ...credentials }));
        for (const date of dates) {
          for (const region of ['us-east-1', 'eu-west-3']) {
            const expected = await sdk.sign(
              {
                method: request.method,
                protocol: 'http:',
                hostname: 'h',
                path: request.path,
                query: { ...request.query },
                headers: { ...request.headers } as Record<string, string>,
              },
              { signingDate: date, signingRegion: region },
            );
            const headers = await lean.sign(request, date, region);
            expect(headers).toEqual(expected.headers);
          }
        }
      });
    }
  }

  it('signs again when the credentials change, not with the key it kept', async () => {
    let secret = 'first-secret';
    const lean = new LeanSigner('s3', async () => ({ accessKeyId: 'AK', secretAccessKey: secret }));
    const request = requests[0]!.request;
    const date = new Date('2026-11-26T15:04:05Z');
    const before = await lean.sign(request, date, 'us-east-1');
    secret = 'second-secret';
    const after = await lean.sign(request, date, 'us-east-1');
    const sdk = new SignatureV4({
      service: 's3',
      region: 'us-east-1',
      credentials: async () => ({ accessKeyId: 'AK', secretAccessKey: secret }),
      sha256: NodeSha256,
      uriEscapePath: false,
      applyChecksum: false,
    });
    const expected = await sdk.sign(
      {
        method: 'PUT',
        protocol: 'http:',
        hostname: 'h',
        path: request.path,
        query: {},
        headers: { ...request.headers } as Record<string, string>,
      },
      { signingDate: date, signingRegion: 'us-east-1' },
    );
    expect(after.authorization).not.toBe(before.authorization);
    expect(after.authorization).toBe(expected.headers.authorization);
  });

  it('keeps its credentials and signing keys out of what inspecting it prints', async () => {
    const lean = new LeanSigner('s3', async () => ({
      accessKeyId: 'AK',
      secretAccessKey: 'the-secret',
      sessionToken: 'tok',
    }));
    await lean.sign(requests[0]!.request, new Date('2026-11-26T15:04:05Z'), 'us-east-1');
    const shown = inspect(lean, { depth: 10, showHidden: true });
    expect(shown).not.toContain('the-secret');
    expect(shown).not.toContain('tok');
  });
});
