// The architecture's import rules are enforced by lint; this proves the rules bite.

import { ESLint } from 'eslint';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..', '..');
const eslint = new ESLint({ cwd: root });

async function ruleIdsFor(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result!.messages.map((m) => m.ruleId ?? m.message);
}

describe('import boundaries', () => {
  it('refuses Electron in the engine and the command line', async () => {
    expect(
      await ruleIdsFor('main/engine/new-module.ts', "import { app } from 'electron';\nexport const x = app;\n"),
    ).toContain('no-restricted-imports');
    expect(
      await ruleIdsFor('main/cli/new-command.ts', "import type { App } from 'electron';\nexport type X = App;\n"),
    ).toContain('no-restricted-imports');
  });

  it('allows Electron in the Electron shell', async () => {
    expect(
      await ruleIdsFor('main/electron/new-window.ts', "import type { App } from 'electron';\nexport type X = App;\n"),
    ).not.toContain('no-restricted-imports');
  });

  it('keeps src/ free of main/, renderer/ and Node built-ins', async () => {
    expect(
      await ruleIdsFor(
        'src/new-model.ts',
        "import { Engine } from '../main/engine/engine.ts';\nexport const x = Engine;\n",
      ),
    ).toContain('no-restricted-imports');
    expect(
      await ruleIdsFor('src/new-model.ts', "import { x } from '../renderer/store.ts';\nexport const y = x;\n"),
    ).toContain('no-restricted-imports');
    expect(await ruleIdsFor('src/new-model.ts', "import fs from 'node:fs';\nexport const y = fs;\n")).toContain(
      'no-restricted-imports',
    );
    expect(await ruleIdsFor('src/new-model.ts', "import path from 'path';\nexport const y = path;\n")).toContain(
      'no-restricted-imports',
    );
    expect(await ruleIdsFor('src/new-model.ts', "import { z } from 'zod';\nexport const y = z;\n")).not.toContain(
      'no-restricted-imports',
    );
  });

  // Each case is code that would pass every other rule: only the boundary can fire.
  const importing = (from: string) => `import { x } from '${from}';\nexport const y = x;\n`;

  it("refuses Electron's subpaths wherever it refuses Electron, and allows them in the Electron shell", async () => {
    expect(await ruleIdsFor('main/engine/new-module.ts', importing('electron/main'))).toContain(
      'no-restricted-imports',
    );
    expect(await ruleIdsFor('main/cli/new-command.ts', importing('electron/main'))).toContain('no-restricted-imports');
    expect(await ruleIdsFor('src/new-model.ts', importing('electron/common'))).toContain('no-restricted-imports');
    expect(await ruleIdsFor('renderer/new-part.ts', importing('electron/renderer'))).toContain('no-restricted-imports');
    expect(await ruleIdsFor('main/electron/new-window.ts', importing('electron/main'))).not.toContain(
      'no-restricted-imports',
    );
  });

  it('keeps the window free of main/ and Node built-ins, with node: or without', async () => {
    for (const from of [
      '../main/engine/engine.ts',
      '../../main/service/barge-service.ts',
      'node:fs',
      'fs',
      'path',
      'child_process',
      'fs/promises',
    ]) {
      expect(await ruleIdsFor('renderer/store/new-store.ts', importing(from)), from).toContain('no-restricted-imports');
    }
    expect(await ruleIdsFor('renderer/components/NewPart.tsx', importing('../../main/engine/engine.ts'))).toContain(
      'no-restricted-imports',
    );
    for (const from of [
      '../../src/contract/models.ts',
      '../../src/jobs.ts',
      './main.tsx',
      './path/steps.ts',
      'zustand',
    ]) {
      expect(await ruleIdsFor('renderer/store/new-store.ts', importing(from)), from).not.toContain(
        'no-restricted-imports',
      );
    }
  });

  it('keeps the engine from the service and the hosts', async () => {
    for (const from of [
      '../service/barge-service.ts',
      '../../service/connection-registry.ts',
      '../web-host/serve.ts',
      '../cli/main.ts',
      '../electron/window.ts',
    ]) {
      const file = from.startsWith('../../') ? 'main/engine/jobs/new-job.ts' : 'main/engine/new-module.ts';
      expect(await ruleIdsFor(file, importing(from)), from).toContain('no-restricted-imports');
    }
    for (const from of ['./s3/s3-wire.ts', '../queue/retry-policy.ts', '../../../src/jobs.ts', 'node:fs']) {
      expect(await ruleIdsFor('main/engine/jobs/new-job.ts', importing(from)), from).not.toContain(
        'no-restricted-imports',
      );
    }
  });

  it('lets the service reach the engine only through its front door (engine.ts) and its errors', async () => {
    for (const from of ['../engine/s3/s3-listing.ts', '../engine/jobs/job.ts', '../engine/journal/journal.ts']) {
      expect(await ruleIdsFor('main/service/new-part.ts', importing(from)), from).toContain('no-restricted-imports');
    }
    for (const from of ['../engine/engine.ts', '../engine/errors.ts']) {
      expect(await ruleIdsFor('main/service/new-part.ts', importing(from)), from).not.toContain(
        'no-restricted-imports',
      );
    }
  });

  it('keeps the service from the hosts', async () => {
    for (const from of ['../web-host/serve.ts', '../cli/main.ts', '../electron/main.ts']) {
      expect(await ruleIdsFor('main/service/new-part.ts', importing(from)), from).toContain('no-restricted-imports');
    }
    for (const from of ['../engine/engine.ts', '../../src/contract/api.ts', './secret-store.ts']) {
      expect(await ruleIdsFor('main/service/new-part.ts', importing(from)), from).not.toContain(
        'no-restricted-imports',
      );
    }
  });

  it('keeps the hosts from each other and from the engine behind the service, and lets each use the service, src/ and its own files', async () => {
    const hosts = {
      'web-host': 'main/web-host/new-part.ts',
      cli: 'main/cli/commands/new-command.ts',
      electron: 'main/electron/new-part.ts',
    } as const;
    for (const [host, file] of Object.entries(hosts)) {
      const up = host === 'cli' ? '../../' : '../';
      for (const other of Object.keys(hosts).filter((name) => name !== host)) {
        expect(await ruleIdsFor(file, importing(`${up}${other}/x.ts`)), `${host} → ${other}`).toContain(
          'no-restricted-imports',
        );
      }
      for (const engine of [`${up}engine/engine.ts`, `${up}engine/s3/s3-listing.ts`, `${up}engine/errors.ts`]) {
        expect(await ruleIdsFor(file, importing(engine)), `${host} → ${engine}`).toContain('no-restricted-imports');
      }
      for (const from of [
        `${up}service/barge-service.ts`,
        `${up}../src/errors.ts`,
        `${up}../src/content-security-policy.ts`,
        './x.ts',
      ]) {
        expect(await ruleIdsFor(file, importing(from)), `${host} → ${from}`).not.toContain('no-restricted-imports');
      }
    }
  });

  it('lets the demo start the web host and the service, but keeps it from the engine, the command line and Electron', async () => {
    const file = 'main/demo/new-part.ts';
    for (const from of [
      '../engine/engine.ts',
      '../engine/s3/s3-listing.ts',
      '../engine/errors.ts',
      '../cli/x.ts',
      '../electron/x.ts',
      'electron',
    ]) {
      expect(await ruleIdsFor(file, importing(from)), `demo → ${from}`).toContain('no-restricted-imports');
    }
    for (const from of [
      '../web-host/serve-host.ts',
      '../service/runtime.ts',
      '../../src/errors.ts',
      '../../src/plural.ts',
      './demo-seed.ts',
    ]) {
      expect(await ruleIdsFor(file, importing(from)), `demo → ${from}`).not.toContain('no-restricted-imports');
    }
  });

  it("keeps the API out of the window's components: only the stores talk to it", async () => {
    const refused = [
      ['renderer/components/NewPanel.tsx', "import { request } from '../store/api.ts';\nexport const x = request;\n"],
      [
        'renderer/components/NewPanel.tsx',
        "import type { BargeApi } from '../store/api';\nexport type X = BargeApi;\n",
      ],
      [
        'renderer/components/NewPanel.tsx',
        "import { createWebClient } from '../api/web-client.ts';\nexport const x = createWebClient;\n",
      ],
      [
        'renderer/components/browser/useNewHook.ts',
        "import { api } from '../../store/api.ts';\nexport const x = api;\n",
      ],
      ['renderer/App.tsx', "import { api } from './store/api.ts';\nexport const x = api;\n"],
    ] as const;
    // typescript-eslint's copy of the rule: it adds to renderer/'s other import restrictions.
    const rule = '@typescript-eslint/no-restricted-imports';
    for (const [file, code] of refused) expect(await ruleIdsFor(file, code), `${file}: ${code}`).toContain(rule);
    expect(
      await ruleIdsFor(
        'renderer/components/NewPanel.tsx',
        "import { useJobs } from '../store/jobs-store.ts';\nexport const x = useJobs;\n",
      ),
    ).not.toContain(rule);
    expect(
      await ruleIdsFor(
        'renderer/store/new-store.ts',
        "import { request } from './api.ts';\nexport const x = request;\n",
      ),
    ).not.toContain(rule);
  });

  it('lets only s3/ build a request to a store: elsewhere in the engine the SDK gives types alone', async () => {
    const rule = '@typescript-eslint/no-restricted-imports';
    const command =
      "import { DeleteObjectCommand } from '@aws-sdk/client-s3';\nexport const x = DeleteObjectCommand;\n";
    const types =
      "import type { DeleteObjectCommandOutput } from '@aws-sdk/client-s3';\nexport type X = DeleteObjectCommandOutput;\n";
    for (const file of ['main/engine/jobs/new-job.ts', 'main/engine/journal/x.ts', 'main/engine/engine.ts']) {
      expect(await ruleIdsFor(file, command), file).toContain(rule);
      expect(await ruleIdsFor(file, types), file).not.toContain(rule);
    }
    expect(await ruleIdsFor('main/engine/s3/new-operation.ts', command)).not.toContain(rule);
  });

  it("points every arrow in the engine down: a room imports only the rooms below it, so none imports another's", async () => {
    // engine.ts → launch/ → jobs/ → journal/ → s3/ → integrity/ → disk/ → queue/ → errors.ts
    const refused: [string, string][] = [
      ['main/engine/launch/x.ts', '../engine.ts'],
      ['main/engine/jobs/x.ts', '../launch/recovery.ts'],
      ['main/engine/jobs/x.ts', '../engine.ts'],
      ['main/engine/journal/recovery.ts', '../jobs/job-bodies.ts'],
      ['main/engine/journal/x.ts', '../launch/recovery.ts'],
      ['main/engine/s3/x.ts', '../jobs/job.ts'],
      ['main/engine/s3/x.ts', '../journal/journal.ts'],
      ['main/engine/integrity/upload-checksum.ts', '../s3/s3-connection.ts'],
      ['main/engine/integrity/x.ts', '../s3/s3-wire.ts'],
      ['main/engine/disk/x.ts', '../journal/job-journal.ts'],
      ['main/engine/disk/x.ts', '../s3/s3-wire.ts'],
      ['main/engine/disk/x.ts', '../integrity/crc.ts'],
      ['main/engine/queue/x.ts', '../disk/local-files.ts'],
      ['main/engine/queue/x.ts', '../s3/s3-connection.ts'],
      ['main/engine/errors.ts', './disk/temporary-name.ts'],
      ['main/engine/errors.ts', './s3/xml-entities.ts'],
      ['main/engine/error-codes.ts', './queue/retry-policy.ts'],
    ];
    for (const [file, from] of refused) {
      expect(await ruleIdsFor(file, importing(from)), `${file} → ${from}`).toContain('no-restricted-imports');
    }
    const allowed: [string, string][] = [
      ['main/engine/engine.ts', './launch/recovery.ts'],
      ['main/engine/launch/x.ts', '../jobs/job.ts'],
      ['main/engine/jobs/x.ts', '../journal/job-journal.ts'],
      ['main/engine/jobs/x.ts', '../s3/s3-wire.ts'],
      ['main/engine/journal/x.ts', '../disk/local-files.ts'],
      ['main/engine/s3/x.ts', '../integrity/upload-checksum.ts'],
      ['main/engine/s3/x.ts', '../queue/retry-loop.ts'],
      ['main/engine/integrity/x.ts', '../disk/streamed-body.ts'],
      ['main/engine/disk/x.ts', '../queue/byte-gate.ts'],
      ['main/engine/queue/x.ts', '../errors.ts'],
      ['main/engine/s3/x.ts', './s3-wire.ts'],
      ['main/engine/errors.ts', './error-codes.ts'],
      ['main/engine/errors.ts', '../../src/xml-entities.ts'],
    ];
    for (const [file, from] of allowed) {
      expect(await ruleIdsFor(file, importing(from)), `${file} → ${from}`).not.toContain('no-restricted-imports');
    }
  });
});
