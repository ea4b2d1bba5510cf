// The lint rule knack/layers run through ESLint with the repository's own configuration, on real files of the tree:
// the renderer reaches main only through the contract, the contract imports nothing of main/, and a core folder is
// used from outside only through its index.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ESLint } from 'eslint';

const root = join(import.meta.dirname, '..', '..', '..');
const eslint = new ESLint({ cwd: root });

/** The knack/layers messages for `code` linted as if it were the file `rel`. */
async function layerErrors(rel: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(root, rel) });
  return result!.messages.filter((m) => m.ruleId === 'knack/layers').map((m) => m.message);
}

test('a renderer file importing main/ is refused, naming what it may import', async () => {
  const errors = await layerErrors(
    'renderer/src/components/ApprovalCard.tsx',
    "import { displaySafe } from '../../../main/core/policy/index.js';\nexport const x = displaySafe;\n",
  );
  assert.equal(errors.length, 1, errors.join('\n'));
  assert.match(errors[0]!, /renderer\/ imports only its own files, preload\/contract\.ts and preload\/client\.ts/);
});

test('a renderer file importing Node or a preload file other than the contract and its client is refused', async () => {
  const errors = await layerErrors(
    'renderer/src/components/ApprovalCard.tsx',
    "import { readFileSync } from 'node:fs';\nimport { displaySafe } from '../../../preload/display';\nexport const x = [readFileSync, displaySafe];\n",
  );
  assert.equal(errors.length, 2, errors.join('\n'));
  assert.match(errors[0]!, /never imports Node or Electron \(node:fs\)/);
  assert.match(errors[1]!, /not \.\.\/\.\.\/\.\.\/preload\/display/);
});

test('a renderer file importing the contract, the client and its own files passes', async () => {
  const errors = await layerErrors(
    'renderer/src/components/ApprovalCard.tsx',
    "import { displaySafe } from '../../../preload/contract';\nimport { connectFromPage } from '../../../preload/client';\nimport { t } from '../i18n';\nexport const x = [displaySafe, connectFromPage, t];\n",
  );
  assert.deepEqual(errors, []);
});

test('the contract importing main/ is refused', async () => {
  const errors = await layerErrors(
    'preload/contract.ts',
    "import { TOOL } from '../main/core/policy/index.js';\nexport const x = TOOL;\n",
  );
  assert.equal(errors.length, 1, errors.join('\n'));
  assert.match(errors[0]!, /preload\/ imports only its own files/);
});

test('a deep import into another core folder is refused; its index.ts and deep imports inside a folder pass', async () => {
  const deep = await layerErrors(
    'main/cli/trust.ts',
    "import { createGate } from '../core/policy/gate.js';\nexport const x = createGate;\n",
  );
  assert.equal(deep.length, 1, deep.join('\n'));
  assert.match(deep[0]!, /main\/cli may import main\/core\/policy only through main\/core\/policy\/index\.ts/);
  const nested = await layerErrors(
    'main/core/skills/use/session.ts',
    "import { parseSkillFile } from '../format/manifest.js';\nexport const x = parseSkillFile;\n",
  );
  assert.equal(nested.length, 1, nested.join('\n'));
  assert.match(nested[0]!, /only through main\/core\/skills\/format\/index\.ts/);
  assert.deepEqual(
    await layerErrors('main/cli/trust.ts', "import { TOOL } from '../core/policy/index.js';\nexport const x = TOOL;\n"),
    [],
  );
  assert.deepEqual(
    await layerErrors(
      'main/core/policy/gate.ts',
      "import { categoryOf } from './rules.js';\nexport const x = categoryOf;\n",
    ),
    [],
  );
});

test('a lower layer importing a higher one is still refused, through its index.ts too', async () => {
  const errors = await layerErrors(
    'main/core/policy/gate.ts',
    "import { ToolRegistry } from '../tools/index.js';\nexport const x = ToolRegistry;\n",
  );
  assert.equal(errors.length, 1, errors.join('\n'));
  assert.match(errors[0]!, /main\/core\/policy may not import main\/core\/tools/);
});
