// barge presign: a link that GETs one object without credentials until it expires (default 1 hour).

import type { CliContext } from '../context.ts';
import { usageError } from '../options.ts';
import { s3Object } from './object-address.ts';

/** As aws s3 presign: an hour unless --expires says otherwise. */
const DEFAULT_EXPIRES_SECONDS = 3600;

export async function presign(cli: CliContext): Promise<number> {
  const { args, json, expiresSeconds = DEFAULT_EXPIRES_SECONDS } = cli.options;
  if (args.length !== 1) throw usageError('presign takes one object: barge presign s3://bucket/key --expires 1h.');
  const { bucket, key } = s3Object(args[0]!, 'presign');
  const whole = Math.floor(expiresSeconds);
  const { url } = await cli.service.call('objects.presign', {
    connectionId: cli.connectionId,
    bucket,
    key,
    expiresInSeconds: whole,
  });
  cli.stdout.write(
    json ? `${JSON.stringify({ url, expiresAt: new Date(Date.now() + whole * 1000).toISOString() })}\n` : `${url}\n`,
  );
  return 0;
}
