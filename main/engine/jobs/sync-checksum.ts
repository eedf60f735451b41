// Sync --checksum: a key on both sides is compared by its bytes' digest where both sides can give
// the same kind, instead of by time.
//
// What a listing gives of an object is its ETag. A single PUT's ETag is the MD5 of its bytes (on
// AWS, MinIO, versitygw and Ceph alike): that is compared with the MD5 of the local file. A
// multipart upload's ETag ("…-N") is the MD5 of its parts' MD5s, which needs the part size it was
// sent with; an object with no ETag gives nothing. For those the comparison falls back to size and
// time, and a key sent for it says why. Sizes are compared first: a file of another size is
// changed without reading it.

import { bareEtag } from '../integrity/checksums.ts';
import { fileChecksum } from '../integrity/file-checksum.ts';
import type { LocalFile } from '../disk/local-files.ts';
import type { ObjectEntry } from '../s3/s3-listing.ts';
import { sizeOrTimeDiffers } from './sync-plan.ts';
import type { SyncSide } from './sync-plan.ts';

type Side = SyncSide & ({ readonly file: LocalFile } | { readonly object: ObjectEntry });

const MD5_ETAG = /^[0-9a-f]{32}$/;

/** Why the two differ, or undefined when their digests (or, failing those, size and time) agree. */
export async function checksumDiffers(source: Side, destination: Side): Promise<string | undefined> {
  if (source.size !== destination.size) return sizeOrTimeDiffers(source, destination);
  const sides = [source, destination];
  // Two objects with one ETag, multipart ones too (same parts, same bytes): the kinds match and agree.
  const [a, b] = sides.map((side) => ('object' in side && side.object.etag ? bareEtag(side.object.etag) : undefined));
  if (a !== undefined && a === b) return undefined;
  const file = sides.find((side) => 'file' in side)?.file as LocalFile | undefined;
  const objects = sides.flatMap((side) => ('object' in side ? [side.object] : []));
  const unlike = objects.map(notMd5).find((why) => why !== undefined);
  if (unlike !== undefined) {
    const why = sizeOrTimeDiffers(source, destination);
    return why === undefined ? undefined : `${why} (checksum not compared: ${unlike})`;
  }
  const etags = objects.map((object) => bareEtag(object.etag!));
  const local = file ? (await fileChecksum(file.path, 'MD5')).toString('hex') : etags[1]!;
  return local === etags[0] ? undefined : 'checksum differs (MD5 of the bytes against the ETag)';
}

/** Why an object's ETag is no MD5 of its bytes, or undefined when it is one. */
function notMd5(object: ObjectEntry): string | undefined {
  if (object.etag === undefined) return 'the store listed no ETag';
  const etag = bareEtag(object.etag);
  if (/-\d+$/.test(etag)) return `its ETag is a multipart upload's (${etag}), not an MD5 of its bytes`;
  if (!MD5_ETAG.test(etag)) return `its ETag (${etag}) is not an MD5`;
  return undefined;
}
