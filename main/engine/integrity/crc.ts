// The CRCs S3 computes (CRC32, CRC32C, CRC64NVME) as running hashers, and CRC combination: a whole
// object's CRC from its parts' CRCs, without reading it again. Algorithms only (and the loading of
// the native CRC32C): the S3 formats they travel in (base64 headers, composite checksums, ETags)
// are in checksums.ts.
//
// Speed matters: the engine is CPU-bound, and every byte sent or received is hashed once.
// - CRC32 is zlib's native crc32 (Node >= 22.2): 1,700-3,300 MB/s.
// - CRC32C is @node-rs/crc32's (Rust, SSE4.2/ARMv8 CRC instructions, prebuilt for every desktop
//   platform, Node-API so Electron loads it unchanged): 4,200-4,900 MB/s on this machine, against
//   1,100-1,400 MB/s for the JavaScript below: a GiB hashed costs ~0.2 CPU-s instead of ~0.65, on
//   top of Node's ~1.9 CPU-s for receiving and writing it. The JavaScript stays as the fallback
//   (see loadNativeCrc32c).
// - CRC64NVME has no native code in Node, and CRC32C none without that package, so they are
//   table-driven JavaScript, slicing by 16 bytes, reading the data as 32-bit words: CRC32C
//   800-1,400 MB/s, CRC64NVME 550-1,000 MB/s, against 250-300 and 170-270 MB/s for the SDK's
//   JavaScript (measured on a 64 MiB buffer in 1 MiB chunks, Xeon, Node 24; this machine's speed
//   swings by up to 2x between runs, zlib's too; tests/bench/checksum-speed.ts). What made the difference: Int32Array
//   tables (Uint32Array
//   values above 2^31 become heap numbers), one flat table instead of sixteen, word reads instead
//   of byte reads. A hand-written WebAssembly version of the same loops was no faster for CRC32C
//   and about 15% faster for CRC64NVME: not worth its weight. CRC64NVME keeps its state as two
//   32-bit halves: BigInt is far too slow for the data path.
//   aws-crt's native CRC64NVME is only 1.6x this JavaScript, for 44 MB of package: not taken.
//   So where a store takes any CRC, CRC32 and CRC32C cost the least CPU.
//
// A digest is the big-endian bytes of the CRC.

import { createRequire } from 'node:module';
import { crc32 } from 'node:zlib';

export type CrcAlgorithm = 'CRC32' | 'CRC32C' | 'CRC64NVME';

/** A running checksum. `digest` ends it: no update after. */
export interface Hasher {
  update(chunk: Uint8Array): void;
  /** The checksum's bytes (big-endian for a CRC), as S3 base64-encodes them. */
  digest(): Buffer;
}

export function createCrcHasher(algorithm: CrcAlgorithm): Hasher {
  switch (algorithm) {
    case 'CRC32':
      return new Crc32Hasher();
    case 'CRC32C':
      return new Crc32cHasher(nativeCrc32c());
    case 'CRC64NVME':
      return new Crc64NvmeHasher();
  }
}

// ---------------------------------------------------------------------------------------------
// CRC32: zlib's.

class Crc32Hasher implements Hasher {
  private value = 0;
  update(chunk: Uint8Array): void {
    // Node 24.9's crc32 answers 0, whatever the running value, for an empty view of an empty
    // ArrayBuffer (`new Uint8Array(0).subarray(0)`): zlib's crc32 returns 0 for a null buffer.
    if (chunk.length === 0) return;
    this.value = crc32(chunk, this.value);
  }
  digest(): Buffer {
    const out = Buffer.allocUnsafe(4);
    out.writeUInt32BE(this.value >>> 0);
    return out;
  }
}

// ---------------------------------------------------------------------------------------------
// CRC32C (Castagnoli), reflected polynomial 0x82F63B78, slicing by 16.

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
/** Below this many bytes the word loop's setup costs more than it saves. */
const WORD_LOOP_MIN_BYTES = 64;

/** 16 tables of 256 one after another: table k advances a byte through k more zero bytes. */
function crc32Tables(poly: number): Int32Array {
  const t = new Int32Array(16 * 256);
  for (let i = 0; i < 256; i++) {
    let c = i;
    for (let j = 0; j < 8; j++) c = c & 1 ? (c >>> 1) ^ poly : c >>> 1;
    t[i] = c;
  }
  for (let i = 256; i < t.length; i++) {
    const previous = t[i - 256] ?? 0;
    t[i] = (previous >>> 8) ^ (t[previous & 255] ?? 0);
  }
  return t;
}

const C32 = crc32Tables(0x82f63b78);

/** Advance a (pre-inverted) CRC32C over data[start, end) a byte at a time. */
function crc32cBytes(crc: number, data: Uint8Array, start: number, end: number): number {
  const t = C32;
  for (let i = start; i < end; i++) crc = (crc >>> 8) ^ (t[(crc ^ (data[i] as number)) & 255] as number);
  return crc;
}

