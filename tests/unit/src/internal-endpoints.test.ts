import { expect, it } from 'vitest';
import { internalAddressProblem, internalEndpointProblem } from '../../../src/internal-endpoints.ts';

it('names metadata services, link-local, loopback, private and unspecified addresses, and passes public stores', () => {
  for (const endpoint of [
    'http://169.254.169.254',
    'http://169.254.170.2/v2',
    'http://metadata.google.internal',
    'http://100.100.100.200',
    'http://[fd00:ec2::254]',
    'http://[fe80::1]:9000',
    'http://[::ffff:169.254.169.254]',
    'http://[::ffff:a9fe:a9fe]',
    'http://[64:ff9b::169.254.169.254]',
    'http://192.0.0.192',
    'not a url',
    // Loopback, private ranges and unspecified addresses: a network's own services.
    'http://127.0.0.1:9000',
    'http://127.9.9.9',
    'http://2130706433',
    'http://0x7f.1',
    'http://[::1]:9000',
    'http://localhost:9000',
    'http://minio.localhost',
    'http://10.0.0.5:9000',
    'http://172.16.0.1',
    'http://172.31.255.255',
    'http://192.168.1.10',
    'http://100.64.0.1',
    'http://100.127.255.255',
    'http://0.0.0.0:9000',
    'http://[::]:9000',
    'http://[fc00::1]',
    'http://[fd12:3456::1]',
    'http://224.0.0.1',
    'http://255.255.255.255',
  ]) {
    expect(internalEndpointProblem(endpoint), endpoint).toBeDefined();
  }
  for (const endpoint of [
    'https://s3.eu-west-1.amazonaws.com',
    'https://minio.example.com',
    'http://52.216.0.1:9000',
    'http://172.32.0.1',
    'http://100.128.0.1',
    'http://[2600:1f18::1]',
  ]) {
    expect(internalEndpointProblem(endpoint), endpoint).toBeUndefined();
  }
});

it('names the metadata address in every IPv6 form that carries an IPv4 address', () => {
  for (const address of [
    '169.254.169.254',
    '::ffff:a9fe:a9fe',
    '::ffff:0:a9fe:a9fe',
    '[::ffff:0:a9fe:a9fe]',
    '64:ff9b::a9fe:a9fe',
    '64:ff9b:1::a9fe:a9fe',
    '[64:ff9b:1::a9fe:a9fe]',
    '2002:a9fe:a9fe::',
    '::169.254.169.254',
    '2001:0:4136:e378:8000:63bf:5601:5601',
  ]) {
    expect(internalAddressProblem(address), address).toMatch(/169\.254\.169\.254|metadata|NAT64/);
  }
  expect(internalAddressProblem('::ffff:0:a9fe:a9fe')).toBe(
    '::ffff:0:a9fe:a9fe carries 169.254.169.254, a link-local address (cloud metadata services live there)',
  );
  expect(internalAddressProblem('::ffff:10.1.2.3')).toBe(
    "::ffff:10.1.2.3 carries 10.1.2.3, a private address (a network's own services)",
  );
  expect(internalAddressProblem('2002:0a01:0203::1')).toMatch(/carries 10\.1\.2\.3/);
  // A public address, however it is carried, is a public address.
  for (const address of ['52.216.0.1', '::ffff:52.216.0.1', '64:ff9b::34d8:1', '2002:34d8:1::1', '2600:1f18::1'])
    expect(internalAddressProblem(address), address).toBeUndefined();
});
