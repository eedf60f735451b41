// Lint rules, and the architecture's import boundaries.
//
// The layers (ARCHITECTURE.md): src/ is pure and shared; the engine (main/engine/) runs in plain
// Node and knows neither the service nor a host; the service (main/service/) knows no host; the
// hosts (main/web-host/, main/cli/, main/electron/) do not know each other, and only main/electron/
// imports Electron; the window (renderer/) imports neither main/ nor Node.
//
// `no-restricted-imports` does not merge across config blocks: for a file that several blocks
// match, the last block's options replace the others'. So each folder's block lists every
// restriction it needs, composed from the groups below by `restrictImports`.
import { builtinModules } from 'node:module';
import tseslint from 'typescript-eslint';

/** Electron, its subpaths (electron/main, electron/renderer) included. */
const ELECTRON = {
  paths: [{ name: 'electron', message: 'Only main/electron/ may import Electron: the engine runs in plain Node.' }],
  patterns: [
    { group: ['electron/*'], message: 'Only main/electron/ may import Electron: the engine runs in plain Node.' },
  ],
};

/** Node's built-ins, with node: or without (fs, path, child_process, fs/promises). */
const NODE_BUILT_INS = {
  paths: builtinModules.map((name) => ({
    name,
    message: 'Node built-ins are not available here: this code also runs in a browser.',
  })),
  patterns: [
    { group: ['node:*'], message: 'Node built-ins are not available here: this code also runs in a browser.' },
  ],
};

/**
 * A folder of the tree, by the relative paths that reach it ('../service/x.ts', '../../main/service/x.ts');
 * a package of the same name (electron/main) is not this folder.
 */
function folder(name, message) {
  return { patterns: [{ regex: `^\\.{1,2}/(.*/)?${name}/`, message }] };
}

const MAIN = folder('main', 'main/ is the Node side: reach it through the contract (src/contract/), not by import.');
const SERVICE = folder('service', 'main/service/ sits above the engine: the engine does not know it.');
const WEB_HOST = folder(
  'web-host',
  "main/web-host/ is a host: only the hosts' own files import it (shared code goes to main/service/ or src/).",
);
const CLI = folder(
  'cli',
  'main/cli/ is a host: only its own files import it (shared code goes to main/service/ or src/).',
);
const ELECTRON_SHELL = folder(
  'electron',
  'main/electron/ is a host: only its own files import it (shared code goes to main/service/ or src/).',
);

/** The engine, seen from a host: only through the service (errors are shared from src/errors.ts). */
const ENGINE_BEHIND_SERVICE = {
  patterns: [
    {
      regex: '^\\.{1,2}/(.*/)?engine/',
      message:
        'Hosts reach the engine only through the service (main/service/): a capability built there reaches every host.',
    },
  ],
};

/** The engine, seen from the service: through its front door (engine.ts) and its errors only. */
const ENGINE_FRONT_DOOR = {
  patterns: [
    {
      regex: '^\\.{1,2}/(.*/)?engine/(?!(engine|errors)\\.ts$)',
      message:
        'The service talks to the engine through engine.ts (and its errors): add what it needs there, not a way around it.',
    },
  ],
};

const SRC_PURE = {
  patterns: [
    {
      group: ['**/main/**', '**/renderer/**'],
      message: 'src/ is pure shared code: it imports neither main/, renderer/ nor Node built-ins.',
    },
  ],
};

/**
 * The engine's rooms, top floor first (ARCHITECTURE.md): each imports only the floors below it, so
 * no arrow points up and no two rooms import each other. engine.ts is the front door above them all;
 * errors.ts and error-codes.ts are the floor beneath them all.
 */
const ENGINE_FLOORS = ['launch', 'jobs', 'journal', 's3', 'integrity', 'disk', 'queue'];
const ENGINE_ORDER = `engine.ts → ${ENGINE_FLOORS.map((floor) => `${floor}/`).join(' → ')} → errors.ts`;

/** The floors above `floor` (every floor, for the errors beneath them), and the front door. */
function enginesAbove(floor) {
  const above = floor === undefined ? ENGINE_FLOORS : ENGINE_FLOORS.slice(0, ENGINE_FLOORS.indexOf(floor));
  const where = floor === undefined ? 'errors.ts and error-codes.ts' : `main/engine/${floor}/`;
  const message = (room) =>
    `${where} sits below ${room}: an engine room imports only the rooms below it (${ENGINE_ORDER}). Move what both need down.`;
  return {
    patterns: [
      { regex: '^\\.{1,2}/(.*/)?engine\\.ts$', message: message('engine.ts') },
      ...above.map((room) => ({ regex: `^\\.{1,2}/(.*/)?${room}/`, message: message(`${room}/`) })),
    ],
  };
}

