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
    expect(await ruleIdsFor('main/engine/new-module.ts', "import { app } from 'electron';\nexport const x = app;\n")).toContain('no-restricted-imports');
    expect(await ruleIdsFor('main/cli/new-command.ts', "import type { App } from 'electron';\nexport type X = App;\n")).toContain('no-restricted-imports');
  });

  it('allows Electron in the Electron shell', async () => {
    expect(await ruleIdsFor('main/electron/new-window.ts', "import type { App } from 'electron';\nexport type X = App;\n")).not.toContain('no-restricted-imports');
  });

  it('keeps src/ free of main/, renderer/ and Node built-ins', async () => {
    expect(await ruleIdsFor('src/new-model.ts', "import { Engine } from '../main/engine/engine.ts';\nexport const x = Engine;\n")).toContain('no-restricted-imports');
    expect(await ruleIdsFor('src/new-model.ts', "import { x } from '../renderer/store.ts';\nexport const y = x;\n")).toContain('no-restricted-imports');
    expect(await ruleIdsFor('src/new-model.ts', "import fs from 'node:fs';\nexport const y = fs;\n")).toContain('no-restricted-imports');
    expect(await ruleIdsFor('src/new-model.ts', "import { z } from 'zod';\nexport const y = z;\n")).not.toContain('no-restricted-imports');
  });

  it('keeps the API out of the window\'s components: only the stores talk to it', async () => {
    const refused = [
      ['renderer/components/NewPanel.tsx', "import { request } from '../store/api.ts';\nexport const x = request;\n"],
      ['renderer/components/NewPanel.tsx', "import type { BargeApi } from '../store/api';\nexport type X = BargeApi;\n"],
      ['renderer/components/NewPanel.tsx', "import { createWebClient } from '../api/web-client.ts';\nexport const x = createWebClient;\n"],
      ['renderer/components/browser/useNewHook.ts', "import { api } from '../../store/api.ts';\nexport const x = api;\n"],
      ['renderer/App.tsx', "import { api } from './store/api.ts';\nexport const x = api;\n"],
    ] as const;
    // typescript-eslint's copy of the rule: it adds to renderer/'s other import restrictions.
    const rule = '@typescript-eslint/no-restricted-imports';
    for (const [file, code] of refused) expect(await ruleIdsFor(file, code), `${file}: ${code}`).toContain(rule);
    expect(await ruleIdsFor('renderer/components/NewPanel.tsx', "import { useJobs } from '../store/jobs-store.ts';\nexport const x = useJobs;\n")).not.toContain(rule);
    expect(await ruleIdsFor('renderer/store/new-store.ts', "import { request } from './api.ts';\nexport const x = request;\n")).not.toContain(rule);
  });
});
