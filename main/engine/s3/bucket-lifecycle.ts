// A bucket's lifecycle configuration: read, a rule added beside the others, a rule removed.
//
// The rules are read and written back as the store holds them, every field kept (transitions, tag
// filters, sizes Barge does not show): adding or removing one never changes another. A bucket left
// with no rule has its configuration deleted (S3 takes no empty one).
//
// A store without lifecycle rules (versitygw) answers 501 NotImplemented, naming no header: read
// as it is, that looked like a refusal of the checksum headers the SDK adds to the PUT. The rules are
// always read first (a GET carries none), a 501 on any lifecycle request is said as what it is
// (LifecycleNotSupported), and a write refused so even when sent again without them unlearns it.

import {
  DeleteBucketLifecycleCommand,
  GetBucketLifecycleConfigurationCommand,
  PutBucketLifecycleConfigurationCommand,
} from '@aws-sdk/client-s3';
import type { LifecycleRule as StoredRule } from '@aws-sdk/client-s3';
import { expiryRule, withRule } from '../../../src/lifecycle-rules.ts';
import type { ExpiryOnServer, LifecycleRule } from '../../../src/lifecycle-rules.ts';
import { BargeError, errorCode, httpStatus, toBargeError } from '../errors.ts';
import { withRetry } from '../queue/retry-loop.ts';
import { bucketVersioning } from './s3-buckets.ts';
import type { S3Connection } from './s3-connection.ts';

/** The bucket's rules, as Barge shows them; none where it has no lifecycle configuration. */
export async function lifecycleRules(connection: S3Connection, bucket: string): Promise<LifecycleRule[]> {
  return (await storedRules(connection, bucket)).map(shown);
}

/**
 * Add the rule that expires everything below `prefix` (or put it in place of its earlier self), and
 * read it back: a store may keep less than it was sent without a word, and the operator is told.
 */
export async function expirePrefixOnServer(
  connection: S3Connection,
  bucket: string,
  prefix: string,
): Promise<ExpiryOnServer> {
  const asked = expiryRule(prefix);
  const before = await storedRules(connection, bucket);
  const earlier = before.find((rule) => rule.ID === asked.id);
  const rules = withRule(before, stored(asked), (r) => r.ID);
  await writeRules(connection, bucket, rules);
  const kept = (await lifecycleRules(connection, bucket)).find((rule) => rule.id === asked.id);
  if (kept === undefined)
    throw new BargeError(
      'LifecycleNotKept',
      `Bucket ${bucket} took the lifecycle rule but does not list it: the store does not keep lifecycle rules.`,
    );
  const dropped = [
    ...(asked.expireDays !== undefined && kept.expireDays === undefined ? ['the expiry of current versions'] : []),
    ...(asked.noncurrentDays !== undefined && kept.noncurrentDays === undefined
      ? ['the expiry of noncurrent versions']
      : []),
    ...(asked.abortUploadsDays !== undefined && kept.abortUploadsDays === undefined
      ? ['the abort of incomplete uploads']
      : []),
  ];
  const versioning = await bucketVersioning(connection, bucket).catch(() => undefined);
  // Asked again: the rule read back is the one the bucket held, so nothing changed (and is said so).
  const already = earlier !== undefined && JSON.stringify(shown(earlier)) === JSON.stringify(kept);
  return { rule: kept, dropped, versioning, already };
}

/** Remove the rule of ID `id`, every other kept; fails by name where the bucket has none of that ID. */
export async function removeLifecycleRule(connection: S3Connection, bucket: string, id: string): Promise<void> {
  const rules = await storedRules(connection, bucket);
  const kept = rules.filter((rule) => rule.ID !== id);
  if (kept.length === rules.length)
    throw new BargeError(
      'NoSuchLifecycleRule',
      `Bucket ${bucket} has no lifecycle rule "${id}": see its rules with barge lifecycle ls s3://${bucket}.`,
    );
  await writeRules(connection, bucket, kept);
}