/** The options of one `no-restricted-imports` rule that enforces every group given. */
function restrictImports(...groups) {
  return [
    'error',
    {
      paths: groups.flatMap((group) => group.paths ?? []),
      patterns: groups.flatMap((group) => group.patterns ?? []),
    },
  ];
}

/** The window's restrictions; a later block for part of renderer/ composes these with its own. */
export const RENDERER_BOUNDARIES = [ELECTRON, NODE_BUILT_INS, MAIN];

export default tseslint.config(
  { ignores: ['node_modules/', 'app/', 'test-results/'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Prettier wraps code at 120 columns but leaves comments and long texts as written: comments are
      // held to the same width here; a string or template stays whole, so its words can be found by grep.
      'max-len': [
        'error',
        { code: 120, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreUrls: true, ignoreRegExpLiterals: true },
      ],
    },
  },
  // Everything in main/ outside the Electron shell (the build scripts too) runs in plain Node.
  {
    files: ['main/**/*.ts'],
    ignores: ['main/electron/**'],
    rules: { 'no-restricted-imports': restrictImports(ELECTRON) },
  },
  {
    files: ['main/engine/**/*.ts'],
    rules: { 'no-restricted-imports': restrictImports(ELECTRON, SERVICE, WEB_HOST, CLI, ELECTRON_SHELL) },
  },
  // Inside the engine every arrow points down (ENGINE_FLOORS).
  ...ENGINE_FLOORS.map((floor) => ({
    files: [`main/engine/${floor}/**/*.ts`],
    rules: {
      'no-restricted-imports': restrictImports(ELECTRON, SERVICE, WEB_HOST, CLI, ELECTRON_SHELL, enginesAbove(floor)),
    },
  })),
  {
    files: ['main/engine/errors.ts', 'main/engine/error-codes.ts'],
    rules: {
      'no-restricted-imports': restrictImports(
        ELECTRON,
        SERVICE,
        WEB_HOST,
        CLI,
        ELECTRON_SHELL,
        enginesAbove(undefined),
      ),
    },
  },
  // s3/ makes every request to a store: elsewhere in the engine the SDK gives types, never a command
  // to build (the next store quirk then has one place to be handled). typescript-eslint's copy of the
  // rule, so it adds to the engine's boundaries above rather than replacing them.
  {
    files: ['main/engine/**/*.ts'],
    ignores: ['main/engine/s3/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@aws-sdk/client-s3',
              allowTypeImports: true,
              message: 'Only main/engine/s3/ sends requests to a store: ask an operation of s3/ (add one there).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['main/service/**/*.ts'],
    rules: { 'no-restricted-imports': restrictImports(ELECTRON, WEB_HOST, CLI, ELECTRON_SHELL, ENGINE_FRONT_DOOR) },
  },
  {
    files: ['main/web-host/**/*.ts'],
    rules: { 'no-restricted-imports': restrictImports(ELECTRON, CLI, ELECTRON_SHELL, ENGINE_BEHIND_SERVICE) },
  },
  // `npm run demo`: a host-level script that starts its store, then the web host as `serve` does.
  {
    files: ['main/demo/**/*.ts'],
    rules: { 'no-restricted-imports': restrictImports(ELECTRON, CLI, ELECTRON_SHELL, ENGINE_BEHIND_SERVICE) },
  },
  {
    files: ['main/cli/**/*.ts'],
    rules: { 'no-restricted-imports': restrictImports(ELECTRON, WEB_HOST, ELECTRON_SHELL, ENGINE_BEHIND_SERVICE) },
  },
  {
    files: ['main/electron/**/*.ts'],
    rules: { 'no-restricted-imports': restrictImports(WEB_HOST, CLI, ENGINE_BEHIND_SERVICE) },
  },
  {
    files: ['src/**/*.ts'],
    rules: { 'no-restricted-imports': restrictImports(ELECTRON, NODE_BUILT_INS, SRC_PURE) },
  },
  // The window. vite.config.ts is the window's build, run by Node, not part of it.
  {
    files: ['renderer/**/*.{ts,tsx}'],
    ignores: ['renderer/vite.config.ts'],
    rules: { 'no-restricted-imports': restrictImports(...RENDERER_BOUNDARIES) },
  },
  // One write path in the window: components call store actions and read store state; only the
  // stores (renderer/store/) talk to the API. typescript-eslint's copy of the rule, so that it adds
  // to any `no-restricted-imports` block for renderer/ rather than replacing its options (a rule's
  // options do not merge across blocks).
  {
    files: ['renderer/App.tsx', 'renderer/components/**/*.ts', 'renderer/components/**/*.tsx'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/store/api', '**/store/api.ts', '**/api/*'],
              message: 'Components do not call the API: add or use a store action (renderer/store/) instead.',
            },
          ],
        },
      ],
    },
  },
);
