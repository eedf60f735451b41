import { expect, it } from 'vitest';
import { endpointUrlProblem, sessionConnectionSchema } from '../../../src/connection.ts';
import { connectionInputSchema } from '../../../src/contract/models.ts';

it("an endpoint is a store's address: scheme, host and port, nothing that no request would use", () => {
  for (const good of [
    'http://127.0.0.1:9000',
    'https://s3.example.com',
    'https://s3.example.com/',
    'http://[::1]:9000',
  ])
    expect(endpointUrlProblem(good), good).toBeUndefined();
  expect(endpointUrlProblem('ftp://example')).toMatch(/http:\/\/ or https:\/\//);
  expect(endpointUrlProblem('https://s3.example.com/bucket/key')).toMatch(/without a path \(\/bucket\/key\)/);
  expect(endpointUrlProblem('https://s3.example.com/?x=1')).toMatch(/query/);
  expect(endpointUrlProblem('https://s3.example.com/#f')).toMatch(/fragment/);
  expect(endpointUrlProblem('https://user:secret@s3.example.com')).toMatch(/user name or password/);
  expect(endpointUrlProblem('not a url')).toMatch(/not a URL/);
  // The connection form and the command line refuse them alike, before anything is saved or sent.
  expect(connectionInputSchema.safeParse({ name: 'x', endpoint: 'https://s3.example.com/b?x=1' }).success).toBe(false);
  expect(connectionInputSchema.safeParse({ name: 'x', endpoint: '' }).success).toBe(true);
  expect(sessionConnectionSchema.safeParse({ endpoint: 'http://127.0.0.1:9000/path' }).success).toBe(false);
  expect(sessionConnectionSchema.safeParse({ endpoint: 'http://127.0.0.1:9000' }).success).toBe(true);
});

it('a region is a region in every schema a connection crosses: nothing that could carry a host, a port or a path', () => {
  for (const region of ['x@127.0.0.1:19096/#', 'x@169.254.169.254:443/#', 'eu-west-1.evil.example', 'us east 1']) {
    expect(connectionInputSchema.safeParse({ name: 'x', region }).success, region).toBe(false);
    expect(sessionConnectionSchema.safeParse({ region }).success, region).toBe(false);
  }
  expect(connectionInputSchema.safeParse({ name: 'x', region: 'x@127.0.0.1:19096/#' }).error?.issues[0]).toMatchObject({
    path: ['region'],
    message: expect.stringMatching(/^That is not a region: a region is one name of letters, digits and hyphens/),
  });
  for (const region of ['', ' ', 'eu-west-1', ' auto '])
    expect(connectionInputSchema.safeParse({ name: 'x', region }).success, region).toBe(true);
  expect(sessionConnectionSchema.safeParse({ region: 'fsn1' }).success).toBe(true);
});
