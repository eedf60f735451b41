// One object copied between two connections (two stores, or two accounts): neither store can read
// the other, so its bytes pass through the engine.
//
// Each part (of the part size) is one ranged GET from the source, then one UploadPart to the
// destination (one PUT for an object of one part), `partsInFlight` parts at once: a part is held only
// between its GET and its PUT, and takes its bytes of the job's `partSlots` budget for that time, so
// memory stays within that budget (queue/part-slots.ts), however many objects are copied side by side.
// Every byte passes the engine's gate twice: down from the source, up to the destination. Each part
// goes with its Content-MD5, which the destination checks; the bytes read are checked against the
// source's own whole-object CRC (the parts' CRCs, computed as they pass, combined), else its ETag
// where that is the MD5 of the bytes, or a multipart ETag (the source is then read in its own parts,
// source-part-layout.ts, to make it again); else only their size is known. Metadata, content headers,
// tags and storage class are the source's. Parts are reported as they are sent (`progress`), so a copy
// stopped half-way goes on from the first part not sent.

import { createHash } from 'node:crypto';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import { choosePartSize, partCount, partRange } from '../../../src/part-size.ts';
import type { Verification } from '../../../src/verification.ts';
import { bareEtag, checksumOf, multipartEtag } from '../integrity/checksums.ts';
import { fullObjectCrc } from '../integrity/crc.ts';
import type { CrcAlgorithm } from '../integrity/crc.ts';
import { wholeObjectChecksum } from '../integrity/copy-verification.ts';
import { concurrentEach } from '../queue/concurrent-each.ts';
import { BargeError, errorCode } from '../errors.ts';
import { failOnMismatch, headersOf, sourceTags, storageClassOf, tagging } from './object-copy.ts';
import type { CopyOutcome, CopyRequests, CopySource, EarlierUpload, ObjectPlace, SentPart } from './object-copy.ts';
import type { S3Connection } from './s3-connection.ts';
import { sourcePartSize } from './source-part-layout.ts';
import { onSource } from './source-side.ts';

const CRCS: readonly string[] = ['CRC32', 'CRC32C', 'CRC64NVME'];

/** What each part came to: its MD5 (the destination checks it) and, where the source has one, its CRC. */
interface PartDigest {
  readonly md5: Buffer;
  readonly crc: Buffer | undefined;
  readonly size: number;
}

/** Copy `source` (read on `from`) to `target` on `to`, streaming its bytes through the engine. */
export async function streamCopyObject(
  from: S3Connection,
  source: CopySource,
  to: S3Connection,
  target: ObjectPlace,
  requests: CopyRequests,
): Promise<CopyOutcome> {
  const crc = wholeObjectChecksum(source.checksum);
  const crcAlgorithm = crc && CRCS.includes(crc.algorithm) ? (crc.algorithm as CrcAlgorithm) : undefined;
  // Without a CRC, a multipart ETag is checked by reading the source in its own parts (source-part-layout.ts).
  const sourceLayout = crcAlgorithm ? undefined : await sourcePartSize(from, source, requests);
  const partSize = sourceLayout ?? choosePartSize(source.size, requests.partSizeBytes);
  const tags = await sourceTags(from, source, requests);
  const fields = {
    ...headersOf(source.head, {}),
    ...(Object.keys(tags).length > 0 ? { Tagging: tagging(tags) } : {}),
    ...storageClassOf(source.head, {}),
  };
  const readPart = (partNumber: number, into: Buffer | undefined) =>
    readRange(from, source, partSize, partNumber, requests, into);
  const digest = (bytes: Buffer): PartDigest => ({
    md5: createHash('md5').update(bytes).digest(),
    crc: crcAlgorithm ? checksumOf(crcAlgorithm, bytes) : undefined,
    size: bytes.length,
  });
  const plan: StreamedPartsPlan = { partSize, fields, readPart, digest, crcAlgorithm, sourceLayout: !!sourceLayout };
  if (partCount(source.size, partSize) === 1) {
    await abortEarlier(to, target, requests);
    return held(requests, source.size, (into) => copyInOnePut(to, source, target, requests, plan, into));
  }
  return copyInStreamedParts(to, source, target, requests, plan).catch((error: unknown) => {
    // The earlier run's upload is gone (aborted, or expired by a lifecycle rule): begin a new one.
    const progress = requests.progress;
    if (!progress?.earlier || errorCode(error) !== 'NoSuchUpload') throw error;
    progress.ended(progress.earlier.uploadId);
    const afresh = { ...requests, progress: { ...progress, earlier: undefined } };
    return copyInStreamedParts(to, source, target, afresh, plan);
  });
}

/** `work` holding `bytes` of the job's memory budget for parts (in the buffer it lends), where the job keeps one. */
function held<T>(requests: CopyRequests, bytes: number, work: (into: Buffer | undefined) => Promise<T>): Promise<T> {
  return requests.partSlots ? requests.partSlots.run(bytes, work) : work(undefined);
}

