// Where a connection comes from, as the host's caps count it.

import { describe, expect, it } from 'vitest';
import { clientNetwork, isLoopbackAddress, NetworkCounts } from '../../../../main/web-host/connection-limits.ts';

describe('the networks connections are counted by', () => {
  it('counts an IPv6 address by its /64, however it is written, and an IPv4 address (mapped too) by itself', () => {
    expect(clientNetwork('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(clientNetwork('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(clientNetwork('2001:DB8:1:2:0:0:0:9%eth0')).toBe('2001:db8:1:2::/64');
    expect(clientNetwork('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(clientNetwork('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(clientNetwork('::ffff:c000:207')).toBe('192.0.2.7');
    expect(clientNetwork('192.0.2.7')).toBe('192.0.2.7');
  });

  it('one /64 holds no more connections than one address, whatever addresses it uses; loopback is not counted here', () => {
    const counts = new NetworkCounts(64);
    const admitted = Array.from({ length: 100 }, (_, i) => counts.admit(`2001:db8:1:2::${(i + 1).toString(16)}`));
    expect(admitted.filter(Boolean)).toHaveLength(64);
    expect(counts.admit('2001:db8:1:3::1')).toBe(true);
    counts.release('2001:db8:1:2::1');
    expect(counts.admit('2001:db8:1:2:aaaa::1')).toBe(true);
    expect(counts.admit('2001:db8:1:2:bbbb::1')).toBe(false);
    for (let i = 0; i < 100; i++) expect(counts.admit('::1')).toBe(true);
  });

  it('knows loopback in every form', () => {
    for (const address of ['127.0.0.1', '127.9.8.7', '::1', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1']) expect(isLoopbackAddress(address)).toBe(true);
    for (const address of ['10.0.0.1', '::', '::2', '2001:db8::1', '::ffff:10.0.0.1', '']) expect(isLoopbackAddress(address)).toBe(false);
  });
});
