// The connection form's words: its own checks by field, and a check's outcome in the status line.

import { describe, expect, it } from 'vitest';
import { checkSummary, formProblems } from '../../../renderer/components/ConnectionForm.tsx';
import { useConnections } from '../../../renderer/store/connections-store.ts';
import { useFakeApi } from './fake-api.ts';

describe('the connection form', () => {
  it('says what is wrong by the field, with no field name or zod wording before it', () => {
    expect(formProblems({ name: '  ', endpoint: 'https://store.example/bucket', region: 'r'.repeat(51) })).toEqual({
      name: 'Give the connection a name',
      endpoint: "The endpoint must be the store's address only, without a path (/bucket): give the bucket apart.",
      region: 'At most 50 characters.',
    });
    expect(formProblems({ name: 'MinIO', endpoint: '' })).toEqual({});
  });

  it('names what failed in the status line, the reason going by its field', () => {
    expect(
      checkSummary({
        ok: false,
        failed: 'keys',
        field: 'secretAccessKey',
        code: 'SignatureDoesNotMatch',
        message: 'x',
      }),
    ).toBe('Test failed: the store refused the keys (403).');
    expect(checkSummary({ ok: false, failed: 'dns', field: 'endpoint', code: 'ENOTFOUND', message: 'x' })).toBe(
      "Test failed: the endpoint's name does not resolve (DNS).",
    );
    expect(checkSummary({ ok: true, buckets: 1 })).toBe('Connected: 1 bucket.');
    expect(checkSummary({ ok: true, buckets: undefined, note: 'They may not list buckets.' })).toBe(
      'Connected. They may not list buckets.',
    );
  });

  it('checks the draft through the store, with the connection being edited', async () => {
    const input = { name: 'MinIO', endpoint: 'http://127.0.0.1:9000', accessKeyId: 'key', secretAccessKey: '' };
    const api = useFakeApi({ 'connections.check': { ok: true, buckets: 2 } });
    expect(await useConnections.getState().check(input, 'c1')).toEqual({ ok: true, buckets: 2 });
    await useConnections.getState().check(input);
    expect(api.calls).toEqual([
      { method: 'connections.check', params: { input, id: 'c1' } },
      { method: 'connections.check', params: { input } },
    ]);
  });
});