/** An object of one part: one GET, one PUT. */
async function copyInOnePut(
  to: S3Connection,
  source: CopySource,
  target: ObjectPlace,
  requests: CopyRequests,
  plan: StreamedPartsPlan,
  into: Buffer | undefined,
): Promise<CopyOutcome> {
  const bytes = await plan.readPart(1, into);
  const part = plan.digest(bytes);
  const answer = await requests.request(async (signal) => {
    await to.gate.up(bytes.length, signal);
    return to.client.send(
      new PutObjectCommand({
        Bucket: target.bucket,
        Key: target.key,
        Body: bytes,
        ContentMD5: part.md5.toString('base64'),
        ...plan.fields,
      }),
      { abortSignal: signal },
    );
  });
  const verification = verifyStreamed(source, target, [part], plan);
  return { size: bytes.length, etag: answer.ETag, verification };
}

interface StreamedPartsPlan {
  readonly partSize: number;
  readonly fields: Record<string, unknown>;
  /** A part's bytes, read into `into` (exactly its size) where given. */
  readonly readPart: (partNumber: number, into: Buffer | undefined) => Promise<Buffer>;
  readonly digest: (bytes: Buffer) => PartDigest;
  readonly crcAlgorithm: CrcAlgorithm | undefined;
  /** The parts are the source's own (its multipart ETag can be made again from them). */
  readonly sourceLayout: boolean;
}

async function copyInStreamedParts(
  to: S3Connection,
  source: CopySource,
  target: ObjectPlace,
  requests: CopyRequests,
  plan: StreamedPartsPlan,
): Promise<CopyOutcome> {
  const { partSize, readPart, digest } = plan;
  const progress = requests.progress;
  const earlier = await usableEarlier(to, target, requests, partSize);
  const uploadId =
    earlier?.uploadId ??
    (
      await requests.request((signal) =>
        to.client.send(new CreateMultipartUploadCommand({ Bucket: target.bucket, Key: target.key, ...plan.fields }), {
          abortSignal: signal,
        }),
      )
    ).UploadId!;
  if (!earlier) progress?.begun({ uploadId, partSize });
  const count = partCount(source.size, partSize);
  const digests: PartDigest[] = [];
  const etags: string[] = [];
  for (const part of earlier?.parts ?? []) {
    const range = partRange(source.size, partSize, part.partNumber);
    const md5 = bareEtag(part.etag);
    digests[part.partNumber - 1] = {
      md5: Buffer.from(/^[0-9a-f]{32}$/.test(md5) ? md5 : '', 'hex'),
      crc: part.checksum === undefined ? undefined : Buffer.from(part.checksum, 'base64'),
      size: range.end - range.start,
    };
    etags[part.partNumber - 1] = part.etag;
  }
  const sendPart = (partNumber: number) => {
    const range = partRange(source.size, partSize, partNumber);
    return held(requests, range.end - range.start, (into) => sendOne(partNumber, into));
  };
  const sendOne = async (partNumber: number, into: Buffer | undefined) => {
    const bytes = await readPart(partNumber, into);
    const part = digest(bytes);
    // On the wire, as uploads send their parts: unsigned, the Content-MD5 checked by the store; each
    // chunk through the gate on its way to the socket.
    const body = { pipeTo: (write: (chunk: Buffer) => Promise<void>) => write(bytes), release: async () => {} };
    const answer = await requests.request((signal) =>
      to.wire.uploadPart(target.bucket, target.key, uploadId, partNumber, body, bytes.length, signal, {
        'content-md5': part.md5.toString('base64'),
      }),
    );
    digests[partNumber - 1] = part;
    etags[partNumber - 1] = answer.etag;
    const sent: SentPart = {
      partNumber,
      etag: answer.etag,
      ...(part.crc ? { checksum: part.crc.toString('base64') } : {}),
    };
    progress?.partDone(uploadId, sent);
  };
  const missing = Array.from({ length: count }, (_, index) => index + 1).filter((n) => etags[n - 1] === undefined);
  try {
    await concurrentEach(missing, requests.partsInFlight, sendPart);
    const verification = verifyStreamed(source, target, digests, plan);
    const completed = await requests.request((signal) =>
      to.client.send(
        new CompleteMultipartUploadCommand({
          Bucket: target.bucket,
          Key: target.key,
          UploadId: uploadId,
          MultipartUpload: { Parts: etags.map((etag, index) => ({ PartNumber: index + 1, ETag: etag })) },
        }),
        { abortSignal: signal },
      ),
    );
    progress?.ended(uploadId);
    return { size: source.size, etag: completed.ETag, verification, parts: count };
  } catch (error) {
    // Parts recorded are kept for the copy's next run (its job's record aborts them if none comes);
    // bytes that do not match the source, and parts nobody records, are aborted at once.
    if (progress && errorCode(error) !== 'BadDigest') throw error;
    await abortUpload(to, target, uploadId);
    progress?.ended(uploadId);
    throw error;
  }
}

