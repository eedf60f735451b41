// The delete dialog's Expire on the server: a rule per folder, in order, each as the store read it
// back; the first the store refuses stops the rest, and is said, the rules added before it kept.

import { beforeEach, describe, expect, it } from 'vitest';
import { expiryRule } from '../../../src/lifecycle-rules.ts';
import { useServerExpiry } from '../../../renderer/store/server-expiry-store.ts';
import { useFakeApi } from './fake-api.ts';

beforeEach(() => useServerExpiry.getState().reset());

describe('expire on the server', () => {
  it('adds a rule per folder and keeps each as read back, with the versioning', async () => {
    const api = useFakeApi({
      'buckets.expirePrefix': ({ prefix }) => ({
        rule: expiryRule(prefix),
        dropped: [],
        versioning: 'enabled',
        already: false,
      }),
    });
    await useServerExpiry.getState().expire('c1', 'b', ['a/', 'b/']);
    expect(api.calls.map((call) => call.params)).toEqual([
      { connectionId: 'c1', name: 'b', prefix: 'a/' },
      { connectionId: 'c1', name: 'b', prefix: 'b/' },
    ]);
    const { added, adding, error } = useServerExpiry.getState();
    expect(added.map((expiry) => expiry.rule.id)).toEqual(['barge-expire:a/', 'barge-expire:b/']);
    expect({ adding, error }).toEqual({ adding: false, error: undefined });
  });

  it('stops at a refusal and says it, keeping the rules added before it', async () => {
    useFakeApi({
      'buckets.expirePrefix': ({ prefix }) =>
        prefix === 'a/'
          ? {
              rule: expiryRule(prefix),
              dropped: ['the abort of incomplete uploads'],
              versioning: 'off',
              already: false,
            }
          : new Error('This store does not support lifecycle rules.'),
    });
    await useServerExpiry.getState().expire('c1', 'b', ['a/', 'b/', 'c/']);
    const { added, error } = useServerExpiry.getState();
    expect(added.map((expiry) => expiry.dropped)).toEqual([['the abort of incomplete uploads']]);
    expect(error).toBe('This store does not support lifecycle rules.');
  });
});
