// The user metadata Barge stores with a multipart upload: its part size.
//
// Many stores cannot say where an object's parts begin (Ceph's RGW answers a HEAD of one part with
// the whole object), and without that a multipart ETag (the MD5 of the parts' MD5s) or a composite
// checksum cannot be checked. With the part size kept beside the object, any download can cut its
// ranges at the parts and check them. It costs one header, and no read of the file before the upload.

/** The name S3 sends as x-amz-meta-barge-part-size. */
export const PART_SIZE_METADATA = 'barge-part-size';

const MIN_PART_BYTES = 5 * 1024 * 1024;
const MAX_PART_BYTES = 5 * 1024 ** 3;

/**
 * The part size recorded with an object, if it is one S3 allows (5 MiB to 5 GiB): anyone can write
 * metadata, and a tiny one would cut a download into absurdly many ranges.
 */
export function recordedPartSize(value: unknown, size: number, parts: number | undefined): number | undefined {
  if (typeof value !== 'string' || !/^\d{1,12}$/.test(value)) return undefined;
  const partSize = Number(value);
  if (partSize < MIN_PART_BYTES || partSize > MAX_PART_BYTES) return undefined;
  if (parts !== undefined && Math.ceil(size / partSize) !== parts) return undefined;
  return partSize;
}
