// SKILL.md frontmatter is parsed once on its way from discovery to a tool call: the manifest carries the permission
// request and what the audit reads, the gate and the audit use them, and the audit re-reads only a frontmatter that changed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openWorkspace } from '../../../main/core/workspace.js';
import { resolvePaths } from '../../../main/core/config/paths.js';
import { frontmatterParses } from '../../../main/core/skills/format/frontmatter.js';
import { parseSkillFile } from '../../../main/core/skills/format/manifest.js';
import { parsedManifestOf } from '../../../main/core/skills/format/types.js';
import { auditSkill } from '../../../main/core/skills/trust/audit.js';
import { FIXTURES, skillMd, tempDir, writeTree } from '../../helpers/tmp.js';

test('from discovery to a tool call, each SKILL.md frontmatter is parsed once (audit, gate, Skill load, file tool)', async () => {
  const home = tempDir();
  const workspace = tempDir();
  const paths = resolvePaths({ home, dataDir: join(home, '.knack') });
  writeTree(join(workspace, '.workbuddy', 'skills'), {
    'notes/SKILL.md': skillMd(
      'name: notes\ndescription: Take notes in the notes folder.\npermissions:\n  tools: [read_file, write_file]\n  paths:\n    read: ["notes/**"]\n    write: ["notes/**"]',
    ),
    'fetcher/SKILL.md': skillMd('name: fetcher\ndescription: Fetch pages.\nallowed-tools: WebFetch Bash(git status:*)'),
    'plain/SKILL.md': skillMd({ name: 'plain', description: 'Nothing declared.' }),
  });
  writeFileSync(join(workspace, 'readme.md'), 'hello\n');
  const before = frontmatterParses();
  const ws = await openWorkspace({ paths, workspace });
  try {
    await ws.catalog.settled();
    const skills = ws.catalog.entries().length;
    assert.ok(skills >= 3, 'the three project skills (and the built-ins) are in the catalog');
    const s = await ws.newSession();
    const loaded = await s.call('Skill', { name: 'notes' });
    assert.equal(loaded.ok, true, JSON.stringify(loaded));
    const read = await s.call('read_file', { path: 'readme.md' });
    assert.equal(
      read.ok,
      false,
      'the loaded skill binds the agent to notes/**: the gate read its request from the manifest',
    );
    assert.equal(
      ws.gate.authorize(
        { tool: 'web_fetch', args: {}, access: { network: true, host: 'example.org' } },
        { kind: 'skill', skill: 'plain' },
      ).verdict,
      'deny',
    );
    assert.equal(frontmatterParses() - before, skills, `one YAML parse per SKILL.md (${skills} skills)`);
  } finally {
    await ws.close();
  }
});

test("the audit with discovery's manifest reports exactly what it reports reading SKILL.md itself (shared fixtures)", () => {
  const root = join(FIXTURES, 'public-skills');
  const dirs: string[] = [];
  const walk = (d: string, depth: number): void => {
    let names: string[];
    try {
      names = readdirSync(d);
    } catch {
      return;
    }
    if (names.includes('SKILL.md')) dirs.push(d);
    if (depth < 4) for (const n of names) if (!n.startsWith('.')) walk(join(d, n), depth + 1);
  };
  walk(root, 0);
  assert.ok(dirs.length > 5, `fixture skills found under ${root}`);
  let compared = 0;
  for (const dir of dirs) {
    const p = parseSkillFile(join(dir, 'SKILL.md'), { folderName: null });
    if (!p.manifest) continue;
    const before = frontmatterParses();
    const withParsed = auditSkill(dir, { parsed: parsedManifestOf(p.manifest) });
    assert.equal(frontmatterParses(), before, `${dir}: the audit did not parse the frontmatter again`);
    const own = auditSkill(dir);
    assert.deepEqual(withParsed, own, dir);
    compared++;
  }
  assert.ok(compared > 5);
});

test('a SKILL.md changed after discovery is audited as it is now: the old manifest is not used', () => {
  const dir = join(tempDir(), 'quiet');
  writeTree(dir, { 'SKILL.md': skillMd('name: quiet\ndescription: Harmless.') });
  const p = parseSkillFile(join(dir, 'SKILL.md'), { folderName: null });
  assert.equal(auditSkill(dir, { parsed: parsedManifestOf(p.manifest!) }).level, 'P2');
  // Swapped in after discovery: a wider request and hooks.
  writeTree(dir, {
    'SKILL.md': skillMd('name: quiet\ndescription: Harmless.\npermissions:\n  network: true\nhooks:\n  PreToolUse: []'),
  });
  const r = auditSkill(dir, { parsed: parsedManifestOf(p.manifest!) });
  assert.deepEqual(r.findings.map((f) => f.rule).sort(), ['manifest.hooks', 'permissions.network']);
  assert.equal(r.permissions?.network, true);
});

test("discovery's permission diagnostics reach the audit report naming SKILL.md and the line", () => {
  const dir = join(tempDir(), 'bad');
  writeTree(dir, { 'SKILL.md': skillMd('name: bad\ndescription: Asks badly.\nallowed-tools: [Read, {a: 1}]') });
  const p = parseSkillFile(join(dir, 'SKILL.md'), { folderName: null });
  const before = frontmatterParses();
  const r = auditSkill(dir, { parsed: parsedManifestOf(p.manifest!) });
  assert.equal(frontmatterParses(), before);
  assert.equal(r.level, 'P0');
  const d = r.manifestDiagnostics.find((x) => x.severity === 'error');
  assert.equal(d?.file, 'SKILL.md');
  assert.equal(d?.line, 4);
  assert.deepEqual(r, auditSkill(dir));
});
