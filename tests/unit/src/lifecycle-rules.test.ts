// The expiry rule and how rules are said: one rule per prefix, the others kept, and words for each.

import { describe, expect, it } from 'vitest';
import {
  describeRule,
  expiryRule,
  expiryRuleId,
  MAX_LIFECYCLE_RULES,
  versioningNote,
  withRule,
} from '../../../src/lifecycle-rules.ts';

describe('the expiry rule', () => {
  it("has one ID per prefix, within S3's 255 characters however long the prefix", () => {
    expect(expiryRuleId('logs/')).toBe('barge-expire:logs/');
    const long = `${'a'.repeat(600)}/`;
    expect(expiryRuleId(long).length).toBeLessThanOrEqual(255);
    expect(expiryRuleId(long)).not.toBe(expiryRuleId(`${'a'.repeat(599)}b/`));
  });

  it('expires current and noncurrent versions and incomplete uploads, said in words', () => {
    expect(describeRule(expiryRule('old/'))).toBe(
      'below old/: current versions and lone delete markers expire after 1 day; noncurrent versions expire 1 day ' +
        'after they are replaced; incomplete uploads are aborted after 1 day',
    );
    expect(describeRule({ ...expiryRule(''), enabled: false, other: true })).toMatch(
      /^the whole bucket \(disabled\): .*; and more that Barge does not show$/,
    );
  });

  it("is added beside the rules there, replaces only its own, and is refused past S3's most", () => {
    const id = (rule: { id: string }) => rule.id;
    const theirs = { id: 'theirs' };
    expect(withRule([theirs], { id: 'mine' }, id)).toEqual([theirs, { id: 'mine' }]);
    expect(withRule([{ id: 'mine', n: 1 }, theirs], { id: 'mine', n: 2 }, id)).toEqual([{ id: 'mine', n: 2 }, theirs]);
    const full = Array.from({ length: MAX_LIFECYCLE_RULES }, (_, i) => ({ id: `r${i}` }));
    expect(() => withRule(full, { id: 'mine' }, id)).toThrow(/already has 1,000 lifecycle rules.*barge lifecycle rm/);
  });
});

describe('what the versioning changes', () => {
  it('names each state, and says where the noncurrent part only matters on a versioned bucket', () => {
    expect(versioningNote('enabled')).toMatch(/^The bucket keeps versions/);
    expect(versioningNote('suspended')).toMatch(/versioning is suspended/);
    expect(versioningNote('off')).toMatch(/never had versioning on.*only matters on a versioned bucket/);
    expect(versioningNote(undefined)).toMatch(/did not say/);
  });
});