function crc32cUpdate(crc: number, data: Uint8Array): number {
  const length = data.length;
  if (length < WORD_LOOP_MIN_BYTES || !LITTLE_ENDIAN) return crc32cBytes(crc, data, 0, length);
  // Bytes up to a 4-byte boundary, so the rest can be read as aligned 32-bit words.
  const head = (4 - (data.byteOffset & 3)) & 3;
  crc = crc32cBytes(crc, data, 0, head);
  const blocks = (length - head) >>> 4;
  const words = new Int32Array(data.buffer, data.byteOffset + head, blocks * 4);
  const t = C32;
  for (let j = 0; j < words.length; j += 4) {
    const a = crc ^ (words[j] as number);
    const b = words[j + 1] as number;
    const c = words[j + 2] as number;
    const d = words[j + 3] as number;
    crc =
      (t[3840 + (a & 255)] as number) ^
      (t[3584 + ((a >>> 8) & 255)] as number) ^
      (t[3328 + ((a >>> 16) & 255)] as number) ^
      (t[3072 + (a >>> 24)] as number) ^
      (t[2816 + (b & 255)] as number) ^
      (t[2560 + ((b >>> 8) & 255)] as number) ^
      (t[2304 + ((b >>> 16) & 255)] as number) ^
      (t[2048 + (b >>> 24)] as number) ^
      (t[1792 + (c & 255)] as number) ^
      (t[1536 + ((c >>> 8) & 255)] as number) ^
      (t[1280 + ((c >>> 16) & 255)] as number) ^
      (t[1024 + (c >>> 24)] as number) ^
      (t[768 + (d & 255)] as number) ^
      (t[512 + ((d >>> 8) & 255)] as number) ^
      (t[256 + ((d >>> 16) & 255)] as number) ^
      (t[d >>> 24] as number);
  }
  return crc32cBytes(crc, data, head + blocks * 16, length);
}

/** CRC32C's running value as zlib's crc32 keeps it: crc32c(data, crc of what came before). */
export type Crc32cFunction = (data: Uint8Array, previous: number) => number;

/** The JavaScript CRC32C, in the shape of the native one. */
export const javascriptCrc32c: Crc32cFunction = (data, previous) => ~crc32cUpdate(~previous, data) >>> 0;

/**
 * The native CRC32C, or undefined: then the JavaScript above is used.
 *
 * It can be missing: a platform @node-rs/crc32 ships no binary for (its binaries are optional
 * dependencies, installed for the platform npm runs on), a packaged app built without it, a
 * binary the system refuses to load. BARGE_NO_NATIVE=1 forces the fallback: to compare the two,
 * and to rule the native code out when a checksum looks wrong. A native function that does not
 * give the standard check value is refused: a byte is never proven by a broken hasher.
 *
 * Loaded with require at the first CRC32C, not imported: a `.node` file cannot be bundled (the
 * build keeps the package external, and app/dist resolves it from node_modules at run time), and
 * a command that never hashes never pays the few milliseconds of loading it.
 */
export function loadNativeCrc32c(
  load: (id: string) => unknown = createRequire(import.meta.url),
  env: NodeJS.ProcessEnv = process.env,
): Crc32cFunction | undefined {
  if (env.BARGE_NO_NATIVE && env.BARGE_NO_NATIVE !== '0') return undefined;
  let candidate: unknown;
  try {
    candidate = (load('@node-rs/crc32') as { crc32c?: unknown } | undefined)?.crc32c;
  } catch {
    return undefined;
  }
  if (typeof candidate !== 'function') return undefined;
  const native = candidate as Crc32cFunction;
  try {
    return native(CHECK_INPUT, 0) === CRC32C_CHECK ? native : undefined;
  } catch {
    return undefined;
  }
}

/** CRC32C("123456789"), the check value of the catalogue of CRCs. */
const CRC32C_CHECK = 0xe3069283;
const CHECK_INPUT = new TextEncoder().encode('123456789');

let loaded: { readonly crc32c: Crc32cFunction | undefined } | undefined;

/** The native CRC32C if it loads (tried once per process), else undefined. */
export function nativeCrc32c(): Crc32cFunction | undefined {
  loaded ??= { crc32c: loadNativeCrc32c() };
  return loaded.crc32c;
}

/** A CRC32C hasher over the given implementation (the native one, the JavaScript one by default). */
export function createCrc32cHasher(implementation: Crc32cFunction = javascriptCrc32c): Hasher {
  return new Crc32cHasher(implementation);
}

