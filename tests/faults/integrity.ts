// What every fault scenario must end with, checked independently of the engine under test: the
// server is read with the plain SDK client, straight (no fault in the way), and local files are
// hashed from disk. Each check returns the problems it found, as sentences; none means it holds.

import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import { GetObjectCommand, ListMultipartUploadsCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import type { Payload } from './payload.ts';
import { payloadKey } from './payload.ts';

/** Every payload file is stored under its key with the same bytes, and nothing else is there. */
export async function checkStoredObjects(
  client: Pick<S3Client, 'send'>,
  bucket: string,
  payload: Payload,
): Promise<string[]> {
  const problems: string[] = [];
  const stored = await listKeys(client, bucket);
  const expected = new Map(payload.files.map((file) => [payloadKey(file), file]));
  for (const key of stored) if (!expected.has(key)) problems.push(`unexpected object s3://${bucket}/${key}`);
  for (const [key, file] of expected) {
    if (!stored.includes(key)) {
      problems.push(`missing object s3://${bucket}/${key}`);
      continue;
    }
    const response = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    const digest = await sha256Stream(response.Body as Readable);
    if (digest !== file.sha256)
      problems.push(
        `s3://${bucket}/${key} differs from its source (${response.ContentLength} bytes, expected ${file.size})`,
      );
  }
  return problems;
}

/**
 * No incomplete multipart upload is left in the bucket (parts the store keeps, and bills, with no
 * object to show for them). Listed without a prefix: MinIO takes ListMultipartUploads' Prefix as an
 * exact key, so a prefix would hide leftovers.
 */
export async function checkNoIncompleteUploads(client: Pick<S3Client, 'send'>, bucket: string): Promise<string[]> {
  const leftovers: string[] = [];
  let keyMarker: string | undefined;
  let uploadIdMarker: string | undefined;
  do {
    const page = await client.send(
      new ListMultipartUploadsCommand({ Bucket: bucket, KeyMarker: keyMarker, UploadIdMarker: uploadIdMarker }),
    );
    for (const upload of page.Uploads ?? [])
      leftovers.push(`incomplete multipart upload of s3://${bucket}/${upload.Key} (${upload.UploadId})`);
    keyMarker = page.IsTruncated ? page.NextKeyMarker : undefined;
    uploadIdMarker = page.IsTruncated ? page.NextUploadIdMarker : undefined;
  } while (keyMarker);
  return leftovers;
}

/**
 * The download folder holds exactly the payload's files, each with its source's bytes: no
 * temporary `.partial` file, no file cut short under its final name, nothing extra.
 */
export async function checkDownloadedFolder(folder: string, payload: Payload): Promise<string[]> {
  const problems: string[] = [];
  const found = await listFilesBelow(folder);
  const expected = new Map(payload.files.map((file) => [file.relativePath, file]));
  for (const relative of found) {
    if (relative.endsWith('.partial')) problems.push(`temporary file left behind: ${relative}`);
    else if (!expected.has(relative)) problems.push(`unexpected file: ${relative}`);
  }
  for (const [relative, file] of expected) {
    if (!found.includes(relative)) {
      problems.push(`missing file: ${relative}`);
      continue;
    }
    if ((await sha256File(path.join(folder, ...relative.split('/')))) !== file.sha256)
      problems.push(`${relative} differs from its source`);
  }
  return problems;
}

async function listKeys(client: Pick<S3Client, 'send'>, bucket: string): Promise<string[]> {
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }));
    for (const object of page.Contents ?? []) keys.push(object.Key ?? '');
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return keys;
}

/** Files below `folder`, as relative paths with "/" separators; a missing folder has none. */
async function listFilesBelow(folder: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(folder, { recursive: true, withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return entries
    .filter((entry) => !entry.isDirectory())
    .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
}

async function sha256Stream(stream: Readable): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

function sha256File(file: string): Promise<string> {
  return sha256Stream(createReadStream(file));
}
