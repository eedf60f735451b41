// Expiry on the server (issue 28 §4): a lifecycle rule that has the store delete a prefix, added
// beside the bucket's other rules, which survive it, and removed alone later.

import { GetBucketLifecycleConfigurationCommand, PutBucketLifecycleConfigurationCommand } from '@aws-sdk/client-s3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expirePrefixOnServer, lifecycleRules, removeLifecycleRule } from '../../main/engine/s3/bucket-lifecycle.ts';
import { expiryRuleId } from '../../src/lifecycle-rules.ts';
import { setUpEngine } from '../support/fixtures.ts';
import type { TestContext } from '../support/fixtures.ts';

let t: TestContext;
beforeEach(async () => {
  t = await setUpEngine();
});
afterEach(() => t.close());

/** Someone else's rule: expire what is tagged "scratch" after 30 days. */
const THEIRS = {
  ID: 'their-scratch-rule',
  Filter: { Tag: { Key: 'kind', Value: 'scratch' } },
  Status: 'Enabled' as const,
  Expiration: { Days: 30 },
};

describe('expiry on the server', () => {
  it('adds its rule beside the rules there, once however often asked, and removes it alone', async () => {
    await t.connection.client.send(
      new PutBucketLifecycleConfigurationCommand({ Bucket: t.bucket, LifecycleConfiguration: { Rules: [THEIRS] } }),
    );
    const { rule, dropped } = await expirePrefixOnServer(t.connection, t.bucket, 'old/logs/');
    await expirePrefixOnServer(t.connection, t.bucket, 'old/logs/');
    // What the store kept is what is said: MinIO keeps no abort of incomplete uploads in a rule.
    expect(dropped).toEqual(rule.abortUploadsDays === undefined ? ['the abort of incomplete uploads'] : []);
    const shown = await lifecycleRules(t.connection, t.bucket);
    expect(shown.map((r) => r.id)).toEqual(['their-scratch-rule', expiryRuleId('old/logs/')]);
    expect(shown[1]).toEqual(rule);
    expect(shown[1]).toMatchObject({ prefix: 'old/logs/', expireDays: 1, noncurrentDays: 1 });
    // Theirs, as the store holds it: every field as it was written.
    const stored = await t.connection.client.send(new GetBucketLifecycleConfigurationCommand({ Bucket: t.bucket }));
    expect(stored.Rules?.find((r) => r.ID === THEIRS.ID)).toMatchObject(THEIRS);

    await removeLifecycleRule(t.connection, t.bucket, rule.id);
    expect((await lifecycleRules(t.connection, t.bucket)).map((r) => r.id)).toEqual(['their-scratch-rule']);
  });

  it('removes the configuration with its last rule, and refuses a rule it does not have by name', async () => {
    const { rule } = await expirePrefixOnServer(t.connection, t.bucket, '');
    await expect(removeLifecycleRule(t.connection, t.bucket, 'not-a-rule')).rejects.toMatchObject({
      code: 'NoSuchLifecycleRule',
    });
    await removeLifecycleRule(t.connection, t.bucket, rule.id);
    expect(await lifecycleRules(t.connection, t.bucket)).toEqual([]);
  });
});
