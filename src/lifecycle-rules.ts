// A bucket's lifecycle rules as Barge reads and writes them, and the rule that has the store itself
// delete a prefix too big for one machine (issue 28 §4).
//
// A prefix of hundreds of millions of keys takes a client days, even at 10,000 deletes a second; the
// store's lifecycle engine expires it without one. The rule expires current versions after a day,
// noncurrent ones a day after they become so (and with them the delete markers left alone), and
// incomplete multipart uploads a day after they began. The bucket's other rules are never dropped:
// the new rule is added beside them, or replaces only a rule of its own ID.

import { BargeError } from './errors.ts';
import type { BucketVersioning } from './contract/models.ts';

/** One rule, in the fields Barge shows and writes (S3's LifecycleRule, less what it never sets). */
export interface LifecycleRule {
  readonly id: string;
  /** The prefix the rule applies to ("" for the whole bucket); undefined where its filter is not a prefix alone. */
  readonly prefix: string | undefined;
  readonly enabled: boolean;
  /** Current versions expire this many days after they were written. */
  readonly expireDays?: number;
  /** Noncurrent versions expire this many days after they became noncurrent. */
  readonly noncurrentDays?: number;
  /** Incomplete multipart uploads are aborted this many days after they began. */
  readonly abortUploadsDays?: number;
  /** Delete markers with no version left behind them are removed. */
  readonly expiredDeleteMarkers?: boolean;
  /** What else the rule does that Barge does not show (transitions, tags, sizes): kept as it is. */
  readonly other?: boolean;
}

/** The expiry rule as the store kept it, what of it the store did not keep, and the bucket's versioning. */
export interface ExpiryOnServer {
  readonly rule: LifecycleRule;
  /** Parts of the rule the store dropped (MinIO keeps no abort of incomplete uploads), in words. */
  readonly dropped: readonly string[];
  /** What the noncurrent part does depends on it; undefined where the store did not say. */
  readonly versioning: BucketVersioning | undefined;
  /** The bucket held this very rule already: asking again changed nothing. */
  readonly already: boolean;
}

/** Rules a bucket holds at most (S3's limit). */
export const MAX_LIFECYCLE_RULES = 1_000;

/** The ID of the expiry rule for `prefix`: one per prefix, so asking twice changes nothing. */
export function expiryRuleId(prefix: string): string {
  // Up to 255 characters (S3's limit); a long prefix keeps its start and a hash of the whole.
  const id = `barge-expire:${prefix}`;
  if (id.length <= 255) return id;
  let hash = 0x811c9dc5;
  for (const unit of prefix) hash = Math.imul(hash ^ unit.codePointAt(0)!, 0x01000193) >>> 0;
  return `${id.slice(0, 240)}…${hash.toString(16).padStart(8, '0')}`;
}

/** The rule that has the store expire everything below `prefix`, every version of it. */
export function expiryRule(prefix: string): LifecycleRule {
  return {
    id: expiryRuleId(prefix),
    prefix,
    enabled: true,
    expireDays: 1,
    noncurrentDays: 1,
    abortUploadsDays: 1,
  };
}

/**
 * The bucket's rules (as the store holds them, every field kept) with `rule` added, or put in the
 * place of the rule of its ID; every other rule kept as it was. Fails in words where the bucket holds
 * the most rules S3 takes.
 */
export function withRule<T>(rules: readonly T[], rule: T, idOf: (rule: T) => string | undefined): T[] {
  const id = idOf(rule);
  const at = rules.findIndex((existing) => idOf(existing) === id);
  if (at >= 0) return rules.map((existing, index) => (index === at ? rule : existing));
  if (rules.length >= MAX_LIFECYCLE_RULES)
    throw new BargeError(
      'TooManyLifecycleRules',
      `The bucket already has ${MAX_LIFECYCLE_RULES.toLocaleString('en-US')} lifecycle rules, the most S3 ` +
        'takes: remove one first (barge lifecycle rm).',
    );
  return [...rules, rule];
}

/** What a rule does, in words ("below logs/: current versions expire after 1 day; …"). */
export function describeRule(rule: LifecycleRule): string {
  const where =
    rule.prefix === undefined ? 'a filter' : rule.prefix === '' ? 'the whole bucket' : `below ${rule.prefix}`;
  const does: string[] = [];
  // An expiry in days also removes the delete markers left with nothing behind them (S3's rule:
  // ExpiredObjectDeleteMarker cannot go with Days, which does its work once the markers are old enough).
  if (rule.expireDays !== undefined)
    does.push(`current versions and lone delete markers expire after ${days(rule.expireDays)}`);
  if (rule.noncurrentDays !== undefined)
    does.push(`noncurrent versions expire ${days(rule.noncurrentDays)} after they are replaced`);
  if (rule.expiredDeleteMarkers) does.push('delete markers with nothing behind them are removed');
  if (rule.abortUploadsDays !== undefined)
    does.push(`incomplete uploads are aborted after ${days(rule.abortUploadsDays)}`);
  if (rule.other) does.push('and more that Barge does not show');
  return `${where}${rule.enabled ? '' : ' (disabled)'}: ${does.length > 0 ? does.join('; ') : 'nothing Barge shows'}`;
}

function days(count: number): string {
  return count === 1 ? '1 day' : `${count.toLocaleString('en-US')} days`;
}

/** What the store is told, and when it acts: said wherever an expiry rule is added. */
export const EXPIRY_RUNS_LATER =
  'The store expires the objects itself, in its own time: typically within a day, asynchronously, with ' +
  'nothing for Barge to run meanwhile. Until then they are listed as before.';

/** What the noncurrent part of the rule does in a bucket of this versioning (undefined: the store did not say). */
export function versioningNote(versioning: BucketVersioning | undefined): string {
  switch (versioning) {
    case 'enabled':
      return (
        'The bucket keeps versions: expiring a current version leaves a delete marker, and the older ' +
        'versions and the marker then expire too, a day later. Nothing below the prefix can be brought back.'
      );
    case 'suspended':
      return (
        "The bucket's versioning is suspended: current objects expire for good, and the versions kept from " +
        'while it was on expire a day after they became noncurrent.'
      );
    case 'off':
      return (
        "The bucket has never had versioning on: current objects expire for good; the rule's noncurrent-" +
        'version part only matters on a versioned bucket.'
      );
    case undefined:
      return "The store did not say the bucket's versioning: every version below the prefix expires either way.";
  }
}
