// node tests/bench/checksum-speed.ts: the throughput of each checksum in main/engine/integrity/checksums.ts,
// on a 64 MiB buffer fed in 1 MiB chunks (as a part streams from disk). CRC32C twice: native
// (@node-rs/crc32, what the engine uses when it loads) and the JavaScript fallback. Each takes
// CHECKSUM_ROUNDS turns (default 7), interleaved with the others; the first two are warm-up and
// the median of the rest is reported. Figures, not assertions.

import { randomFillSync } from 'node:crypto';
import { createHasher } from '../../main/engine/integrity/checksums.ts';
import type { ChecksumAlgorithm, Hasher } from '../../main/engine/integrity/checksums.ts';
import { createCrc32cHasher, javascriptCrc32c, nativeCrc32c } from '../../main/engine/integrity/crc.ts';

const SIZE = 64 * 1024 * 1024;
const CHUNK = Number(process.env.CHECKSUM_CHUNK ?? 1024 * 1024);
const ROUNDS = Math.max(3, Number(process.env.CHECKSUM_ROUNDS ?? 7));
const ALGORITHMS: readonly ChecksumAlgorithm[] = ['CRC32', 'CRC32C', 'CRC64NVME', 'MD5', 'SHA1', 'SHA256'];
const native = nativeCrc32c();
const HASHERS = new Map<string, () => Hasher>([
  ...ALGORITHMS.map((algorithm): [string, () => Hasher] => [
    algorithm === 'CRC32C' ? `CRC32C ${native ? 'native' : '(native did not load: JavaScript)'}` : algorithm,
    () => createHasher(algorithm),
  ]),
  ['CRC32C JavaScript', () => createCrc32cHasher(javascriptCrc32c)],
]);

const data = randomFillSync(Buffer.alloc(SIZE));
const rates = new Map<string, number[]>([...HASHERS.keys()].map((name) => [name, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, create] of HASHERS) {
    const start = performance.now();
    const hasher = create();
    for (let offset = 0; offset < SIZE; offset += CHUNK) hasher.update(data.subarray(offset, offset + CHUNK));
    hasher.digest();
    const seconds = (performance.now() - start) / 1000;
    if (round >= 2) rates.get(name)?.push(SIZE / 1024 / 1024 / seconds);
  }
}
console.log(
  `64 MiB in ${CHUNK / 1024} KiB chunks, median of ${ROUNDS - 2} rounds (Node ${process.version}, ${process.arch}):`,
);
for (const [name, values] of rates) {
  const sorted = [...values].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
  console.log(
    `  ${name.padEnd(18)} ${median.toFixed(0).padStart(6)} MB/s   (range ${sorted[0]?.toFixed(0)}-${sorted.at(-1)?.toFixed(0)})`,
  );
}
