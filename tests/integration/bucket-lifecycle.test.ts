// Expiry on the server (issue 28 §4): a lifecycle rule that has the store delete a prefix, added
// beside the bucket's other rules, which survive it, and removed alone later. A store without
// lifecycle rules (versitygw; MinIO behind a proxy that answers as it does) is said to be one.

import {
  GetBucketLifecycleConfigurationCommand,
  PutBucketLifecycleConfigurationCommand,
  PutBucketVersioningCommand,
} from '@aws-sdk/client-s3';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { expirePrefixOnServer, lifecycleRules, removeLifecycleRule } from '../../main/engine/s3/bucket-lifecycle.ts';
import { expiryRuleId } from '../../src/lifecycle-rules.ts';
import { serverConfig, setUpEngine } from '../support/fixtures.ts';
import type { TestContext } from '../support/fixtures.ts';
import { startLegacyStoreProxy } from '../support/legacy-store-proxy.ts';
import type { Refusal } from '../support/legacy-store-proxy.ts';

/** How versitygw 1.8 answers every lifecycle request. */
const NO_LIFECYCLE: Refusal = {
  status: 501,
  code: 'NotImplemented',
  message: 'A header you provided implies functionality that is not implemented',
};

const NOT_SUPPORTED = {
  code: 'LifecycleNotSupported',
  message: expect.stringMatching(/^This store does not support lifecycle rules .*barge rm -r/) as unknown,
};

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

const storeKeepsRules = inject('s3').kind === 'minio';

if (storeKeepsRules)
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

if (storeKeepsRules)
  describe('expiry on the server, with versioning', () => {
    it("names the bucket's versioning with the rule, which decides what its noncurrent part does", async () => {
      expect((await expirePrefixOnServer(t.connection, t.bucket, 'a/')).versioning).toBe('off');
      await t.connection.client.send(
        new PutBucketVersioningCommand({ Bucket: t.bucket, VersioningConfiguration: { Status: 'Enabled' } }),
      );
      const again = await expirePrefixOnServer(t.connection, t.bucket, 'a/');
      expect(again.versioning).toBe('enabled');
      expect(again.rule).toMatchObject({ prefix: 'a/', noncurrentDays: 1 });
    });
  });

if (!storeKeepsRules)
  describe('a store without lifecycle rules (versitygw)', () => {
    it('says so by name, for reading, adding and removing, and learns nothing wrong of its checksums', async () => {
      await expect(lifecycleRules(t.connection, t.bucket)).rejects.toMatchObject(NOT_SUPPORTED);
      await expect(expirePrefixOnServer(t.connection, t.bucket, 'old/')).rejects.toMatchObject(NOT_SUPPORTED);
      await expect(removeLifecycleRule(t.connection, t.bucket, 'any')).rejects.toMatchObject(NOT_SUPPORTED);
      expect(t.connection.checksumHeaders).toBe('unknown');
    });
  });

describe('a store that answers lifecycle requests 501 NotImplemented, as versitygw does', () => {
  it('is said not to support lifecycle rules, never to refuse checksum headers, and is sent no rule', async () => {
    const s3 = inject('s3');
    const proxy = await startLegacyStoreProxy(
      s3.endpoint,
      { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
      s3.region,
    );
    try {
      proxy.refuse = (request) => (/[?&]lifecycle(=|&|$)/.test(request.url) ? NO_LIFECYCLE : undefined);
      const connection = await t.engine.connect({ ...serverConfig(), endpoint: proxy.endpoint });
      await expect(lifecycleRules(connection, t.bucket)).rejects.toMatchObject(NOT_SUPPORTED);
      await expect(expirePrefixOnServer(connection, t.bucket, 'old/')).rejects.toMatchObject(NOT_SUPPORTED);
      await expect(removeLifecycleRule(connection, t.bucket, 'any')).rejects.toMatchObject(NOT_SUPPORTED);
      expect(connection.checksumHeaders).toBe('unknown');
      expect(proxy.seen.filter((r) => r.method === 'PUT')).toEqual([]);
    } finally {
      await proxy.close();
    }
  });

  // Over a store that reads rules back (MinIO): versitygw refuses the read itself.
  if (storeKeepsRules)
    it('is said not to support them when only the write is refused, after the write went again without checksums', async () => {
      const s3 = inject('s3');
      const proxy = await startLegacyStoreProxy(
        s3.endpoint,
        { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
        s3.region,
      );
      try {
        proxy.refuse = (request) =>
          request.method === 'PUT' && /[?&]lifecycle(=|&|$)/.test(request.url) ? NO_LIFECYCLE : undefined;
        const connection = await t.engine.connect({ ...serverConfig(), endpoint: proxy.endpoint });
        await expect(expirePrefixOnServer(connection, t.bucket, 'old/')).rejects.toMatchObject(NOT_SUPPORTED);
        // Sent again without them and refused again: the refusal was never of the checksum headers.
        expect(proxy.seen.filter((r) => r.method === 'PUT').map((r) => r.checksumHeaders.length > 0)).toEqual([
          true,
          false,
        ]);
        expect(connection.checksumHeaders).toBe('unknown');
      } finally {
        await proxy.close();
      }
    });
});
