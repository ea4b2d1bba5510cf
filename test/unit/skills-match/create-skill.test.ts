// create_skill and the model-facing skill tools: new skills land in the user tier marked agent_created, invalid
// names and existing folders are refused, and each tool declares what it touches.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createSkill } from '../../../main/core/skills/use/create.js';
import { parseSkillFile } from '../../../main/core/skills/format/manifest.js';
import { SkillLoader } from '../../../main/core/skills/use/loader.js';
import { skillTools, type CatalogView } from '../../../main/core/skills/use/skill-tools.js';
import type { CatalogEntry } from '../../../main/core/skills/format/types.js';
import type { ToolContext } from '../../../main/core/tools/types.js';
import { tempDir } from '../../helpers/tmp.js';
import { searchCacheDir } from '../../helpers/search-seed.js';
import { diskSkill, lookupOf } from './entries.js';

const input = {
  name: 'release-notes',
  description: 'Draft release notes from merged PRs. Use when asked for release notes.',
  body: '# Release notes\n\n1. Find the last tag.\n',
  readWhen: ['release notes', '发布说明'],
};

test('create_skill writes a valid SKILL.md to the user tier with agent_created: true', () => {
  const dir = tempDir();
  const r = createSkill(dir, { ...input, files: { 'references/template.md': '## Features\n' } });
  assert.ok(r.ok, JSON.stringify(r));
  assert.equal(r.file, join(dir, 'release-notes', 'SKILL.md'));
  const parsed = parseSkillFile(r.file);
  assert.deepEqual(parsed.diagnostics, []);
  assert.equal(parsed.manifest!.name, 'release-notes');
  assert.equal(parsed.manifest!.agentCreated, true);
  assert.deepEqual(parsed.manifest!.readWhen, ['release notes', '发布说明']);
  assert.match(readFileSync(r.file, 'utf8'), /\n# Release notes\n\n1\. Find the last tag\.\n$/);
  assert.equal(readFileSync(join(dir, 'release-notes', 'references', 'template.md'), 'utf8'), '## Features\n');
  assert.deepEqual(readdirSync(dir), ['release-notes'], 'no temp folder left behind');
});

test('create_skill refuses to overwrite an existing skill and leaves it untouched', () => {
  const dir = tempDir();
  mkdirSync(join(dir, 'release-notes'));
  writeFileSync(join(dir, 'release-notes', 'SKILL.md'), 'mine');
  const r = createSkill(dir, input);
  assert.ok(!r.ok);
  assert.equal(r.error.code, 'create.exists');
  assert.equal(readFileSync(join(dir, 'release-notes', 'SKILL.md'), 'utf8'), 'mine');
  assert.deepEqual(readdirSync(dir), ['release-notes']);
});

test('create_skill refuses invalid names, empty descriptions and files outside resource folders', () => {
  const dir = tempDir();
  for (const name of ['Release-Notes', '../evil', 'a--b', '-x', 'has space', '', 'x'.repeat(65), 'a/b', '发布']) {
    const r = createSkill(dir, { ...input, name });
    assert.ok(!r.ok, name);
    assert.equal(r.error.code, 'create.invalid', name);
    assert.match(r.error.message, /skill name/i, name);
  }
  const noDesc = createSkill(dir, { ...input, description: '  ' });
  assert.ok(!noDesc.ok && /description is required/.test(noDesc.error.message));
  const noBody = createSkill(dir, { ...input, body: '' });
  assert.ok(!noBody.ok && /body is required/.test(noBody.error.message));
  const badFile = createSkill(dir, { ...input, files: { '../x.md': 'x' } });
  assert.ok(!badFile.ok && /references\//.test(badFile.error.message));
  assert.deepEqual(readdirSync(dir), [], 'nothing written');
});

function catalogOf(entries: CatalogEntry[]): CatalogView {
  const get = lookupOf(entries);
  return { enabled: () => entries.filter((e) => e.enabled && !e.shadowedBy), get };
}

const ctx: ToolContext = { workspace: '/ws', actor: { kind: 'agent', activeSkills: [] } };

test('the skill tools: schemas, access declarations and handlers', async () => {
  const root = tempDir();
  const userDir = join(tempDir(), 'skills');
  const entries = [
    diskSkill(root, 'git-commit', { description: 'Write good commit messages.', depends_on: ['style'] }, '# Commit\n', {
      'references/types.md': 'feat fix\n',
    }),
    diskSkill(root, 'style', { description: 'House style.' }, '# Style\n'),
    { ...diskSkill(root, 'secret-off', { description: 'Disabled one.' }), enabled: false },
  ];
  let created = '';
  const tools = skillTools({
    catalog: catalogOf(entries),
    loader: new SkillLoader(lookupOf(entries)),
    userSkillsDir: userDir,
    onCreated: (d) => (created = d),
    searchOptions: { bilingual: false, cacheDir: searchCacheDir() },
  });
  const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
  assert.deepEqual(Object.keys(byName).sort(), [
    'Skill',
    'SkillSearch',
    'create_skill',
    'list_skills',
    'read_skill_resource',
  ]);

  const skill = byName.Skill!;
  // A name, not an enum of every skill (the prompt's catalog lists them): the loader refuses unknown and disabled ones.
  assert.deepEqual((skill.inputSchema.properties as { name: { type: string; enum?: string[] } }).name.type, 'string');
  assert.equal((skill.inputSchema.properties as { name: { enum?: string[] } }).name.enum, undefined);
  const unknown = await skill.handler({ name: 'no-such-skill' }, ctx);
  assert.ok(!unknown.ok && unknown.error.code === 'skill.not_found');
  assert.deepEqual(
    skill.access({ name: 'git-commit' }, ctx),
    { read: [entries[1]!.file, entries[0]!.file] },
    'the skill and its dependency',
  );
  const loaded = await skill.handler({ name: 'git-commit' }, ctx);
  assert.ok(loaded.ok);
  const content = loaded.content as {
    skills: { name: string; reason: string; instructions: string; resources: string[] }[];
  };
  assert.deepEqual(
    content.skills.map((s) => [s.name, s.reason]),
    [
      ['style', 'dependency'],
      ['git-commit', 'model'],
    ],
  );
  assert.deepEqual(content.skills[1]!.resources, ['references/types.md']);
  const off = await skill.handler({ name: 'secret-off' }, ctx);
  assert.ok(!off.ok && off.error.code === 'skill.disabled');

  const found = await byName.SkillSearch!.handler({ query: 'commit message' }, ctx);
  assert.ok(found.ok);
  assert.equal((found.content as { results: { name: string }[] }).results[0]!.name, 'git-commit');

  const list = await byName.list_skills!.handler({}, ctx);
  assert.ok(list.ok);
  assert.deepEqual(
    (list.content as { skills: { name: string }[] }).skills.map((s) => s.name),
    ['git-commit', 'style'],
  );

  const res = byName.read_skill_resource!;
  assert.deepEqual(res.access({ skill: 'git-commit', path: 'references/types.md' }, ctx), {
    read: [join(entries[0]!.dir, 'references/types.md')],
  });
  const read = await res.handler({ skill: 'git-commit', path: 'references/types.md' }, ctx);
  assert.ok(read.ok && (read.content as { content: string }).content === 'feat fix\n');
  const escape = await res.handler({ skill: 'git-commit', path: '../style/SKILL.md' }, ctx);
  assert.ok(!escape.ok && escape.error.code === 'resource.outside_skill');

  const create = byName.create_skill!;
  assert.equal(create.risk, 'write');
  assert.deepEqual(create.access({ name: 'new-one' }, ctx), { write: [join(userDir, 'new-one')] });
  const made = await create.handler(
    { name: 'new-one', description: 'Does a new thing.', instructions: '# New\n', read_when: ['new thing'] },
    ctx,
  );
  assert.ok(made.ok, JSON.stringify(made));
  assert.equal(created, join(userDir, 'new-one'));
  assert.ok(existsSync(join(userDir, 'new-one', 'SKILL.md')));
  const again = await create.handler({ name: 'new-one', description: 'x', instructions: 'y' }, ctx);
  assert.ok(!again.ok && again.error.code === 'create.exists');
});