/** One part's bytes from the source (the object HEAD saw: If-Match), each chunk through the gate. */
async function readRange(
  from: S3Connection,
  source: CopySource,
  partSize: number,
  partNumber: number,
  requests: CopyRequests,
  into: Buffer | undefined,
): Promise<Buffer> {
  const range = partRange(source.size, partSize, partNumber);
  const wanted = range.end - range.start;
  if (wanted === 0) return Buffer.alloc(0);
  return onSource(readPart(from, source, range, requests, into));
}

/** Bytes [start, end) of the source, read into one buffer. */
async function readPart(
  from: S3Connection,
  source: CopySource,
  range: { readonly start: number; readonly end: number },
  requests: CopyRequests,
  into: Buffer | undefined,
): Promise<Buffer> {
  const wanted = range.end - range.start;
  // One buffer of the part's size (the job's, lent again part after part), filled as the body comes
  // (through the gate, on the wire's direct GET, as downloads do): a part is held once. A second
  // attempt fills it afresh; what it holds is checked by its MD5 and CRC before it counts.
  const part = into ?? Buffer.allocUnsafe(wanted);
  return requests.request(async (signal) => {
    let received = 0;
    await from.wire.getObjectInto(
      source.bucket,
      source.key,
      { range: [range.start, range.end - 1], ifMatch: source.etag, signal },
      {
        accept: () => undefined,
        write: async (chunk) => {
          if (received + chunk.length <= wanted) chunk.copy(part, received);
          received += chunk.length;
        },
      },
    );
    if (received !== wanted)
      throw new BargeError(
        'SizeMismatch',
        `The store sent ${received} bytes for bytes ${range.start}-${range.end - 1} of ` +
          `s3://${source.bucket}/${source.key}, not ${wanted}: it changed, or the store is faulty. Copy it again.`,
      );
    return part;
  });
}

/**
 * How the bytes read were proved the source's: its whole-object CRC (the parts' combined), else its
 * ETag (the MD5 of one part, or a multipart ETag made again from the source's own parts); else only
 * their size is known to match (the destination checked each part's Content-MD5, but that is Barge's
 * MD5 of what it read). A mismatch fails the copy (BadDigest).
 */
function verifyStreamed(
  source: CopySource,
  target: ObjectPlace,
  parts: readonly PartDigest[],
  plan: Pick<StreamedPartsPlan, 'crcAlgorithm' | 'sourceLayout'>,
): Verification {
  const { crcAlgorithm } = plan;
  if (crcAlgorithm && parts.every((part) => part.crc !== undefined)) {
    const combined = fullObjectCrc(
      crcAlgorithm,
      parts.map((part) => ({ digest: part.crc!, size: part.size })),
    ).toString('base64');
    const wanted = source.checksum!.value;
    failOnMismatch(
      source,
      target,
      combined === wanted ? undefined : `${crcAlgorithm} ${combined} where it is ${wanted}`,
    );
    return 'checksum';
  }
  const etag = source.etag === undefined ? '' : bareEtag(source.etag);
  if (!parts.every((part) => part.md5.length === 16)) return 'size-only';
  if (plan.sourceLayout) {
    const made = multipartEtag(parts.map((part) => part.md5));
    failOnMismatch(source, target, made === etag ? undefined : `ETag ${made} where it is ${etag}`);
    return 'etag';
  }
  if (parts.length === 1 && /^[0-9a-f]{32}$/.test(etag)) {
    const made = parts[0]!.md5.toString('hex');
    failOnMismatch(source, target, made === etag ? undefined : `MD5 ${made} where the ETag is ${etag}`);
    return 'etag';
  }
  return 'size-only';
}

/** The earlier run's upload, if it was begun with this part size; else it is aborted, and forgotten. */
async function usableEarlier(
  to: S3Connection,
  target: ObjectPlace,
  requests: CopyRequests,
  partSize: number,
): Promise<EarlierUpload | undefined> {
  const earlier = requests.progress?.earlier;
  if (!earlier) return undefined;
  if (earlier.partSize === partSize && earlier.algorithm === undefined) return earlier;
  await abortEarlier(to, target, requests);
  return undefined;
}

async function abortEarlier(to: S3Connection, target: ObjectPlace, requests: CopyRequests): Promise<void> {
  const earlier = requests.progress?.earlier;
  if (!earlier) return;
  await abortUpload(to, target, earlier.uploadId);
  requests.progress!.ended(earlier.uploadId);
}

async function abortUpload(connection: S3Connection, target: ObjectPlace, uploadId: string): Promise<void> {
  await connection.client
    .send(new AbortMultipartUploadCommand({ Bucket: target.bucket, Key: target.key, UploadId: uploadId }))
    .catch(() => undefined);
}
