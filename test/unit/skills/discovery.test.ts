// Three-tier discovery: precedence and shadowing, .agents/skills, symlinks (loops too), walk bounds,
// broken-skill isolation, lowercase skill.md, and every public skill indexing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { parseSkillFile } from '../../../main/core/skills/format/manifest.js';
import { FIXTURES, skillMd, tempDir, writeTree } from '../../helpers/tmp.js';
import { openCatalog } from '../../../main/core/skills/catalog/catalog.js';
import { DEFAULT_SETTINGS, type Settings } from '../../../main/core/config/settings.js';

function layout() {
  const root = tempDir();
  const paths = { home: join(root, 'home'), dataDir: join(root, 'data'), builtinSkillsDir: join(root, 'builtin') };
  const ws = join(root, 'ws');
  mkdirSync(ws, { recursive: true });
  return { root, paths, ws, user: join(root, 'home/.workbuddy/skills'), project: join(ws, '.workbuddy/skills') };
}
const sk = (name: string, description = `${name} skill`) => skillMd({ name, description });
function settingsWith(d: Partial<Settings['discovery']>): Settings {
  return { ...DEFAULT_SETTINGS, discovery: { ...DEFAULT_SETTINGS.discovery, ...d } };
}

test('project shadows user shadows builtin; shadowed entries stay listed with who wins', async () => {
  const l = layout();
  writeTree(l.paths.builtinSkillsDir, {
    'deploy/SKILL.md': sk('deploy', 'builtin deploy'),
    'lint/SKILL.md': sk('lint'),
  });
  writeTree(l.user, { 'deploy/SKILL.md': sk('deploy', 'user deploy') });
  writeTree(l.project, { 'deploy/SKILL.md': sk('deploy', 'project deploy') });
  const c = await openCatalog({ paths: l.paths, workspace: l.ws });
  assert.equal(c.get('deploy')?.tier, 'project');
  assert.equal(c.get('deploy')?.manifest.description, 'project deploy');
  const all = c.entries().filter((e) => e.manifest.name === 'deploy');
  assert.deepEqual(
    all.map((e) => [e.tier, e.shadowedBy?.tier]),
    [
      ['project', undefined],
      ['user', 'project'],
      ['builtin', 'project'],
    ],
  );
  assert.equal(all[1]!.shadowedBy?.file, join(l.project, 'deploy/SKILL.md'));
  assert.deepEqual(
    c.enabled().map((e) => `${e.tier}:${e.manifest.name}`),
    ['project:deploy', 'builtin:lint'],
  );
});

test('.agents/skills folders are read at user and project level unless the setting turns them off', async () => {
  const l = layout();
  writeTree(join(l.paths.home, '.agents/skills'), { 'a-user/SKILL.md': sk('a-user') });
  writeTree(join(l.ws, '.agents/skills'), { 'a-proj/SKILL.md': sk('a-proj') });
  writeTree(l.project, { 'a-proj/SKILL.md': sk('a-proj', 'native wins') });
  const on = await openCatalog({ paths: l.paths, workspace: l.ws });
  assert.equal(on.get('a-user')?.source, 'agents');
  assert.equal(on.get('a-user')?.tier, 'user');
  assert.equal(on.get('a-proj')?.manifest.description, 'native wins');
  assert.equal(on.entries().filter((e) => e.manifest.name === 'a-proj').length, 2);
  const off = await openCatalog({ paths: l.paths, workspace: l.ws, settings: settingsWith({ agentsFolders: false }) });
  assert.equal(off.get('a-user'), undefined);
  assert.equal(off.entries().filter((e) => e.manifest.name === 'a-proj').length, 1);
});

test('symlinked skill folders are followed and their real path recorded', async () => {
  const l = layout();
  writeTree(join(l.root, 'elsewhere'), { 'linked/SKILL.md': sk('linked') });
  mkdirSync(l.user, { recursive: true });
  symlinkSync(join(l.root, 'elsewhere/linked'), join(l.user, 'linked'));
  const c = await openCatalog({ paths: l.paths, workspace: l.ws });
  const e = c.get('linked');
  assert.ok(e);
  assert.equal(e.dir, join(l.user, 'linked'));
  assert.equal(e.realDir, join(l.root, 'elsewhere/linked'));
});

test('a symlink loop ends the walk of that branch and the other skills still index', async () => {
  const l = layout();
  writeTree(l.user, { 'group/real/SKILL.md': sk('real') });
  symlinkSync(join(l.user, 'group'), join(l.user, 'group', 'loop'));
  symlinkSync(l.user, join(l.user, 'group', 'up'));
  const c = await openCatalog({ paths: l.paths, workspace: l.ws });
  assert.deepEqual(
    c.entries().map((e) => e.manifest.name),
    ['real'],
  );
  assert.ok(c.discoveryDiagnostics().some((d) => d.code === 'discovery.loop'));
});

test('a broken symlink is reported and does not hide the others', async () => {
  const l = layout();
  writeTree(l.user, { 'ok/SKILL.md': sk('ok') });
  symlinkSync(join(l.root, 'nowhere'), join(l.user, 'dangling'));
  const c = await openCatalog({ paths: l.paths, workspace: l.ws });
  assert.ok(c.get('ok'));
  assert.ok(
    c.discoveryDiagnostics().some((d) => d.code === 'discovery.symlink' && d.file === join(l.user, 'dangling')),
  );
});

