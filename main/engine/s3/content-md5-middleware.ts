// Content-MD5 on DeleteObjects, and no flexible checksum.
//
// S3 requires a checksum on DeleteObjects. Since v3.729 the SDK sends CRC32 (x-amz-checksum-crc32 and
// x-amz-sdk-checksum-algorithm) instead of Content-MD5, whatever requestChecksumCalculation says:
// some stores refuse it as unimplemented (501), others want Content-MD5 (MissingContentMD5). Every
// store accepts Content-MD5, AWS included (its documented fallback, MD5_FALLBACK.md), so every
// connection sends it alone. The SDK adds its checksum in the build step (its
// flexibleChecksumsMiddleware, of normal priority): this runs after it, at the step's end, and before
// the request is signed.

import { createHash } from 'node:crypto';
import type { S3Client } from '@aws-sdk/client-s3';
import { dropChecksumHeaders } from './checksum-headers.ts';

export function addContentMd5ToDeleteObjects(client: S3Client): void {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName !== 'DeleteObjectsCommand') return next(args);
      const request = args.request as { headers: Record<string, string>; body?: string | Uint8Array };
      dropChecksumHeaders(request.headers);
      if (request.body !== undefined)
        request.headers['Content-MD5'] = createHash('md5').update(request.body).digest('base64');
      return next(args);
    },
    { step: 'build', priority: 'low', name: 'bargeContentMd5ForDeleteObjects' },
  );
}
