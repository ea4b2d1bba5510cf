// Skills from real repositories: a display name (`Agent Development`) indexes under its folder's slug with the words
// kept as the title and a warning; lint --strict still reports it; every public skill that has a description indexes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { skillMd, tempDir, writeTree, FIXTURES } from '../../helpers/tmp.js';
import { openCatalog } from '../../../main/core/skills/catalog/catalog.js';
import { lintPaths } from '../../../main/core/skills/catalog/lint.js';
import { parseSkillText } from '../../../main/core/skills/format/manifest.js';
import { readFrontmatterText } from '../../../main/core/skills/format/skill-frontmatter.js';
import { auditSkill } from '../../../main/core/skills/trust/audit.js';

function setup(files: Record<string, string>) {
  const root = tempDir();
  const paths = { home: join(root, 'home'), dataDir: join(root, 'data'), builtinSkillsDir: join(root, 'builtin') };
  const ws = join(root, 'ws');
  writeTree(join(ws, '.agents/skills'), files);
  return { paths, ws, skills: join(ws, '.agents/skills') };
}

test('a display name indexes under the folder slug, keeps the words as title, and warns', async () => {
  const s = setup({
    'agent-development/SKILL.md': skillMd({
      name: 'Agent Development',
      description: 'Build agents for Claude Code plugins',
    }),
    'Hook Dev/SKILL.md': skillMd({ name: 'Hook Development', description: 'Write plugin hooks' }),
  });
  const catalog = await openCatalog({ paths: s.paths, workspace: s.ws });
  assert.deepEqual(catalog.broken(), []);
  const agent = catalog.get('agent-development');
  assert.ok(agent, 'invocable by its slug');
  assert.equal(agent.manifest.name, 'agent-development');
  assert.equal(agent.manifest.title, 'Agent Development');
  assert.ok(agent.enabled);
  const w = agent.diagnostics.find((d) => d.code === 'name.slugified');
  assert.equal(w?.severity, 'warning');
  assert.match(w.message, /'Agent Development'.*invoked as 'agent-development'/);
  // A folder whose name is itself a display name: the folder's slug.
  const hook = catalog.get('hook-dev');
  assert.equal(hook?.manifest.title, 'Hook Development');
  // The audit names the skill the same way the catalog does.
  assert.equal(auditSkill(agent.realDir).skill, 'agent-development');
});

test('without a usable folder name the slugified name is used; a frontmatter title is kept', () => {
  const r = parseSkillText(skillMd('name: PDF Tools\ndescription: d\ntitle: PDF power tools'), 'x/.../SKILL.md', {
    folderName: null,
  });
  assert.equal(r.manifest?.name, 'pdf-tools');
  assert.equal(r.manifest?.title, 'PDF power tools');
  assert.deepEqual(
    r.diagnostics.map((d) => d.code),
    ['name.slugified'],
  );
});

test('lint --strict still reports a display name as an error; lenient lint indexes it with a warning', () => {
  const s = setup({
    'agent-development/SKILL.md': skillMd({ name: 'Agent Development', description: 'Build agents' }),
  });
  const lenient = lintPaths([join(s.skills, 'agent-development')]);
  assert.equal(lenient.errors, 0);
  assert.equal(lenient.skills[0]?.ok, true);
  assert.equal(lenient.skills[0]?.name, 'agent-development');
  const strict = lintPaths([join(s.skills, 'agent-development')], { strict: true });
  assert.equal(strict.skills[0]?.ok, false);
  assert.ok(strict.skills[0]?.diagnostics.some((d) => d.code === 'name.slugified' && d.severity === 'error'));
});

/** Every SKILL.md under a folder. */
function skillFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...skillFiles(p));
    else if (name === 'SKILL.md') out.push(p);
  }
  return out;
}

test('every public skill in the fixture folder that has a description indexes', async () => {
  const src = join(FIXTURES, 'public-skills');
  const withDescription = skillFiles(src).filter((f) => {
    const fm = readFrontmatterText(readFileSync(f, 'utf8'), f);
    return typeof fm.data?.description === 'string' && fm.data.description.trim() !== '';
  });
  assert.ok(withDescription.length >= 42, `${withDescription.length} skills`);
  // Each skill as a project skill folder, named as its repository has it.
  const s = setup({});
  for (const f of withDescription) {
    const dir = join(f, '..');
    cpSync(dir, join(s.skills, relative(src, dir).replace(/\/skills\//, '__')), { recursive: true });
  }
  const catalog = await openCatalog({ paths: s.paths, workspace: s.ws });
  assert.deepEqual(
    catalog.broken().map((b) => b.diagnostics),
    [],
  );
  assert.equal(catalog.entries().length, withDescription.length);
});
