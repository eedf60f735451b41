// barge rm -r --expire-on-server and barge lifecycle ls|rm, through the real command line: the rule is
// confirmed first, added beside the bucket's rules, printed as the store reads it back (what it
// dropped said plainly, and that the store runs it later), listed, and removed alone.

import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { GetBucketLifecycleConfigurationCommand, PutBucketLifecycleConfigurationCommand } from '@aws-sdk/client-s3';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { setUpEngine } from '../support/fixtures.ts';
import type { TestContext } from '../support/fixtures.ts';
import { runCli, startCli } from '../support/run-cli.ts';

let t: TestContext;
beforeEach(async () => {
  t = await setUpEngine();
});
afterEach(() => t.close());

/** Someone else's rule: expire what is below tmp/ after 30 days. */
const THEIRS = {
  ID: 'their-tmp-rule',
  Filter: { Prefix: 'tmp/' },
  Status: 'Enabled' as const,
  Expiration: { Days: 30 },
};
const OURS = 'barge-expire:old/logs/';
const typedAt = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'support', 'pty-typed.py');

async function ruleIds(): Promise<string[]> {
  const answer = await t.connection.client
    .send(new GetBucketLifecycleConfigurationCommand({ Bucket: t.bucket }))
    .catch(() => ({ Rules: [] }));
  return (answer.Rules ?? []).map((rule) => rule.ID ?? '');
}

