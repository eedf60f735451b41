import { describe, expect, it } from 'vitest';
import { canonicalAddress, embeddedIpv4, parseIpv4, parseIpv6 } from '../../../src/ip-address.ts';

describe('parseIpv4', () => {
  it('reads a dotted address, and nothing else', () => {
    expect(parseIpv4('169.254.169.254')).toEqual([169, 254, 169, 254]);
    for (const text of ['1.2.3', '1.2.3.4.5', '256.1.1.1', '01.2.3.4', '1.2.3.x', '', '::1'])
      expect(parseIpv4(text), text).toBeUndefined();
  });
});

describe('parseIpv6', () => {
  it('reads every spelling of one address to the same groups', () => {
    const metadata = [0, 0, 0, 0, 0, 0xffff, 0xa9fe, 0xa9fe];
    for (const text of [
      '::ffff:a9fe:a9fe',
      '::FFFF:169.254.169.254',
      '[::ffff:a9fe:a9fe]',
      '0:0:0:0:0:ffff:a9fe:a9fe',
      '0000:0000:0000:0000:0000:ffff:a9fe:a9fe',
    ]) {
      expect(parseIpv6(text), text).toEqual(metadata);
    }
    expect(parseIpv6('::')).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect(parseIpv6('fe80::1%eth0')).toEqual([0xfe80, 0, 0, 0, 0, 0, 0, 1]);
    expect(parseIpv6('1::')).toEqual([1, 0, 0, 0, 0, 0, 0, 0]);
  });

  it('refuses what is no IPv6 address', () => {
    for (const text of [
      '',
      '1.2.3.4',
      ':::',
      '1::2::3',
      '1:2:3:4:5:6:7:8:9',
      '1:2:3:4:5:6:7',
      '12345::',
      '::g',
      '::1.2.3.256',
      'example.com',
    ]) {
      expect(parseIpv6(text), text).toBeUndefined();
    }
  });
});

describe('embeddedIpv4', () => {
  it.each([
    ['::ffff:a9fe:a9fe', 'mapped'],
    ['::ffff:0:a9fe:a9fe', 'translated'],
    ['::169.254.169.254', 'compatible'],
    ['64:ff9b::a9fe:a9fe', 'nat64'],
    ['64:ff9b:1::a9fe:a9fe', 'nat64-local'],
    ['64:ff9b:1:abcd::169.254.169.254', 'nat64-local'],
    ['2002:a9fe:a9fe::1', '6to4'],
    // Teredo: server 65.54.227.120, client 169.254.169.254 with every bit inverted.
    ['2001:0:4136:e378:8000:63bf:5601:5601', 'teredo'],
  ])('finds 169.254.169.254 in %s (%s)', (text, embedding) => {
    expect(embeddedIpv4(parseIpv6(text)!)).toEqual({ ipv4: '169.254.169.254', embedding });
  });

  it('finds none in an address that carries none', () => {
    for (const text of ['2001:db8::1', 'fe80::1', '2600:1f18::1', '64:ff9b:2::1'])
      expect(embeddedIpv4(parseIpv6(text)!), text).toBeUndefined();
  });
});

describe('canonicalAddress', () => {
  it('spells every form a socket dials as one host the same way', () => {
    expect(canonicalAddress('11.0.0.1')).toBe('11.0.0.1');
    for (const same of ['::ffff:11.0.0.1', '::ffff:b00:1', '[::ffff:0:b00:1]', '::11.0.0.1'])
      expect(canonicalAddress(same)).toBe('11.0.0.1');
    expect(canonicalAddress('2A01:4F8:1:2::3')).toBe(canonicalAddress('2a01:04f8:0001:0002:0:0:0:3'));
  });

  it('keeps forms that reach the IPv4 address through a relay apart from it (NAT64, 6to4), and what is no address', () => {
    expect(canonicalAddress('64:ff9b::b00:1')).not.toBe('11.0.0.1');
    expect(canonicalAddress('2002:b00:1::')).not.toBe('11.0.0.1');
    expect(canonicalAddress('example.com')).toBeUndefined();
  });
});
