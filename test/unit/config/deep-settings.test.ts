// A settings file nested far deeper than any real one (a hostile repository ships it as .workbuddy/settings.json):
// it is reported with its line and column, and never stops the folder from opening.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir, writeTree } from '../../helpers/tmp.js';
import { loadSettings } from '../../../main/core/config/settings.js';
import { readJsonText } from '../../../main/core/config/json-text.js';
import { serviceEnv } from '../../helpers/service-env.js';

const DEEP = 20_000;

test('a settings file nested 20,000 levels deep is reported with its file, not thrown', () => {
  const root = tempDir();
  const ws = join(root, 'ws');
  writeTree(ws, { '.workbuddy/settings.json': '['.repeat(DEEP) + ']'.repeat(DEEP) });
  mkdirSync(join(root, 'data'), { recursive: true });
  const { diagnostics } = loadSettings(join(root, 'data'), ws);
  const d = diagnostics.find((x) => x.file.endsWith(join('.workbuddy', 'settings.json')));
  assert.ok(d, JSON.stringify(diagnostics));
  assert.equal(d.code, 'settings.json');
  assert.match(d.message, /nested more than \d+ levels/);
});

test('reading a deeply nested file stops with a reason instead of overflowing the stack', () => {
  const r = readJsonText(`{"policy":\n${'{"a":'.repeat(DEEP)}1${'}'.repeat(DEEP)}}`);
  assert.equal(r.keys.get('policy'), 1);
  assert.match(r.error?.message ?? '', /nested more than \d+ levels/);
});

test('a folder whose settings file is nested 20,000 levels deep still opens', { timeout: 60_000 }, async (t) => {
  const { call } = await serviceEnv(t, {
    files: { '.workbuddy/settings.json': '{"a":'.repeat(DEEP) + '1' + '}'.repeat(DEEP) },
  });
  const info = await call('workspace.current', {});
  assert.ok(
    info?.diagnostics.some((d) => d.file.endsWith('settings.json')),
    JSON.stringify(info?.diagnostics),
  );
});
