// Content-MD5 on DeleteObjects.
//
// S3 requires a checksum on DeleteObjects. Since v3.729 the SDK sends CRC32 instead of Content-MD5,
// which MinIO and several other stores reject (MissingContentMD5). Every store accepts Content-MD5,
// AWS included, so it is added on every connection (AWS's documented fallback, MD5_FALLBACK.md).

import { createHash } from 'node:crypto';
import type { S3Client } from '@aws-sdk/client-s3';

export function addContentMd5ToDeleteObjects(client: S3Client): void {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName !== 'DeleteObjectsCommand') return next(args);
      const request = args.request as { headers: Record<string, string>; body?: string | Uint8Array };
      for (const header of Object.keys(request.headers)) {
        const lower = header.toLowerCase();
        if (lower.startsWith('x-amz-checksum-') || lower.startsWith('x-amz-sdk-checksum-')) delete request.headers[header];
      }
      if (request.body !== undefined) request.headers['Content-MD5'] = createHash('md5').update(request.body).digest('base64');
      return next(args);
    },
    { step: 'build', name: 'bargeContentMd5ForDeleteObjects' },
  );
}
