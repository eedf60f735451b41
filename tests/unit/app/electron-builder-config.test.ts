// electron-builder.yml is checked against electron-builder's own JSON schema (app-builder-lib).

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..', '..');

async function validator() {
  const schema = JSON.parse(
    await readFile(path.join(root, 'node_modules', 'app-builder-lib', 'scheme.json'), 'utf8'),
  ) as object;
  return new Ajv({ allErrors: true, strict: false, allowUnionTypes: true }).compile(schema);
}

describe('electron-builder.yml', () => {
  it('is valid for electron-builder', async () => {
    const validate = await validator();
    const config = parse(await readFile(path.join(root, 'electron-builder.yml'), 'utf8')) as Record<string, unknown>;
    expect(validate(config), JSON.stringify(validate.errors)).toBe(true);
    expect(config).toMatchObject({
      linux: { target: ['AppImage', 'deb'] },
      mac: { target: ['dmg'] },
      win: { target: ['nsis'] },
    });
  });

  it('burns the fuses: no running as Node, no NODE_OPTIONS or --inspect, the asar checked', async () => {
    const config = parse(await readFile(path.join(root, 'electron-builder.yml'), 'utf8')) as Record<string, unknown>;
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
    });
    const validate = await validator();
    expect(validate({ ...config, electronFuses: { runAsNode: 'no' } })).toBe(false);
  });

  it('unpacks native binaries from the asar, where the system could not load them', async () => {
    const config = parse(await readFile(path.join(root, 'electron-builder.yml'), 'utf8')) as Record<string, unknown>;
    expect(config.asarUnpack).toContain('**/*.node');
    // The native CRC32C is a production dependency, so electron-builder packs it.
    const manifest = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    expect(manifest.dependencies['@node-rs/crc32']).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('would catch a mistake (the schema check is real)', async () => {
    const validate = await validator();
    expect(validate({ appId: 'x', linux: { target: 42 }, notAnOption: true })).toBe(false);
  });
});
