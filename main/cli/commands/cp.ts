// barge cp: upload local files and folders to S3, download objects and prefixes, or copy them in the store.

import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import path from 'node:path';
import { systemPath } from '../system-path.ts';
import { isS3Url } from '../../../src/s3-url.ts';
import { printable } from '../../../src/unsafe-text.ts';
import type { CliContext } from '../context.ts';
import { usageError } from '../options.ts';
import { runJob } from '../run-job.ts';
import { exitStatus, rerun, s3Location } from './job-command.ts';
import { namedObjects } from '../matches.ts';

export async function cp(cli: CliContext): Promise<number> {
  const { service, connectionId } = cli;
  const { args, recursive } = cli.options;
  if (args.length < 2) throw usageError('cp needs at least one source and a destination.');
  const sources = args.slice(0, -1);
  const destination = args.at(-1)!;
  await checkReceiptFolder(cli.options.receipt);
  const remoteSources = sources.filter(isS3Url);
  if (cli.options.sourceConnection && !(isS3Url(destination) && remoteSources.length === sources.length))
    throw usageError(
      '--source-endpoint-url, --source-profile and --source-region are for copies between s3:// addresses.',
    );
  if (cli.options.versionId !== undefined) versionedDownloadProblem(cli, sources, destination);
  if (isS3Url(destination)) {
    if (remoteSources.length === sources.length) {
      const { copyInStore } = await import('./s3-copy.ts');
      return copyInStore(cli, sources, destination, false);
    }
    if (remoteSources.length > 0)
      throw usageError('Either every source is an s3:// address (a copy in the store) or none is (an upload).');
    // Every upload request is checked by the store; the flag is about downloads that cannot be.
    if (cli.options.requireVerified)
      throw usageError('--require-verified is for downloads: every upload request is checked by the store.');
    const target = s3Location(destination);
    // --storage-class on an upload is the class the objects are stored in (an upload option), not a
    // filter: local files have none.
    const { storageClasses: _storedIn, ...uploadFilter } = cli.options.filter ?? {};
    for (const source of sources) {
      const info = await stat(source).catch(() => undefined);
      if (!info && source.includes(UNDECODABLE)) throw usageError(notUtf8(source));
      if (info?.isDirectory() && !recursive)
        throw usageError(`${source} is a folder: add --recursive to upload it and everything in it.`);
    }
    // Absolute: "./big.bin", "big.bin" and the same file named from another folder are one job.
    const paths = await Promise.all(sources.map(systemPath));
    return exitStatus(
      await runJob(cli, () =>
        service.call('jobs.upload', {
          connectionId,
          paths,
          bucket: target.bucket,
          prefix: target.key,
          followSymlinks: cli.options.followSymlinks,
          // Absent: replaced, as cp and aws s3 cp do (and nothing is listed to find out).
          ifExists: cli.options.ifExists,
          filter: cli.options.filter && uploadFilter,
          uploadOptions: cli.options.uploadOptions,
          ...rerun(cli),
        }),
      ),
    );
  }
  // On a download, --storage-class filters the objects found; every other upload option is refused.
  const { storageClass: _filtered, ...uploadOnly } = cli.options.uploadOptions ?? {};
  if (Object.keys(uploadOnly).length > 0)
    throw usageError(
      'The upload options (--storage-class, --metadata, --tags, ...) are for uploads: a download keeps the ' +
        'object as it is.',
    );
  if (remoteSources.length !== sources.length)
    throw usageError('Either the destination is an s3:// address (upload) or every source is (download).');
  const locations = sources.map(s3Location);
  const bucket = locations[0]!.bucket;
  if (locations.some((l) => l.bucket !== bucket)) throw usageError('Download from one bucket at a time.');
  // The same key or prefix named twice is one item ("photos" and "photos/" are one folder); a wildcard
  // is a pattern, whose objects land below the destination folder by their key below its folder.
  const { keys, prefixes, patterns } = namedObjects(cli, locations, 'download', {
    folderKey: (key) => key.replace(/\/+$/, ''),
  });
  const named = [...new Set([...keys, ...prefixes, ...patterns])];
  const existing = await stat(destination).catch(() => undefined);
  const intoFolder =
    recursive ||
    patterns.length > 0 ||
    named.length > 1 ||
    destination.endsWith('/') ||
    destination.endsWith(path.sep) ||
    existing?.isDirectory() === true;
  // A key ending in "/" is a folder's marker; saved to a file by name, its bytes (if any) are kept.
  const bad = keys.find((k) => k === '' || (k.endsWith('/') && intoFolder));
  if (bad !== undefined)
    throw usageError(
      `s3://${bucket}/${bad} is a prefix: add --recursive to download everything below ` +
        `it${bad === '' ? '' : ", or name a file to save the folder marker's own bytes in"}.`,
    );
  const targetFolder = await systemPath(intoFolder ? destination : path.dirname(destination));
  return exitStatus(
    await runJob(cli, () =>
      service.call('jobs.download', {
        connectionId,
        bucket,
        keys,
        prefixes,
        targetFolder,
        saveAs: intoFolder ? undefined : path.basename(path.resolve(destination)),
        caseInsensitive: cli.options.caseInsensitive,
        ...(cli.options.versionId === undefined ? {} : { versionId: cli.options.versionId }),
        requireVerified: cli.options.requireVerified,
        ifExists: cli.options.ifExists,
        patterns,
        filter: cli.options.filter,
        ...rerun(cli),
      }),
    ),
  );
}

/**
 * --version-id names one version of one key, saved as a file or copied by the store: refused (exit 2)
 * for anything else, as typed, before anything is sent.
 */
function versionedDownloadProblem(cli: CliContext, sources: readonly string[], destination: string): void {
  if (!sources.every(isS3Url))
    throw usageError('--version-id names a version of an object to download or copy: an upload makes a new version.');
  if (sources.length !== 1 || cli.options.recursive)
    throw usageError('--version-id names a version of one key: name that key alone, without --recursive.');
  if (isS3Url(destination) && cli.options.sourceConnection)
    throw usageError(
      '--version-id copies a version in the store itself, on one connection: download it, then upload it.',
    );
}

/** What Node puts in an argument for bytes that are not UTF-8: the name's own bytes are lost. */
const UNDECODABLE = '\ufffd';

/**
 * A source named on the command line with bytes that are not UTF-8 reaches Node already decoded,
 * each such byte as U+FFFD: the file it names cannot be found, and "No such file" would mislead.
 * Inside a folder names are read as bytes, so the folder can be uploaded and the name reported.
 */
function notUtf8(source: string): string {
  return (
    `${printable(source)}: its name is not valid UTF-8, and S3 keys must be; ` +
    'the command line cannot pass such a name through. Upload the folder it is in (names inside folders are ' +
    'read as they are, and each one that is not UTF-8 is named), or rename it.'
  );
}

/** A receipt that could not be written is found out before any work starts, not after it. */
async function checkReceiptFolder(receipt: string | undefined): Promise<void> {
  if (receipt === undefined) return;
  const file = path.resolve(receipt);
  const folder = path.dirname(file);
  const [folderInfo, fileInfo] = await Promise.all([
    stat(folder).catch(() => undefined),
    stat(file).catch(() => undefined),
  ]);
  const writable =
    folderInfo?.isDirectory() === true &&
    (await access(folder, constants.W_OK).then(
      () => true,
      () => false,
    ));
  if (!writable) throw usageError(`--receipt ${receipt}: ${folder} is not a folder that can be written.`);
  if (fileInfo && !fileInfo.isFile())
    throw usageError(`--receipt ${receipt}: that is a folder (or another thing that is not a file); name a file.`);
}