class Crc32cHasher implements Hasher {
  private crc = 0;
  private readonly update32c: Crc32cFunction;
  constructor(implementation: Crc32cFunction | undefined) {
    this.update32c = implementation ?? javascriptCrc32c;
  }
  update(chunk: Uint8Array): void {
    // As zlib's crc32, a native crc32c may answer 0 for an empty view of an empty buffer.
    if (chunk.length === 0) return;
    this.crc = this.update32c(chunk, this.crc);
  }
  digest(): Buffer {
    const out = Buffer.allocUnsafe(4);
    out.writeUInt32BE(this.crc >>> 0);
    return out;
  }
}

// ---------------------------------------------------------------------------------------------
// CRC64NVME (the CRC-64/NVME of the NVMe spec, "CRC64NVME" in S3), reflected polynomial
// 0x9A6C9329AC4BC9B5, slicing by 16. The state is two 32-bit halves, lo and hi.

const P64_HI = 0x9a6c9329 | 0;
const P64_LO = 0xac4bc9b5 | 0;

/** Low and high halves of 16 tables of 256, laid out as crc32Tables'. */
function crc64Tables(): { lo: Int32Array; hi: Int32Array } {
  const lo = new Int32Array(16 * 256);
  const hi = new Int32Array(16 * 256);
  for (let i = 0; i < 256; i++) {
    let l = i;
    let h = 0;
    for (let j = 0; j < 8; j++) {
      const bit = l & 1;
      l = (l >>> 1) | (h << 31);
      h >>>= 1;
      if (bit) {
        l ^= P64_LO;
        h ^= P64_HI;
      }
    }
    lo[i] = l;
    hi[i] = h;
  }
  for (let i = 256; i < lo.length; i++) {
    const l = lo[i - 256] ?? 0;
    const h = hi[i - 256] ?? 0;
    const index = l & 255;
    lo[i] = ((l >>> 8) | (h << 24)) ^ (lo[index] ?? 0);
    hi[i] = (h >>> 8) ^ (hi[index] ?? 0);
  }
  return { lo, hi };
}

const C64 = crc64Tables();

class Crc64NvmeHasher implements Hasher {
  private lo = -1;
  private hi = -1;

  update(data: Uint8Array): void {
    const length = data.length;
    if (length < WORD_LOOP_MIN_BYTES || !LITTLE_ENDIAN) {
      this.bytes(data, 0, length);
      return;
    }
    const head = (4 - (data.byteOffset & 3)) & 3;
    this.bytes(data, 0, head);
    const blocks = (length - head) >>> 4;
    const words = new Int32Array(data.buffer, data.byteOffset + head, blocks * 4);
    const tl = C64.lo;
    const th = C64.hi;
    let lo = this.lo;
    let hi = this.hi;
    for (let j = 0; j < words.length; j += 4) {
      const a = lo ^ (words[j] as number);
      const b = hi ^ (words[j + 1] as number);
      const c = words[j + 2] as number;
      const d = words[j + 3] as number;
      const a0 = 3840 + (a & 255),
        a1 = 3584 + ((a >>> 8) & 255),
        a2 = 3328 + ((a >>> 16) & 255),
        a3 = 3072 + (a >>> 24);
      const b0 = 2816 + (b & 255),
        b1 = 2560 + ((b >>> 8) & 255),
        b2 = 2304 + ((b >>> 16) & 255),
        b3 = 2048 + (b >>> 24);
      const c0 = 1792 + (c & 255),
        c1 = 1536 + ((c >>> 8) & 255),
        c2 = 1280 + ((c >>> 16) & 255),
        c3 = 1024 + (c >>> 24);
      const d0 = 768 + (d & 255),
        d1 = 512 + ((d >>> 8) & 255),
        d2 = 256 + ((d >>> 16) & 255),
        d3 = d >>> 24;
      lo =
        (tl[a0] as number) ^
        (tl[a1] as number) ^
        (tl[a2] as number) ^
        (tl[a3] as number) ^
        (tl[b0] as number) ^
        (tl[b1] as number) ^
        (tl[b2] as number) ^
        (tl[b3] as number) ^
        (tl[c0] as number) ^
        (tl[c1] as number) ^
        (tl[c2] as number) ^
        (tl[c3] as number) ^
        (tl[d0] as number) ^
        (tl[d1] as number) ^
        (tl[d2] as number) ^
        (tl[d3] as number);
      hi =
        (th[a0] as number) ^
        (th[a1] as number) ^
        (th[a2] as number) ^
        (th[a3] as number) ^
        (th[b0] as number) ^
        (th[b1] as number) ^
        (th[b2] as number) ^
        (th[b3] as number) ^
        (th[c0] as number) ^
        (th[c1] as number) ^
        (th[c2] as number) ^
        (th[c3] as number) ^
        (th[d0] as number) ^
        (th[d1] as number) ^
        (th[d2] as number) ^
        (th[d3] as number);
    }
    this.lo = lo;
    this.hi = hi;
    this.bytes(data, head + blocks * 16, length);
  }