async function storedRules(connection: S3Connection, bucket: string): Promise<StoredRule[]> {
  try {
    const answer = await withRetry(() =>
      connection.client.send(new GetBucketLifecycleConfigurationCommand({ Bucket: bucket })),
    );
    return answer.Rules ?? [];
  } catch (error) {
    if (errorCode(error) === 'NoSuchLifecycleConfiguration') return [];
    throw lifecycleError(error, bucket, `read the lifecycle rules of bucket "${bucket}"`);
  }
}

async function writeRules(connection: S3Connection, bucket: string, rules: StoredRule[]): Promise<void> {
  const learnt = connection.checksumHeaders;
  try {
    await withRetry(() =>
      connection.client.send(
        rules.length === 0
          ? new DeleteBucketLifecycleCommand({ Bucket: bucket })
          : new PutBucketLifecycleConfigurationCommand({ Bucket: bucket, LifecycleConfiguration: { Rules: rules } }),
      ),
    );
  } catch (error) {
    const failure = lifecycleError(error, bucket, `write the lifecycle rules of bucket "${bucket}"`);
    // The 501 came back when the write went again without the checksum headers: it was never about
    // them, so what the connection learnt from the first is unlearnt (its uploads keep their CRCs).
    if (failure.code === 'LifecycleNotSupported') connection.checksumHeaders = learnt;
    throw failure;
  }
}

/** A failed lifecycle request in words: a store that has no lifecycle rules (501) says so by name. */
function lifecycleError(error: unknown, bucket: string, context: string): BargeError {
  if (errorCode(error) !== 'NotImplemented' && httpStatus(error) !== 501) return toBargeError(error, context);
  return new BargeError(
    'LifecycleNotSupported',
    `This store does not support lifecycle rules (it answered 501 NotImplemented for bucket "${bucket}"), so it ` +
      "cannot expire a prefix itself: delete it from here instead (barge rm -r, or the window's Delete).",
    { cause: error },
  );
}

/** A rule as the store takes it. */
function stored(rule: LifecycleRule): StoredRule {
  return {
    ID: rule.id,
    Filter: { Prefix: rule.prefix ?? '' },
    Status: rule.enabled ? 'Enabled' : 'Disabled',
    ...(rule.expireDays === undefined ? {} : { Expiration: { Days: rule.expireDays } }),
    ...(rule.noncurrentDays === undefined
      ? {}
      : { NoncurrentVersionExpiration: { NoncurrentDays: rule.noncurrentDays } }),
    ...(rule.abortUploadsDays === undefined
      ? {}
      : { AbortIncompleteMultipartUpload: { DaysAfterInitiation: rule.abortUploadsDays } }),
  };
}

/** A stored rule as Barge shows it: what it expires, and whether it does more. */
function shown(rule: StoredRule): LifecycleRule {
  const filter = rule.Filter;
  const prefix =
    filter === undefined
      ? (rule.Prefix ?? '')
      : filter.Prefix !== undefined && filter.Tag === undefined && filter.And === undefined
        ? filter.Prefix
        : filter.Prefix === undefined && filter.Tag === undefined && filter.And === undefined && !sized(filter)
          ? ''
          : undefined;
  const other =
    (rule.Transitions?.length ?? 0) > 0 ||
    (rule.NoncurrentVersionTransitions?.length ?? 0) > 0 ||
    rule.Expiration?.Date !== undefined;
  return {
    id: rule.ID ?? '',
    prefix,
    enabled: rule.Status === 'Enabled',
    ...(rule.Expiration?.Days === undefined ? {} : { expireDays: rule.Expiration.Days }),
    ...(rule.NoncurrentVersionExpiration?.NoncurrentDays === undefined
      ? {}
      : { noncurrentDays: rule.NoncurrentVersionExpiration.NoncurrentDays }),
    ...(rule.AbortIncompleteMultipartUpload?.DaysAfterInitiation === undefined
      ? {}
      : { abortUploadsDays: rule.AbortIncompleteMultipartUpload.DaysAfterInitiation }),
    ...(rule.Expiration?.ExpiredObjectDeleteMarker ? { expiredDeleteMarkers: true } : {}),
    ...(other ? { other: true } : {}),
  };
}

function sized(filter: NonNullable<StoredRule['Filter']>): boolean {
  return filter.ObjectSizeGreaterThan !== undefined || filter.ObjectSizeLessThan !== undefined;
}
