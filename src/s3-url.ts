// "s3://bucket/key" addresses, as the command line and the AWS tools write them.

export interface S3Location {
  readonly bucket: string;
  /** The key or prefix; "" for the whole bucket. */
  readonly key: string;
}

export function isS3Url(text: string): boolean {
  return /^s3:\/\//i.test(text);
}

export function parseS3Url(text: string): S3Location | undefined {
  const match = /^s3:\/\/([^/]+)(?:\/(.*))?$/is.exec(text);
  if (!match) return undefined;
  return { bucket: match[1]!, key: match[2] ?? '' };
}

export function formatS3Url(location: S3Location): string {
  return `s3://${location.bucket}/${location.key}`;
}

/** The last path segment of a key ("a/b/c.txt" -> "c.txt", "a/b/" -> "b"). */
export function keyBaseName(key: string): string {
  const trimmed = key.endsWith('/') ? key.slice(0, -1) : key;
  return trimmed.slice(trimmed.lastIndexOf('/') + 1);
}

/**
 * A prefix as a folder: "photos" becomes "photos/", so that acting on the folder "photos" never
 * touches "photos2/…" or "photos.jpg". "" (the whole bucket) stays "".
 */
export function asFolderPrefix(prefix: string): string {
  return prefix === '' || prefix.endsWith('/') ? prefix : `${prefix}/`;
}