  digest(): Buffer {
    const out = Buffer.allocUnsafe(8);
    out.writeUInt32BE(~this.hi >>> 0, 0);
    out.writeUInt32BE(~this.lo >>> 0, 4);
    return out;
  }

  private bytes(data: Uint8Array, start: number, end: number): void {
    const tl = C64.lo;
    const th = C64.hi;
    let lo = this.lo;
    let hi = this.hi;
    for (let i = start; i < end; i++) {
      const index = (lo ^ (data[i] as number)) & 255;
      lo = ((lo >>> 8) | (hi << 24)) ^ (tl[index] as number);
      hi = (hi >>> 8) ^ (th[index] as number);
    }
    this.lo = lo;
    this.hi = hi;
  }
}

// ---------------------------------------------------------------------------------------------
// Combining CRCs: crc(A + B) from crc(A), crc(B) and B's length, as zlib's crc32_combine does it:
// crc(A + B) = crc(A) * x^(8 * |B|) + crc(B) in GF(2)[x] modulo the polynomial. The cost is a few
// dozen polynomial products, whatever the lengths. Reflected bit order throughout: the top bit is
// x^0. BigInt is fine here: this runs once per part, not per byte.

interface CrcField {
  readonly width: bigint;
  readonly poly: bigint;
  /** x^(2^k) modulo the polynomial, for k = 0, 1, ... (grown on demand). */
  readonly powers: bigint[];
  /** The last shift operator made, by length: a multipart upload's parts are mostly of one size. */
  last: { bytes: number; operator: bigint } | undefined;
}

const FIELDS: Readonly<Record<CrcAlgorithm, CrcField>> = {
  CRC32: field(32n, 0xedb88320n),
  CRC32C: field(32n, 0x82f63b78n),
  CRC64NVME: field(64n, 0x9a6c9329ac4bc9b5n),
};

function field(width: bigint, poly: bigint): CrcField {
  return { width, poly, powers: [1n << (width - 2n)], last: undefined };
}

/** a(x) * b(x) modulo the polynomial. */
function multiply(f: CrcField, a: bigint, b: bigint): bigint {
  let product = 0n;
  for (let m = 1n << (f.width - 1n); m !== 0n; m >>= 1n) {
    if (a & m) {
      product ^= b;
      if ((a & (m - 1n)) === 0n) break;
    }
    b = b & 1n ? (b >> 1n) ^ f.poly : b >> 1n;
  }
  return product;
}

/** x^(8 * bytes) modulo the polynomial. */
function shiftOperator(f: CrcField, bytes: number): bigint {
  if (f.last?.bytes === bytes) return f.last.operator;
  let result = 1n << (f.width - 1n);
  // Bit k of the length (in bits) stands for x^(2^k); bytes are 8 = 2^3 bits.
  let n = BigInt(bytes);
  for (let k = 3; n !== 0n; k++, n >>= 1n) {
    while (f.powers.length <= k) {
      const last = f.powers[f.powers.length - 1] as bigint;
      f.powers.push(multiply(f, last, last));
    }
    if (n & 1n) result = multiply(f, f.powers[k] as bigint, result);
  }
  f.last = { bytes, operator: result };
  return result;
}

function digestToBigInt(digest: Uint8Array): bigint {
  let value = 0n;
  for (const byte of digest) value = (value << 8n) | BigInt(byte);
  return value;
}

function bigIntToDigest(value: bigint, width: bigint): Buffer {
  const out = Buffer.alloc(Number(width / 8n));
  for (let i = out.length - 1; i >= 0; i--, value >>= 8n) out[i] = Number(value & 0xffn);
  return out;
}

/** crc(A + B), given crc(A), crc(B) (digests, as createHasher gives them) and the length of B in bytes. */
export function combineCrc(algorithm: CrcAlgorithm, crcA: Uint8Array, crcB: Uint8Array, lengthB: number): Buffer {
  if (!Number.isSafeInteger(lengthB) || lengthB < 0) throw new RangeError(`Not a length: ${lengthB}`);
  const f = FIELDS[algorithm];
  const combined = multiply(f, shiftOperator(f, lengthB), digestToBigInt(crcA)) ^ digestToBigInt(crcB);
  return bigIntToDigest(combined, f.width);
}

/**
 * The CRC of a whole object from its parts' CRCs and sizes, in order: what S3 reports as a
 * FULL_OBJECT checksum of a multipart upload.
 */
export function fullObjectCrc(
  algorithm: CrcAlgorithm,
  parts: readonly { readonly digest: Uint8Array; readonly size: number }[],
): Buffer {
  let crc = createCrcHasher(algorithm).digest();
  for (const part of parts) crc = combineCrc(algorithm, crc, part.digest, part.size);
  return crc;
}
