// The audit workers warm up on sample skills written to a private temporary folder: each goes through the worker's own
// path (SKILL.md parsed as the catalog asks, the folder audited in a rehearsed round), and the folder is removed after.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  REPEAT_COPIES,
  removeSampleSkill,
  SAMPLE_SKILLS,
  writeSampleSkill,
} from '../../../main/core/skills/trust/audit-sample.js';
import {
  REPEAT_SLICES,
  repeatFolders,
  sampleFolders,
  slicesPerRound,
  warmSlice,
  warmTexts,
  warmUp,
} from '../../../main/core/skills/trust/audit-warm.js';
import { rehearseRound } from '../../../main/core/skills/trust/audit-serve.js';
import { auditService } from '../../../main/core/skills/trust/audit-service.js';
import { auditSkill } from '../../../main/core/skills/trust/audit.js';
import { parseSkillFile } from '../../../main/core/skills/format/manifest.js';
import { AuditPool } from '../../../main/core/skills/trust/audit-pool.js';
import { tempDir, writeTree, skillMd } from '../../helpers/tmp.js';

test('the sample skills on disk are real, varied skill folders the auditor reads like any other, and are removed after', () => {
  const root = writeSampleSkill();
  assert.ok(root);
  try {
    const folders = sampleFolders(root);
    assert.deepEqual(
      folders.map((d) => d.slice(root.length + 1)),
      Object.keys(SAMPLE_SKILLS).sort(),
    );
    const parsed = folders.map((d) => parseSkillFile(join(d, 'SKILL.md'), { folderName: null }));
    assert.equal(
      parsed.find((p) => p.manifest?.name === 'agent-development')?.diagnostics[0]?.code,
      'name.slugified',
      'a display name',
    );
    assert.ok(
      parsed.some((p) => !p.manifest),
      'a skill that does not index (no description)',
    );
    assert.ok(
      parsed.some((p) => p.manifest?.requested.permissions?.declared === 'both'),
      'permissions and allowed-tools',
    );
    assert.deepEqual(readdirSync(join(root, 'release-helper', 'scripts')).sort(), ['notes.py', 'release.sh']);
    const levels = new Set(folders.map((d) => auditSkill(d).level));
    assert.deepEqual(
      [...levels].sort(),
      ['P0', 'P1', 'P2'],
      'clean skills, install lines and refused lines, as in a real folder',
    );
    const service = auditService();
    for (let s = 0; s < 3 * slicesPerRound(folders); s++) warmSlice(service, folders, s);
    warmTexts();
  } finally {
    removeSampleSkill(root);
  }
  assert.equal(existsSync(root), false);
});

test('the repeat skills are common, real skill folders: each indexes under its folder name, every fifth holds an install line', () => {
  const root = writeSampleSkill();
  assert.ok(root);
  try {
    const repeats = repeatFolders(root);
    assert.equal(repeats.length, REPEAT_COPIES);
    assert.equal(
      sampleFolders(root).some((d) => repeats.includes(d)),
      false,
      'the sample rounds do not take them',
    );
    for (const [n, dir] of repeats.entries()) {
      const parsed = parseSkillFile(join(dir, 'SKILL.md'), { folderName: null });
      assert.equal(parsed.manifest?.name, `repeat-${n}`);
      assert.deepEqual(parsed.diagnostics, []);
      assert.deepEqual(readdirSync(join(dir, 'scripts')), ['check.sh']);
      const report = auditSkill(dir);
      assert.equal(report.files, 2);
      assert.deepEqual(
        report.findings.map((f) => f.rule),
        n % 5 === 0 ? ['install.pip'] : [],
        dir,
      );
    }
  } finally {
    removeSampleSkill(root);
  }
});

test('the warm-up goes through every round of samples, then every round of repeats, one slice per step, and ends', () => {
  const root = writeSampleSkill();
  assert.ok(root);
  try {
    const rounds = 2;
    const seen: string[] = [];
    const service = auditService();
    // What each step asks the service: the sample slices parse one SKILL.md at a time, the repeat slices all copies.
    const watched = {
      ...service,
      parse: (files: string[]) => (
        seen.push(files.length === REPEAT_COPIES ? 'repeat' : 'sample'),
        service.parse(files)
      ),
    };
    const step = warmUp(watched, root, rounds);
    let steps = 0;
    while (step()) steps++;
    const samples = sampleFolders(root);
    assert.equal(steps, rounds * (slicesPerRound(samples) + REPEAT_SLICES));
    assert.equal(step(), false, 'done stays done');
    const firstRepeat = seen.indexOf('repeat');
    assert.equal(
      seen.slice(firstRepeat).every((k) => k === 'repeat'),
      true,
      'the repeats come after every sample round',
    );
    assert.equal(seen.slice(firstRepeat).length, rounds * REPEAT_SLICES);
    // Without the samples on disk: the texts alone, once per round.
    const texts = warmUp(service, undefined, 3);
    let n = 0;
    while (texts()) n++;
    assert.equal(n, 3);
  } finally {
    removeSampleSkill(root);
  }
});

test("a rehearsed round audits each folder once, from the worker's own parse, as the pool's round does", () => {
  const root = tempDir();
  writeTree(root, {
    'one/SKILL.md': skillMd({ name: 'one', description: 'The one skill' }, '```bash\npip install rich\n```\n'),
    'two/SKILL.md': skillMd({ name: 'two', description: 'The other skill' }),
  });
  const service = auditService();
  service.parse([join(root, 'one', 'SKILL.md')]);
  const results = rehearseRound(
    [
      { id: 1, dir: join(root, 'one') },
      { id: 2, dir: join(root, 'two') },
    ],
    service,
  );
  assert.deepEqual(results.map((r) => r.i).sort(), [0, 1]);
  assert.deepEqual(results.find((r) => r.i === 0)?.report, auditSkill(join(root, 'one')));
  assert.deepEqual(results.find((r) => r.i === 1)?.report, auditSkill(join(root, 'two')));
});

test('a pool warmed on the samples audits exactly as this thread does', async () => {
  const root = tempDir();
  writeTree(root, {
    'one/SKILL.md': skillMd({ name: 'one', description: 'The one skill' }, '```bash\npip install rich\n```\n'),
  });
  const pool = new AuditPool(1, 2);
  try {
    await pool.ready();
    const { report } = await pool.audit(join(root, 'one'));
    assert.deepEqual(report, auditSkill(join(root, 'one')));
  } finally {
    await pool.close();
  }
});
