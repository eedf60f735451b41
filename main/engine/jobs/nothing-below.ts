// What a job says of a folder it was asked for that has nothing below it: a typing mistake, or an
// object of that name (asked for as a folder with --recursive). Said as the item's failure, so a
// mistyped `cp -r` or `mv -r` never ends as "0 of 0" with success.

import { headObjectOnce } from '../s3/s3-listing.ts';
import type { S3Connection } from '../s3/s3-connection.ts';

/** How the object would be asked for by its own name, for the advice ("download it without --recursive (…)"). */
export type ByItsName = (name: string) => string;

export async function nothingBelow(
  connection: S3Connection,
  place: { readonly bucket: string; readonly named: string; readonly prefix: string },
  byItsName: ByItsName,
  signal: AbortSignal,
): Promise<string> {
  const { bucket, prefix } = place;
  const nothing = `Nothing was found below s3://${bucket}/${prefix}`;
  const name = place.named.replace(/\/+$/, '');
  if (name === '') return `${nothing} (the bucket is empty).`;
  const object = await headObjectOnce(connection, bucket, name, signal).then(
    () => true,
    () => false,
  );
  return object
    ? `${nothing}; s3://${bucket}/${name} is an object: ${byItsName(`s3://${bucket}/${name}`)}.`
    : `${nothing}: check the bucket and the prefix (barge ls "s3://${bucket}/${parentOf(name)}").`;
}

function parentOf(key: string): string {
  return key.slice(0, key.lastIndexOf('/') + 1);
}
