// Where Knack looks for its shipped skills: the checkout's builtin-skills folder, wherever the checkout lives.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import { tempDir } from '../../helpers/tmp.js';
import type * as Paths from '../../../main/core/config/paths.js';

test('built-in skills are found in a checkout whose path has spaces and non-ASCII letters', async () => {
  const checkout = join(tempDir(), 'My Projects', 'knäck');
  mkdirSync(join(checkout, 'main', 'core', 'config'), { recursive: true });
  mkdirSync(join(checkout, 'builtin-skills'), { recursive: true });
  const copy = join(checkout, 'main', 'core', 'config', 'paths.ts');
  copyFileSync(join(import.meta.dirname, '..', '..', '..', 'main', 'core', 'config', 'paths.ts'), copy);
  // tsx's own import: the copy is TypeScript, and the test process may have no loader for it (KNACK_TEST_BUNDLE).
  const mod = (await tsImport(pathToFileURL(copy).href, import.meta.url)) as typeof Paths;
  assert.equal(mod.resolvePaths({ home: '/h', dataDir: '/d' }, {}).builtinSkillsDir, join(checkout, 'builtin-skills'));
  assert.equal(mod.repoRoot, checkout);
});