describe('rm -r --expire-on-server refuses what it cannot do', () => {
  it.each([
    [['rm', '--expire-on-server', '--yes', 's3://b/old/'], 'add --recursive (rm -r)'],
    [['rm', '-r', '--expire-on-server', '--dry-run', 's3://b/old/'], 'it has no dry run'],
    [['rm', '-r', '--expire-on-server', '--all-versions', '--yes', 's3://b/old/'], 'leave out --all-versions'],
    [
      ['rm', '-r', '--expire-on-server', '--older-than', '7d', '--yes', 's3://b/old/'],
      'a lifecycle rule takes no filter',
    ],
    [['rm', '-r', '--expire-on-server', '--yes', 's3://b/old/*.gz'], 'a lifecycle rule takes no wildcard'],
    [['rm', '-r', '--yes', 's3://b/old/'], '--yes confirms rm --expire-on-server'],
    [['lifecycle', 's3://b'], 'lifecycle takes ls or rm'],
    [['lifecycle', 'ls', 's3://b/key'], 'lifecycle ls takes a bucket, not a key'],
    [['lifecycle', 'rm', 's3://b'], 'lifecycle rm takes an s3://bucket address and a rule ID'],
  ])('barge %j: exit 2, saying why', async (args, why) => {
    const result = await runCli(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(why);
  });

  it('adds no rule without a terminal to confirm at, or --yes', async () => {
    const refused = await runCli(['rm', '-r', '--expire-on-server', `s3://${t.bucket}/old/logs`]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      `has the store delete everything below s3://${t.bucket}/old/logs/ (every version, delete marker and ` +
        'unfinished upload), in its own time, for good: run it in a terminal to confirm by typing the address, ' +
        'or add --yes to confirm it here.',
    );
    expect(await ruleIds()).toEqual([]);
  });
});

if (inject('s3').kind === 'minio')
  describe('expiry on the server, on a store that keeps lifecycle rules', () => {
    it('adds the rule beside the others, prints it as read back, lists the rules and removes it alone', async () => {
      await t.connection.client.send(
        new PutBucketLifecycleConfigurationCommand({ Bucket: t.bucket, LifecycleConfiguration: { Rules: [THEIRS] } }),
      );
      const added = await runCli(['rm', '-r', '--expire-on-server', '--yes', `s3://${t.bucket}/old/logs`]);
      expect(added.code).toBe(0);
      expect(added.stdout).toContain(`Added lifecycle rule ${OURS} to s3://${t.bucket}; as the store reads it back:\n`);
      expect(added.stdout).toContain(
        '  below old/logs/: current versions and lone delete markers expire after 1 day; noncurrent versions ' +
          'expire 1 day after they are replaced',
      );
      // MinIO keeps no abort of incomplete uploads in a rule: said, with what to do instead.
      expect(added.stdout).toContain(
        'The store did not keep part of the rule: the abort of incomplete uploads. It does the rest.\n' +
          `  Abort the incomplete uploads from here: barge abort-uploads s3://${t.bucket}/old/logs/\n`,
      );
      expect(added.stdout).toContain(
        "The bucket has never had versioning on: current objects expire for good; the rule's",
      );
      expect(added.stdout).toContain('in its own time: typically within a day, asynchronously');
      expect(added.stdout).toContain(
        `To take it back before the store acts: barge lifecycle rm s3://${t.bucket} ${OURS}\n`,
      );
      expect(await ruleIds()).toEqual([THEIRS.ID, OURS]);
      // Asked again: the same rule, said to be there already, not added a second time.
      const again = await runCli(['rm', '-r', '--expire-on-server', '--yes', `s3://${t.bucket}/old/logs`]);
      expect(again.code).toBe(0);
      expect(again.stdout).toContain(`Lifecycle rule ${OURS} was in s3://${t.bucket} already (nothing changed)`);
      expect(again.stdout).not.toContain('Added');
      expect(await ruleIds()).toEqual([THEIRS.ID, OURS]);

      const table = await runCli(['lifecycle', 'ls', `s3://${t.bucket}`]);
      expect(table.code).toBe(0);
      expect(table.stdout.split('\n')).toEqual([
        `${'ID'.padEnd(OURS.length)}  STATUS    WHAT IT DOES`,
        `${THEIRS.ID.padEnd(OURS.length)}  enabled   below tmp/: current versions and lone delete markers expire after 30 days`,
        `${OURS}  enabled   below old/logs/: current versions and lone delete markers expire after 1 day; ` +
          'noncurrent versions expire 1 day after they are replaced',
        '',
      ]);
      const json = await runCli(['lifecycle', 'ls', '--json', `s3://${t.bucket}`]);
      const rules = json.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { id: string; prefix: string; expireDays: number; noncurrentDays?: number });
      expect(rules).toMatchObject([
        { id: THEIRS.ID, prefix: 'tmp/', expireDays: 30 },
        { id: OURS, prefix: 'old/logs/', expireDays: 1, noncurrentDays: 1 },
      ]);

      const missing = await runCli(['lifecycle', 'rm', `s3://${t.bucket}`, 'not-a-rule']);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain(
        `Bucket ${t.bucket} has no lifecycle rule "not-a-rule": see its rules with barge lifecycle ls s3://${t.bucket}.`,
      );
      const removed = await runCli(['lifecycle', 'rm', `s3://${t.bucket}`, OURS]);
      expect(removed).toMatchObject({
        code: 0,
        stdout: `Removed lifecycle rule ${OURS} from s3://${t.bucket}; its other rules are as they were.\n`,
      });
      expect(await ruleIds()).toEqual([THEIRS.ID]);
    });

    it('adds the rule as JSON, with what the store dropped and the versioning', async () => {
      const added = await runCli(['rm', '-r', '--expire-on-server', '--yes', '--json', `s3://${t.bucket}/`]);
      expect(added.code).toBe(0);
      expect(JSON.parse(added.stdout)).toMatchObject({
        bucket: t.bucket,
        rule: { id: 'barge-expire:', prefix: '', expireDays: 1, noncurrentDays: 1 },
        dropped: ['the abort of incomplete uploads'],
        versioning: 'off',
        runs: 'asynchronously',
      });
    });

    it('adds no rule when the address typed at the terminal is not the one, and adds it when it is', async () => {
      const address = `s3://${t.bucket}/old/logs/`;
      const wrong = startCli(['rm', '-r', '--expire-on-server', `s3://${t.bucket}/old/logs`], {
        wrap: ['python3', typedAt],
      });
      wrong.child.stdin!.end('old/logs\n');
      const refused = await wrong.done;
      expect(refused.code).toBe(1);
      expect(refused.stdout).toContain(`Type ${address} to confirm:`);
      expect(refused.stdout).toContain(`"old/logs" is not ${address}: no rule was added.`);
      expect(await ruleIds()).toEqual([]);
      const right = startCli(['rm', '-r', '--expire-on-server', `s3://${t.bucket}/old/logs`], {
        wrap: ['python3', typedAt],
      });
      right.child.stdin!.end(`${address}\n`);
      const done = await right.done;
      expect(done.code).toBe(0);
      expect(done.stdout).toContain(`Added lifecycle rule ${OURS}`);
      expect(await ruleIds()).toEqual([OURS]);
    });
  });

if (inject('s3').kind === 'versitygw')
  describe('expiry on the server, on a store without lifecycle rules (versitygw)', () => {
    it('says the store does not support lifecycle rules, for ls, rm and --expire-on-server alike', async () => {
      const notSupported = 'This store does not support lifecycle rules (it answered 501 NotImplemented';
      for (const args of [
        ['lifecycle', 'ls', `s3://${t.bucket}`],
        ['lifecycle', 'rm', `s3://${t.bucket}`, OURS],
        ['rm', '-r', '--expire-on-server', '--yes', `s3://${t.bucket}/old/logs/`],
      ]) {
        const refused = await runCli(args);
        expect(refused.code).toBe(1);
        expect(refused.stderr).toContain(notSupported);
        expect(refused.stderr).not.toContain('checksum');
      }
    });
  });
