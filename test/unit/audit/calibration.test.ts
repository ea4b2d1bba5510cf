// The audit measured both ways (issue 26, item 5): every hostile form in test/fixtures/audit/adversarial is caught
// (P0 or P1), and no real skill of a well-known publisher in test/fixtures/public-skills is refused (P0). The counts
// are printed as the test's diagnostics; docs/security-model.md reports them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { auditSkill } from '../../../main/core/skills/trust/audit.js';
import { FIXTURES } from '../../helpers/tmp.js';

function skillDirs(root: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(root)) {
    const p = join(root, name);
    if (!statSync(p).isDirectory()) continue;
    if (existsSync(join(p, 'SKILL.md'))) out.push(p);
    else out.push(...skillDirs(p));
  }
  return out;
}

test('every hostile form is caught, and no real skill of a well-known publisher is refused', (t) => {
  const adversarial = join(FIXTURES, 'audit', 'adversarial');
  const forms = Object.keys(JSON.parse(readFileSync(join(adversarial, 'expected.json'), 'utf8')) as object);
  const missed = forms.filter((f) => auditSkill(join(adversarial, f)).level === 'P2');
  t.diagnostic(`hostile forms caught (P0 or P1): ${forms.length - missed.length} of ${forms.length}`);
  assert.deepEqual(missed, []);

  const publishers = readdirSync(join(FIXTURES, 'public-skills')).filter((p) =>
    statSync(join(FIXTURES, 'public-skills', p)).isDirectory(),
  );
  const refused: string[] = [];
  let total = 0;
  for (const publisher of publishers) {
    const dirs = skillDirs(join(FIXTURES, 'public-skills', publisher));
    total += dirs.length;
    const p0 = dirs.filter((d) => auditSkill(d).level === 'P0');
    refused.push(...p0);
    t.diagnostic(`${publisher}: ${dirs.length} skills, ${p0.length} refused`);
  }
  t.diagnostic(`real skills refused (P0): ${refused.length} of ${total}`);
  assert.ok(total >= 42);
  assert.deepEqual(refused, []);
});
