import { describe, expect, it } from 'vitest';
import { createCrc32cHasher, javascriptCrc32c, loadNativeCrc32c } from '../../../../../main/engine/integrity/crc.ts';
import type { Crc32cFunction } from '../../../../../main/engine/integrity/crc.ts';
import { seededRandom } from '../../../../support/seeded-random.ts';

/** Feed data in random pieces (empty ones too), each a view at a random offset of its own buffer. */
function hashInPieces(implementation: Crc32cFunction, data: Uint8Array, next: () => number): string {
  const hasher = createCrc32cHasher(implementation);
  for (let offset = 0; offset < data.length;) {
    const size = next() < 0.1 ? 0 : Math.floor(next() * Math.min(data.length - offset, next() < 0.5 ? 40 : 70_000)) + 1;
    const shift = Math.floor(next() * 8);
    const copy = new Uint8Array(size + shift + 3);
    copy.set(data.subarray(offset, offset + size), shift);
    hasher.update(copy.subarray(shift, shift + size));
    offset += size;
  }
  return hasher.digest().toString('hex');
}

const native = loadNativeCrc32c();

describe('CRC32C, native and JavaScript', () => {
  // The package is a dependency, with a binary for every platform the project builds on: missing
  // here, it is a broken install, not a reason to test only half.
  it('loads the native CRC32C from @node-rs/crc32', () => {
    expect(native).toBeTypeOf('function');
  });

  it('gives the check value both ways', () => {
    const check = new TextEncoder().encode('123456789');
    for (const implementation of [native!, javascriptCrc32c]) {
      const hasher = createCrc32cHasher(implementation);
      hasher.update(check);
      expect(hasher.digest().toString('hex')).toBe('e3069283');
      expect(createCrc32cHasher(implementation).digest().toString('hex')).toBe('00000000');
    }
  });

  it('gives identical digests on random data in random chunks', () => {
    const next = seededRandom(32);
    for (let round = 0; round < 40; round++) {
      const data = new Uint8Array(Math.floor(next() * (round < 20 ? 300 : 400_000)));
      for (let i = 0; i < data.length; i++) data[i] = Math.floor(next() * 256);
      const whole = createCrc32cHasher(javascriptCrc32c);
      whole.update(data);
      const expected = whole.digest().toString('hex');
      expect(hashInPieces(native!, data, next)).toBe(expected);
      expect(hashInPieces(javascriptCrc32c, data, next)).toBe(expected);
    }
  });
});

describe('loadNativeCrc32c', () => {
  it('falls back to JavaScript when the module is absent', () => {
    const missing = (): never => {
      throw Object.assign(new Error("Cannot find module '@node-rs/crc32'"), { code: 'MODULE_NOT_FOUND' });
    };
    expect(loadNativeCrc32c(missing, {})).toBeUndefined();
  });

  it('falls back when the module has no crc32c, or one that gives wrong answers or throws', () => {
    expect(loadNativeCrc32c(() => ({}), {})).toBeUndefined();
    expect(loadNativeCrc32c(() => undefined, {})).toBeUndefined();
    expect(loadNativeCrc32c(() => ({ crc32c: () => 0 }), {})).toBeUndefined();
    expect(
      loadNativeCrc32c(
        () => ({
          crc32c: () => {
            throw new Error('bad binary');
          },
        }),
        {},
      ),
    ).toBeUndefined();
  });

  it('takes a working module, unless BARGE_NO_NATIVE is set', () => {
    const loader = (): unknown => ({ crc32c: javascriptCrc32c });
    expect(loadNativeCrc32c(loader, {})).toBe(javascriptCrc32c);
    expect(loadNativeCrc32c(loader, { BARGE_NO_NATIVE: '0' })).toBe(javascriptCrc32c);
    expect(loadNativeCrc32c(loader, { BARGE_NO_NATIVE: '1' })).toBeUndefined();
    expect(
      loadNativeCrc32c(
        () => {
          throw new Error('not asked');
        },
        { BARGE_NO_NATIVE: '1' },
      ),
    ).toBeUndefined();
  });

  it('asks for @node-rs/crc32', () => {
    const asked: string[] = [];
    loadNativeCrc32c((id) => {
      asked.push(id);
      return undefined;
    }, {});
    expect(asked).toEqual(['@node-rs/crc32']);
  });
});
