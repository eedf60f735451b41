// A connection: where the store is and how to sign for it.

import { z } from 'zod';
import { isRegion, REGION_RULE } from './region.ts';

export const checksumModeSchema = z.enum(['when_supported', 'when_required']);
/**
 * "when_supported" lets the SDK add CRC32 checksums to every upload and validate downloads (AWS's
 * default); "when_required" sends them only where the API demands one. Several S3-compatible stores
 * (R2, B2 and others) reject the SDK's checksum headers, so custom endpoints default to the latter.
 */
export type ChecksumMode = z.infer<typeof checksumModeSchema>;

export const uploadChecksumSchema = z.enum(['CRC64NVME', 'CRC32C', 'CRC32', 'MD5', 'OFF']);
/**
 * The checksum every upload request carries, which the store checks before it keeps the bytes, and
 * which the object keeps for downloads to be checked against. A CRC where the store supports one
 * (CRC64NVME is AWS's default; CRC32C for other stores), Content-MD5 where it does not (a store that
 * ignores the CRC headers is switched to Content-MD5 by itself); OFF sends none.
 */
export type UploadChecksum = z.infer<typeof uploadChecksumSchema>;

/**
 * Why an endpoint URL cannot be a store's address, or undefined: a store is addressed by scheme,
 * host and port; a path, a query, a fragment or credentials in it would be taken up by no request
 * (or sent where they must not go), and fail later in a way that names nothing.
 */
export function endpointUrlProblem(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'is not a URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must start with http:// or https://';
  if (url.username || url.password) return 'must not carry a user name or password (keys go in their own fields)';
  if (url.pathname !== '/' && url.pathname !== '')
    return `must be the store's address only, without a path (${url.pathname}): give the bucket apart`;
  if (url.search || url.hash) return 'must not carry a query or a fragment';
  return undefined;
}

/** An endpoint as a message may show it: any user name and password in it hidden (secrets never in messages). */
export function redactedUrl(text: string): string {
  return text.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, '$1***@');
}

/** An endpoint: http(s)://host[:port], nothing more. */
const endpointSchema = z.string().superRefine((text, context) => {
  const problem = endpointUrlProblem(text);
  if (problem) context.addIssue({ code: 'custom', message: `The endpoint ${problem}.` });
});

export const REGION_PROBLEM = `That is not a region: ${REGION_RULE}.`;
/** A region: it names hosts and signatures, so nothing that could carry a host, a port or a path. */
export const regionSchema = z.string().refine(isRegion, REGION_PROBLEM);

/** Where the store is and how to talk to it: everything but the credentials. */
const placeFields = {
  /** https://… or http://…; empty for AWS itself (the endpoint follows the region). */
  endpoint: endpointSchema.optional(),
  region: regionSchema.optional(),
  /** Bucket in the path (http://host/bucket/key) instead of the host name. */
  pathStyle: z.boolean().optional(),
  /** A profile from ~/.aws/config and ~/.aws/credentials; the SDK's default chain when absent. */
  profile: z.string().min(1).optional(),
  checksumMode: checksumModeSchema.optional(),
  uploadChecksum: uploadChecksumSchema.optional(),
};

/**
 * A connection without secrets: its credentials come from the environment or a profile (the
 * command line's). Strict: a key sent along is refused, never kept.
 */
export const sessionConnectionSchema = z.strictObject({
  ...placeFields,
  // Bounded as the connection form is: a session is kept for the process's life.
  endpoint: placeFields.endpoint.refine(
    (url) => url === undefined || url.length <= 2048,
    'The endpoint is too long: at most 2,048 characters.',
  ),
  profile: z.string().min(1).max(100).optional(),
});
export type SessionConnection = z.infer<typeof sessionConnectionSchema>;

export const connectionConfigSchema = z
  .object({
    ...placeFields,
    accessKeyId: z.string().min(1).optional(),
    secretAccessKey: z.string().min(1).optional(),
    sessionToken: z.string().min(1).optional(),
  })
  .refine((c) => (c.accessKeyId === undefined) === (c.secretAccessKey === undefined), {
    message: 'Give both an access key ID and a secret access key, or neither.',
  });

export type ConnectionConfig = z.infer<typeof connectionConfigSchema>;
