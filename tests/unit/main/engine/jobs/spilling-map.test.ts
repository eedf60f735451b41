import { expect, it } from 'vitest';
import { SpillingMap } from '../../../../../main/engine/jobs/spilling-map.ts';
import { SavedPaths } from '../../../../../src/key-path.ts';

it('keeps entries in memory up to its limit, then on disk, answering the same either way', async () => {
  const map = new SpillingMap<{ n: number }>(3);
  try {
    for (let n = 0; n < 3; n++) map.set(`k${n}`, { n });
    expect(map.spilled).toBe(false);
    map.set('k1', { n: 10 });
    expect(map.spilled).toBe(false);
    for (let n = 3; n < 25_000; n++) map.set(`k${n}`, { n });
    expect(map.spilled).toBe(true);
    expect(map.get('k0')).toEqual({ n: 0 });
    expect(map.get('k1')).toEqual({ n: 10 });
    expect(map.get('k24999')).toEqual({ n: 24999 });
    expect(map.get('missing')).toBeUndefined();
    map.set('k0', { n: -1 });
    expect(map.get('k0')).toEqual({ n: -1 });
  } finally {
    map.close();
  }
});

it("a download's claims on disk still refuse a second key for one file", async () => {
  const owners = new SpillingMap<{ key: string; path: string }>(2);
  try {
    const saved = new SavedPaths({ caseInsensitive: true, owners });
    for (let n = 0; n < 10; n++) expect(saved.claim(`/out/file${n}.txt`, `p/file${n}.txt`)).toBeUndefined();
    expect(owners.spilled).toBe(true);
    expect(saved.claim('/out/FILE3.txt', 'p/FILE3.txt')).toContain(
      'would overwrite /out/file3.txt, where "p/file3.txt" is saved',
    );
    expect(saved.claim('/out/file3.txt', 'p/file3.txt')).toBeUndefined();
  } finally {
    owners.close();
  }
});
