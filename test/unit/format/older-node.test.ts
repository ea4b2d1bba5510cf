// Knack supports Node 20.10 (package.json engines), which has no crypto.hash (20.12 on): parsing a SKILL.md and
// auditing a folder must work without it. A child process runs the real code with crypto.hash taken away.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { tempDir, writeTree, skillMd } from '../../helpers/tmp.js';

const root = join(import.meta.dirname, '..', '..', '..');

test('without crypto.hash (Node 20.10–20.11) a SKILL.md parses and its folder audits, with the same digest', () => {
  const dir = tempDir();
  const skill = join(dir, 'deploy');
  writeTree(skill, {
    'SKILL.md': skillMd({ name: 'deploy', description: 'Ship the build' }, '# Deploy\n\nRun `npm install` first.\n'),
  });
  const preload = join(dir, 'no-hash.cjs');
  writeFileSync(preload, "delete require('node:crypto').hash;\n");
  const script = join(dir, 'run.mts');
  writeFileSync(
    script,
    [
      `import * as crypto from 'node:crypto';`,
      `const { parseSkillFile } = await import(${JSON.stringify(pathToFileURL(join(root, 'main/core/skills/format/manifest.ts')).href)});`,
      `const { auditSkill } = await import(${JSON.stringify(pathToFileURL(join(root, 'main/core/skills/trust/audit.ts')).href)});`,
      `const p = parseSkillFile(${JSON.stringify(join(skill, 'SKILL.md'))}, { folderName: null });`,
      `const r = auditSkill(${JSON.stringify(skill)});`,
      `console.log(JSON.stringify({ hasHash: typeof crypto.hash, name: p.manifest?.name, digest: p.manifest?.frontmatter?.sha256 ?? null, level: r.level, hash: r.contentHash }));`,
    ].join('\n'),
  );
  const run = (pre: string[]) =>
    spawnSync(process.execPath, [...pre, '--import', 'tsx', script], { cwd: root, encoding: 'utf8' });
  const without = run(['--require', preload]);
  assert.equal(without.status, 0, without.stderr);
  const a = JSON.parse(without.stdout.trim().split('\n').at(-1)!);
  assert.equal(a.hasHash, 'undefined', 'the child really has no crypto.hash');
  assert.equal(a.name, 'deploy');
  assert.equal(a.level, 'P1');
  assert.match(a.digest, /^[0-9a-f]{64}$/);
  const withIt = run([]);
  assert.equal(withIt.status, 0, withIt.stderr);
  const b = JSON.parse(withIt.stdout.trim().split('\n').at(-1)!);
  assert.deepEqual(
    { ...a, hasHash: 'x' },
    { ...b, hasHash: 'x' },
    'the same parse, digest and content hash either way',
  );
});
