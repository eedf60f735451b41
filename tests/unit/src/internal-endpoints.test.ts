import { expect, it } from 'vitest';
import { internalAddressProblem, internalEndpointProblem } from '../../../src/internal-endpoints.ts';

it('names metadata services and link-local addresses, and passes ordinary stores', () => {
  for (const endpoint of [
    'http://169.254.169.254', 'http://169.254.170.2/v2', 'http://metadata.google.internal', 'http://100.100.100.200', 'http://[fd00:ec2::254]', 'http://[fe80::1]:9000',
    'http://[::ffff:169.254.169.254]', 'http://[::ffff:a9fe:a9fe]', 'http://[64:ff9b::169.254.169.254]', 'http://192.0.0.192', 'not a url',
  ]) {
    expect(internalEndpointProblem(endpoint), endpoint).toBeDefined();
  }
  for (const endpoint of ['https://s3.eu-west-1.amazonaws.com', 'http://10.0.0.5:9000', 'http://127.0.0.1:9000', 'https://minio.example.com']) {
    expect(internalEndpointProblem(endpoint), endpoint).toBeUndefined();
  }
});

it('names metadata addresses that a host name resolves to, in any IPv6 spelling', () => {
  expect(internalAddressProblem('169.254.169.254')).toBeDefined();
  expect(internalAddressProblem('::ffff:a9fe:a9fe')).toBeDefined();
  expect(internalAddressProblem('10.1.2.3')).toBeUndefined();
  expect(internalAddressProblem('::ffff:10.1.2.3')).toBeUndefined();
});
