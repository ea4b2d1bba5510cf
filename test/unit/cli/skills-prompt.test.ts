import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { tempDir, writeTree, skillMd } from '../../helpers/tmp.js';
import { run } from '../../helpers/cli.js';

/** `knack ARGS` in-process, with a temporary home and data folder. */
function knack(args: string[], home: string) {
  return run([...args, '--home', home, '--data-dir', join(home, '.knack')]);
}

test('skills prompt shows the budgeted catalog, keeps the most relevant skill and says what was cut; disabled skills never appear', async () => {
  const home = tempDir();
  const ws = tempDir();
  writeTree(join(ws, '.workbuddy', 'skills'), {
    'invoice-parser/SKILL.md': skillMd({
      name: 'invoice-parser',
      description: 'Parse invoices into line items. Use when the user sends an invoice PDF.',
    }),
    'secret-tool/SKILL.md': skillMd({ name: 'secret-tool', description: 'Internal helper the user turned off.' }),
  });
  assert.equal((await knack(['skills', 'disable', 'secret-tool', '--workspace', ws], home)).code, 0);

  const full = await knack(['skills', 'prompt', '--workspace', ws, '--json'], home);
  assert.equal(full.code, 0, full.err);
  const all = JSON.parse(full.out) as { text: string; included: string[]; dropped: string[]; budget: number };
  assert.equal(all.budget, 4000, 'default budget is 2% of a 200k window');
  assert.ok(all.included.includes('invoice-parser') && all.included.includes('git-commit'));
  assert.ok(!all.text.includes('secret-tool'), 'a disabled skill is never in the prompt');

  const tight = await knack(
    ['skills', 'prompt', '--workspace', ws, '--budget', '40', '--query', 'parse this invoice', '--json'],
    home,
  );
  const cut = JSON.parse(tight.out) as { tokens: number; included: string[]; dropped: string[] };
  assert.deepEqual(cut.included, ['invoice-parser'], 'the skill relevant to the request is the one kept');
  assert.ok(cut.dropped.includes('git-commit'));
  assert.ok(cut.tokens <= 40);

  const bad = await knack(['skills', 'prompt', '--workspace', ws, '--budget', 'lots'], home);
  assert.equal(bad.code, 2);
  assert.match(bad.err, /--budget: expected a whole number/);
});
