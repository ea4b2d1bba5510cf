// The audit pool's workers never wait on each other nor on the opening thread: a worker that is done with its share
// takes the folders another has not started, so a slow folder holds up no other folder's audit; each is audited once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir, writeTree, skillMd } from '../../helpers/tmp.js';
import { AuditPool } from '../../../main/core/skills/trust/audit-pool.js';
import { auditSkill } from '../../../main/core/skills/trust/audit.js';

const slowable = { from: import.meta.url, name: 'crashing-audit-worker' };

function skills(root: string, names: string[]): string[] {
  const files: Record<string, string> = {};
  for (const n of names)
    files[`${n}/SKILL.md`] = skillMd(
      { name: n, description: `The ${n} skill` },
      n.endsWith('3') ? '```bash\npip install rich\n```\n' : '# Steps\n\nDo it well.\n',
    );
  writeTree(root, files);
  return names.map((n) => join(root, n));
}

test('a folder that takes long holds up no other audit: the other worker audits every other folder meanwhile, each once', async () => {
  const root = tempDir();
  const names = ['wait-0', ...Array.from({ length: 15 }, (_, i) => `skill-${i + 1}`)];
  const dirs = skills(root, names);
  const pool = new AuditPool(2, { entry: slowable });
  // Were the others queued behind the slow folder, they would never arrive: closing the pool then fails them.
  const guard = setTimeout(() => void pool.close(), 30_000);
  try {
    await pool.ready();
    const all = dirs.map((d) => pool.audit(d));
    const others = await Promise.all(all.slice(1));
    assert.deepEqual(
      others.map((r) => r.report.contentHash),
      dirs.slice(1).map((d) => auditSkill(d).contentHash),
    );
    assert.deepEqual(
      others.map((r) => r.report.level),
      names.slice(1).map((n) => (n.endsWith('3') ? 'P1' : 'P2')),
    );
    assert.equal(pool.pending, 1, 'only the slow folder is still being audited');
    writeFileSync(join(dirs[0]!, 'go'), '');
    const slow = await all[0]!;
    assert.equal(slow.report.level, 'P2');
    assert.equal(pool.stats.audited, 16, 'each folder audited once');
    assert.equal(pool.pending, 0);
  } finally {
    clearTimeout(guard);
    await pool.close();
  }
});