test('the walk is bounded by depth and folder count and says so when a bound is hit', async () => {
  const l = layout();
  writeTree(l.user, { 'a/b/c/d/e/deep/SKILL.md': sk('deep'), 'near/SKILL.md': sk('near') });
  const c = await openCatalog({ paths: l.paths, workspace: l.ws, settings: settingsWith({ maxDepth: 3 }) });
  assert.ok(c.get('near'));
  assert.equal(c.get('deep'), undefined);
  const d = c.discoveryDiagnostics().find((x) => x.code === 'discovery.depth');
  assert.ok(d);
  assert.match(d.message, /discovery\.maxDepth/);
  const deeper = await openCatalog({ paths: l.paths, workspace: l.ws, settings: settingsWith({ maxDepth: 6 }) });
  assert.ok(deeper.get('deep'));

  const many = layout();
  const files: Record<string, string> = {};
  for (let i = 0; i < 30; i++) files[`g${String(i).padStart(2, '0')}/s${i}/SKILL.md`] = sk(`s${i}`);
  writeTree(many.user, files);
  const b = await openCatalog({ paths: many.paths, workspace: many.ws, settings: settingsWith({ maxFolders: 10 }) });
  assert.ok(b.entries().length < 30 && b.entries().length > 0);
  assert.ok(
    b.discoveryDiagnostics().some((x) => x.code === 'discovery.folders' && /discovery\.maxFolders/.test(x.message)),
  );
});

test('one broken skill never hides the others; it is listed as broken with its error', async () => {
  const l = layout();
  writeTree(l.user, {
    'good/SKILL.md': sk('good'),
    'bad-yaml/SKILL.md': '---\nname: bad-yaml\ndescription: [oops\n---\n',
    'no-desc/SKILL.md': '---\nname: no-desc\n---\n',
    'not-a-file/SKILL.md/placeholder': 'x',
    'bin/SKILL.md': 'plain text, no frontmatter',
  });
  const c = await openCatalog({ paths: l.paths, workspace: l.ws });
  assert.deepEqual(
    c.entries().map((e) => e.manifest.name),
    ['good'],
  );
  const broken = c
    .broken()
    .map((b) => b.dir.split('/').pop())
    .sort();
  assert.deepEqual(broken, ['bad-yaml', 'bin', 'no-desc', 'not-a-file']);
  for (const b of c.broken()) assert.ok(b.diagnostics.every((d) => d.file === b.file && d.severity === 'error'));
  assert.ok(
    c.diagnostics().some((d) => d.file === join(l.user, 'not-a-file/SKILL.md') && /folder, not a file/.test(d.message)),
  );
});

test('lowercase skill.md is found; SKILL.md is preferred when both exist', async () => {
  const l = layout();
  writeTree(l.user, {
    'lower/skill.md': sk('lower'),
    'both/SKILL.md': sk('both', 'upper wins'),
    'both/skill.md': sk('both', 'lower loses'),
  });
  const c = await openCatalog({ paths: l.paths, workspace: l.ws });
  assert.ok(c.get('lower')?.file.endsWith('skill.md'));
  assert.equal(c.get('both')?.manifest.description, 'upper wins');
});

test('a workspace that is the home folder does not list user skills twice', async () => {
  const l = layout();
  writeTree(l.user, { 'once/SKILL.md': sk('once') });
  const c = await openCatalog({ paths: l.paths, workspace: l.paths.home });
  assert.equal(c.entries().filter((e) => e.manifest.name === 'once').length, 1);
});

test('every public skill in fixtures/public-skills indexes without errors', async () => {
  const l = layout();
  const pub = join(FIXTURES, 'public-skills');
  // The fixture repos are tier roots as they sit on disk (skills/<name>/SKILL.md).
  mkdirSync(l.user, { recursive: true });
  for (const repo of readdirSync(pub)) symlinkSync(join(pub, repo), join(l.user, repo));
  const c = await openCatalog({ paths: l.paths, workspace: l.ws });
  assert.equal(c.broken().length, 0, JSON.stringify(c.broken()));
  assert.equal(c.entries().length, 42);
  for (const e of c.entries())
    assert.deepEqual(
      e.diagnostics.filter((d) => d.severity === 'error'),
      [],
      e.file,
    );
  assert.ok(c.get('supabase-postgres-best-practices')?.manifest.metadata.version === '1.1.0');
  assert.deepEqual(c.get('gha-security-review')?.manifest.allowedTools, ['Read', 'Grep', 'Glob', 'Bash', 'Task']);
});

test('a SKILL.md that is a named pipe is reported as not a regular file (never opened, never silently skipped)', async () => {
  const l = layout();
  writeTree(l.project, { 'good/SKILL.md': sk('good') });
  mkdirSync(join(l.project, 'pipe'), { recursive: true });
  execFileSync('mkfifo', [join(l.project, 'pipe', 'SKILL.md')]);
  const c = await openCatalog({ paths: l.paths, workspace: l.ws });
  assert.deepEqual(
    c.entries().map((e) => e.manifest.name),
    ['good'],
  );
  const d = c.diagnostics().find((x) => x.file === join(l.project, 'pipe', 'SKILL.md'));
  assert.equal(d?.severity, 'error');
  assert.match(d?.message ?? '', /not a regular file/);
});

test('the frontmatter reader refuses a pipe instead of waiting for a writer forever', () => {
  const dir = tempDir();
  const fifo = join(dir, 'SKILL.md');
  execFileSync('mkfifo', [fifo]);
  const p = parseSkillFile(fifo);
  assert.equal(p.manifest, undefined);
  assert.match(p.diagnostics[0]?.message ?? '', /not a regular file/);
});
