// Paths on the host's machine, through the service every host shares: never relative, and where the
// host confines downloads, folders are listed only below its root.

import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { Engine } from '../../../../main/engine/engine.ts';
import { createBargeService } from '../../../../main/service/barge-service.ts';
import type { BargeService } from '../../../../main/service/barge-service.ts';
import { ConnectionRegistry } from '../../../../main/service/connection-registry.ts';
import { FileSecretStore } from '../../../../main/service/secret-store.ts';

let folder: string;
let root: string;
let service: BargeService;

beforeEach(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'barge-service-paths-'));
  root = path.join(folder, 'downloads');
  await mkdir(path.join(root, 'e2e'), { recursive: true });
  const engine = new Engine({ env: {} });
  const registry = new ConnectionRegistry({
    dataDir: folder,
    engine,
    secrets: new FileSecretStore(path.join(folder, 'secrets.json')),
    env: {},
  });
  service = createBargeService({
    engine,
    registry,
    host: 'web',
    downloadRoot: root,
    pageCallers: true,
    restoreJobs: false,
  });
});

afterEach(async () => {
  await service.close();
  await rm(folder, { recursive: true, force: true });
});

it('refuses a relative download folder before anything else, in words the form shows as they are', async () => {
  const refused = await service.dispatch('jobs.download', {
    connectionId: 'env',
    bucket: 'b',
    keys: ['a.txt'],
    targetFolder: 'exports',
  });
  expect(refused).toEqual({
    ok: false,
    error: { code: 'RelativePath', message: expect.stringMatching(/^"exports" is a relative path/) },
  });
});

it('says which machine downloads land on, and below which folder', async () => {
  expect(await service.dispatch('host.info', {})).toEqual({
    ok: true,
    value: { kind: 'web', defaultDownloadFolder: root, machineName: os.hostname(), downloadRoot: root },
  });
});

it("lists the host's folders below the download root only", async () => {
  expect(await service.dispatch('fs.listFolders', {})).toEqual({
    ok: true,
    value: { path: root, parent: undefined, folders: ['e2e'], truncated: false },
  });
  expect(await service.dispatch('fs.listFolders', { path: path.join(root, 'e2e') })).toMatchObject({
    ok: true,
    value: { parent: root, folders: [] },
  });
  expect(await service.dispatch('fs.listFolders', { path: path.join(root, '..') })).toMatchObject({
    ok: false,
    error: { code: 'OutsideDownloadRoot' },
  });
  expect(await service.dispatch('fs.listFolders', { path: 'e2e' })).toMatchObject({
    ok: false,
    error: { code: 'RelativePath' },
  });
  // Strict: nothing but the path is taken.
  expect(await service.dispatch('fs.listFolders', { path: root, files: true })).toMatchObject({
    ok: false,
    error: { code: 'InvalidRequest' },
  });
});

it('makes a new folder for the picker below the download root only, and answers with its listing; refuses a name in words', async () => {
  const made = path.join(root, 'e2e', 'Photos 2026');
  expect(await service.dispatch('fs.makeFolder', { parent: path.join(root, 'e2e'), name: 'Photos 2026' })).toEqual({
    ok: true,
    value: { path: made, parent: path.join(root, 'e2e'), folders: [], truncated: false },
  });
  expect((await stat(made)).isDirectory()).toBe(true);
  expect(await service.dispatch('fs.makeFolder', { parent: path.join(root, 'e2e'), name: 'Photos 2026' })).toEqual({
    ok: false,
    error: {
      code: 'FolderExists',
      message: `Photos 2026 is already there in ${path.join(root, 'e2e')}: choose another name, or open it.`,
    },
  });
  expect(await service.dispatch('fs.makeFolder', { parent: folder, name: 'escaped' })).toMatchObject({
    ok: false,
    error: { code: 'OutsideDownloadRoot' },
  });
  await expect(stat(path.join(folder, 'escaped'))).rejects.toThrow();
  const refused = async (name: string) =>
    ((await service.dispatch('fs.makeFolder', { parent: root, name })) as { error: { code: string; message: string } })
      .error;
  expect(await refused('a/b')).toEqual({
    code: 'InvalidFolderName',
    message: '"a/b" cannot name a folder: a name has no / or \\ in it (make one folder at a time).',
  });
  expect(await refused('..')).toMatchObject({
    code: 'InvalidFolderName',
    message: '".." cannot name a folder: it means this folder or the one above it.',
  });
  expect(await refused('  ')).toEqual({ code: 'InvalidFolderName', message: 'Give the new folder a name.' });
  expect(await refused('bad\u202etxt')).toEqual({
    code: 'InvalidFolderName',
    message: '"bad\\u202etxt" cannot name a folder: it holds a bidirectional formatting character (\\u202e).',
  });
  expect(await refused('é'.repeat(128))).toEqual({
    code: 'InvalidFolderName',
    message: "That name is 256 bytes long: a folder's name holds at most 255 bytes.",
  });
});
