import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeJsonFileAtomically } from '../../../../main/service/atomic-json-file.ts';

describe('writeJsonFileAtomically', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'barge-atomic-json-'));
  });
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('writes the JSON, readable by its owner only, and leaves no temporary file', async () => {
    const file = path.join(folder, 'new', 'secrets.json');
    await writeJsonFileAtomically(file, { a: 'b' });
    expect(await readFile(file, 'utf8')).toBe('{"a":"b"}');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(path.dirname(file))).mode & 0o777).toBe(0o700);
    expect(await readdir(path.dirname(file))).toEqual(['secrets.json']);
  });

  it('replaces the file whole, indented when asked', async () => {
    const file = path.join(folder, 'connections.json');
    await writeJsonFileAtomically(file, [{ id: 1 }]);
    await writeJsonFileAtomically(file, [{ id: 2 }], { indent: 2 });
    expect(await readFile(file, 'utf8')).toBe('[\n  {\n    "id": 2\n  }\n]');
    expect(await readdir(folder)).toEqual(['connections.json']);
  });

  it('makes a temporary file an earlier crash left behind owner-only too', async () => {
    const file = path.join(folder, 'secrets.json');
    await writeFile(`${file}.tmp`, 'half a write', { mode: 0o644 });
    await writeJsonFileAtomically(file, {});
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readdir(folder)).toEqual(['secrets.json']);
  });
});
