// settings.json with wrong types or out-of-range numbers: each bad field is reported by name and the default kept.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { tempDir, writeTree } from '../../helpers/tmp.js';
import { DEFAULT_SETTINGS, loadSettings } from '../../../main/core/config/settings.js';

test('catalog and discovery numbers of the wrong type or out of range are reported and the defaults kept', () => {
  const data = tempDir();
  writeTree(data, {
    'settings.json': JSON.stringify({
      catalog: { budgetTokens: 'lots', budgetFraction: 5, contextWindow: -1 },
      discovery: { maxDepth: -2, maxFolders: 1.5 },
    }),
  });
  const { settings, diagnostics } = loadSettings(data);
  assert.equal(settings.catalog.budgetTokens, undefined);
  assert.equal(settings.catalog.budgetFraction, DEFAULT_SETTINGS.catalog.budgetFraction);
  assert.equal(settings.catalog.contextWindow, DEFAULT_SETTINGS.catalog.contextWindow);
  assert.equal(settings.discovery.maxDepth, DEFAULT_SETTINGS.discovery.maxDepth);
  assert.equal(settings.discovery.maxFolders, DEFAULT_SETTINGS.discovery.maxFolders);
  const fields = diagnostics
    .filter((d) => d.severity === 'error')
    .map((d) => d.field)
    .sort();
  assert.deepEqual(fields, [
    'catalog.budgetFraction',
    'catalog.budgetTokens',
    'catalog.contextWindow',
    'discovery.maxDepth',
    'discovery.maxFolders',
  ]);
  for (const d of diagnostics) assert.equal(d.file, join(data, 'settings.json'));
});

test('valid catalog numbers, budgetTokens included, are applied', () => {
  const data = tempDir();
  writeTree(data, {
    'settings.json': JSON.stringify({
      catalog: { budgetTokens: 1500, budgetFraction: 0.05 },
      discovery: { maxDepth: 0 },
    }),
  });
  const { settings, diagnostics } = loadSettings(data);
  assert.deepEqual(diagnostics, []);
  assert.equal(settings.catalog.budgetTokens, 1500);
  assert.equal(settings.catalog.budgetFraction, 0.05);
  assert.equal(settings.discovery.maxDepth, 0);
});

test('a settings.json that is a named pipe is reported, never waited on', () => {
  const data = tempDir();
  execFileSync('mkfifo', [join(data, 'settings.json')]);
  const { settings, diagnostics } = loadSettings(data);
  assert.deepEqual(settings, DEFAULT_SETTINGS);
  assert.equal(diagnostics.length, 1);
  assert.equal(diagnostics[0]?.code, 'settings.read');
  assert.match(diagnostics[0]?.message ?? '', /not a regular file/);
});
