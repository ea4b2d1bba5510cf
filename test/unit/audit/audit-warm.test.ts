// The audit workers warm up on a sample skill written to a private temporary folder (the file walk, reads, hashing and
// rules all run before the first real folder), and the folder is removed afterwards.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { removeSampleSkill, writeSampleSkill } from '../../../main/core/skills/trust/audit-sample.js';
import { warmAuditor } from '../../../main/core/skills/trust/audit-warm.js';
import { auditSkill } from '../../../main/core/skills/trust/audit.js';
import { parseSkillFile } from '../../../main/core/skills/format/manifest.js';
import { AuditPool } from '../../../main/core/skills/trust/audit-pool.js';
import { tempDir, writeTree, skillMd } from '../../helpers/tmp.js';

test('the sample skill on disk is a real skill folder the auditor reads like any other, and is removed after', () => {
  const dir = writeSampleSkill();
  assert.ok(dir && existsSync(join(dir, 'SKILL.md')));
  try {
    assert.equal(parseSkillFile(join(dir, 'SKILL.md'), { folderName: null }).manifest?.name, 'release-helper');
    assert.deepEqual(readdirSync(join(dir, 'scripts')).sort(), ['notes.py', 'release.sh']);
    const report = auditSkill(dir);
    assert.equal(report.files, 4);
    assert.equal(report.level, 'P1', 'its install lines are findings, as in real skills');
    warmAuditor(2, dir);
    warmAuditor(1);
  } finally {
    removeSampleSkill(dir);
  }
  assert.equal(existsSync(dir), false);
});

test('a pool warmed on the sample audits exactly as this thread does', async () => {
  const root = tempDir();
  writeTree(root, { 'one/SKILL.md': skillMd({ name: 'one', description: 'The one skill' }, '```bash\npip install rich\n```\n') });
  const pool = new AuditPool(1, 2);
  try {
    await pool.ready();
    const { report } = await pool.audit(join(root, 'one'));
    assert.deepEqual(report, auditSkill(join(root, 'one')));
  } finally {
    await pool.close();
  }
});
