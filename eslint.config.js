// Lint: typescript-eslint's recommended type-aware-free rules over all TypeScript in the repo.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import { layersRule } from './eslint/layering.js';
import { toolNamesRule } from './eslint/tool-names.js';
import electronSecurity from 'eslint-plugin-electron-security';

/** Knack's own lint rules (eslint/). */
const knack = { rules: { layers: layersRule, 'tool-names': toolNamesRule } };

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'dist/**',
      'out/**',
      'packaging/**/*.d.mts',
      'builtin-skills/**/scripts/**',
      'test/fixtures/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-control-regex': 'off',
    },
  },
  {
    files: ['main/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'electron', message: 'main/core must never import electron' }] },
      ],
    },
  },
  // Electron's security checklist as lint, every rule an error (strict), over the Electron glue, the preload and the
  // packaging scripts. The one door for IPC handlers and windows is main/electron/main.ts; its sender guard is
  // senderProblem and its URL check openableExternalUrl (main/electron/security.ts).
  {
    files: ['main/electron/**/*.ts', 'preload/**/*.ts', 'packaging/**/*.mjs'],
    ...electronSecurity.configs.strict,
  },
  {
    files: ['main/electron/**/*.ts', 'preload/**/*.ts', 'packaging/**/*.mjs'],
    rules: {
      'electron-security/require-ipc-sender-validation': [
        'error',
        { senderGuards: ['validateSender', 'senderProblem'] },
      ],
      'electron-security/no-open-external-with-dynamic-url': [
        'error',
        { allowedProtocols: ['https:'], urlValidators: ['openableExternalUrl'] },
      ],
      // style-src needs 'unsafe-inline' for libraries' inline <style>; scripts never get it (see security.ts).
      'electron-security/require-csp': ['error', { allowUnsafeInline: true }],
      'electron-security/require-factory': [
        'error',
        {
          factories: [
            { api: 'ipcMain.handle', use: 'the loop in main/electron/main.ts', allowIn: ['main/electron/main.ts'] },
            { api: 'ipcMain.on', use: 'the loop in main/electron/main.ts', allowIn: ['main/electron/main.ts'] },
            { api: 'BrowserWindow', use: 'createWindow in main/electron/main.ts', allowIn: ['main/electron/main.ts'] },
          ],
        },
      ],
    },
  },
  {
    // The folders of main/ form one-way layers, and a core folder is reached through its index.ts; the renderer imports
    // only the contract and its client, and the contract nothing of main/ (eslint/layering.js).
    files: ['main/**/*.ts', 'renderer/**/*.{ts,tsx}', 'preload/**/*.ts'],
    plugins: { knack },
    rules: { 'knack/layers': 'error' },
  },
  {
    // Tool names are written once, in the tool table (main/core/policy/tool-table.ts); all of main/ (the core, the agent,
    // the CLI, serve mode, the Electron glue) reads them from it.
    files: ['main/**/*.ts'],
    plugins: { knack },
    rules: { 'knack/tool-names': 'error' },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
);
