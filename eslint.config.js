// Lint: typescript-eslint's recommended type-aware-free rules over all TypeScript in the repo.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import { layeringPlugin } from './eslint/layering.js';

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'out/**', 'builtin-skills/**/scripts/**', 'test/fixtures/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-control-regex': 'off',
    },
  },
  {
    files: ['main/core/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'electron', message: 'main/core must never import electron' }] }],
    },
  },
  {
    // The folders of main/ form one-way layers (eslint/layering.js); an import against them is an error.
    files: ['main/**/*.ts'],
    plugins: { knack: layeringPlugin },
    rules: { 'knack/layers': 'error' },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
);
