// barge mkdir s3://bucket/prefix/name/: a new empty folder, the zero-byte "name/" marker the AWS
// console and Cyberduck make (the service's objects.makeFolder, as the window's New folder).

import { printableJson } from '../../../src/unsafe-text.ts';
import { printable } from '../../../src/unsafe-text.ts';
import type { CliContext } from '../context.ts';
import { usageError } from '../options.ts';
import { s3Location } from './job-command.ts';

export async function mkdir(cli: CliContext): Promise<number> {
  if (cli.options.args.length !== 1) throw usageError('mkdir takes one s3://bucket/folder/ address.');
  const location = s3Location(cli.options.args[0]!);
  // The folder is the address's last name; a trailing "/" is optional.
  const path = location.key.endsWith('/') ? location.key.slice(0, -1) : location.key;
  if (path === '')
    throw usageError(`mkdir takes a folder in a bucket (s3://${location.bucket}/name/): use mb for a bucket.`);
  const cut = path.lastIndexOf('/') + 1;
  const { key } = await cli.service.call('objects.makeFolder', {
    connectionId: cli.connectionId,
    bucket: location.bucket,
    prefix: path.slice(0, cut),
    name: path.slice(cut),
  });
  if (!cli.options.quiet)
    cli.stdout.write(
      cli.options.json
        ? `${printableJson({ created: `s3://${location.bucket}/${key}` })}\n`
        : `Created s3://${location.bucket}/${printable(key)}\n`,
    );
  return 0;
}
