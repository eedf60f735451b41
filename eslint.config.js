// Lint rules, and the architecture's import boundaries.
//
// The engine (everything in main/ outside the Electron shell) must run in plain Node: the command
// line, the web host and the tests use it without Electron. src/ is shared by both sides and so
// imports neither of them.
import tseslint from 'typescript-eslint';

const electronImport = {
  paths: [{ name: 'electron', message: 'Only main/electron/ may import Electron: the engine runs in plain Node.' }],
};

export default tseslint.config(
  { ignores: ['node_modules/', 'app/', 'test-results/'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['main/**/*.ts'],
    ignores: ['main/electron/**'],
    rules: { 'no-restricted-imports': ['error', electronImport] },
  },
  {
    files: ['src/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        ...electronImport,
        patterns: [{ group: ['**/main/**', '**/renderer/**', 'node:*'], message: 'src/ is pure shared code: it imports neither main/, renderer/ nor Node built-ins.' }],
      }],
    },
  },
  // One write path in the window: components call store actions and read store state; only the
  // stores (renderer/store/) talk to the API. typescript-eslint's copy of the rule, so that it adds
  // to any `no-restricted-imports` block for renderer/ rather than replacing its options (a rule's
  // options do not merge across blocks).
  {
    files: ['renderer/App.tsx', 'renderer/components/**/*.ts', 'renderer/components/**/*.tsx'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        patterns: [{
          group: ['**/store/api', '**/store/api.ts', '**/api/*'],
          message: 'Components do not call the API: add or use a store action (renderer/store/) instead.',
        }],
      }],
    },
  },
);
