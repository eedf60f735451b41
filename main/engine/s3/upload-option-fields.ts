// The upload options as a request carries them: SDK fields (PutObject, CreateMultipartUpload) or wire headers.
//
// A single PUT and a multipart create must store an object alike, so both are made from this one mapping.

import type { StorageClass, ObjectCannedACL, ServerSideEncryption } from '@aws-sdk/client-s3';
import { taggingQuery } from '../../../src/upload-options.ts';
import type { UploadOptions } from '../../../src/upload-options.ts';

export interface UploadOptionFields {
  StorageClass?: StorageClass;
  ContentType?: string;
  CacheControl?: string;
  ContentEncoding?: string;
  ContentDisposition?: string;
  Metadata?: Record<string, string>;
  Tagging?: string;
  ServerSideEncryption?: ServerSideEncryption;
  SSEKMSKeyId?: string;
  ACL?: ObjectCannedACL;
}

/** The SDK's fields for PutObject and CreateMultipartUpload; only those set. */
export function uploadOptionFields(options: UploadOptions | undefined): UploadOptionFields {
  if (!options) return {};
  const fields: UploadOptionFields = {
    StorageClass: options.storageClass,
    ContentType: options.contentType,
    CacheControl: options.cacheControl,
    ContentEncoding: options.contentEncoding,
    ContentDisposition: options.contentDisposition,
    Metadata: options.metadata,
    Tagging: options.tags && taggingQuery(options.tags),
    ServerSideEncryption: options.sse,
    SSEKMSKeyId: options.sseKmsKeyId,
    ACL: options.acl,
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as UploadOptionFields;
}

/** The same as HTTP headers, for a PUT sent on the wire (s3-wire.ts); the content type is the caller's. */
export function uploadOptionHeaders(options: UploadOptions | undefined): Record<string, string> {
  if (!options) return {};
  const headers: Record<string, string | undefined> = {
    'x-amz-storage-class': options.storageClass,
    'content-type': options.contentType,
    'cache-control': options.cacheControl,
    'content-encoding': options.contentEncoding,
    'content-disposition': options.contentDisposition,
    'x-amz-tagging': options.tags && taggingQuery(options.tags),
    'x-amz-server-side-encryption': options.sse,
    'x-amz-server-side-encryption-aws-kms-key-id': options.sseKmsKeyId,
    'x-amz-acl': options.acl,
  };
  for (const [name, value] of Object.entries(options.metadata ?? {}))
    headers[`x-amz-meta-${name.toLowerCase()}`] = value;
  return Object.fromEntries(
    Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}
