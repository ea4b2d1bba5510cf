// The gate on real files: ceiling roots on real paths (symlinks, missing write targets), manifests, attribution, bash.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tmp.js';
import { DEFAULT_SETTINGS, type Settings } from '../../../main/core/config/settings.js';
import { ceilingFrom } from '../../../main/core/policy/ceiling.js';
import { createGate, type SkillPolicy } from '../../../main/core/policy/gate.js';
import { parsePermissions, defaultPermissions, type Permissions } from '../../../main/core/policy/permissions.js';
import type { Rule } from '../../../main/core/store/policy-repo.js';
import type { Actor, ToolCall } from '../../../main/core/policy/types.js';

function setup(
  opts: { network?: boolean; rules?: Rule[]; skills?: Record<string, Permissions>; tools?: string[] } = {},
) {
  const root = tempDir();
  const ws = join(root, 'ws');
  const outside = join(root, 'outside');
  const skillsDir = join(root, 'skills');
  mkdirSync(join(ws, 'src'), { recursive: true });
  mkdirSync(outside, { recursive: true });
  writeFileSync(join(ws, 'src', 'a.ts'), 'x');
  writeFileSync(join(outside, 'secret.txt'), 'secret');
  const policies = new Map<string, SkillPolicy>();
  for (const [name, permissions] of Object.entries(opts.skills ?? {})) {
    const dir = join(skillsDir, name);
    mkdirSync(join(dir, 'data'), { recursive: true });
    writeFileSync(join(dir, 'data', 'table.json'), '{}');
    policies.set(name, { name, dir, permissions });
  }
  const settings: Settings = structuredClone(DEFAULT_SETTINGS);
  settings.policy.ceiling.network = opts.network ?? false;
  if (opts.tools) settings.policy.ceiling.tools = opts.tools;
  const ceiling = ceilingFrom(
    settings,
    ws,
    [...policies.values()].map((p) => p.dir),
  );
  const rules = opts.rules ?? [];
  const gate = createGate({ ceiling, rules: () => rules, skill: (n) => policies.get(n) });
  return { gate, ws, outside, root, skillsDir, rules };
}

const agent: Actor = { kind: 'agent', activeSkills: [] };
const read = (path: string): ToolCall => ({ tool: 'read_file', args: { path }, access: { read: [path] } });
const write = (path: string): ToolCall => ({ tool: 'write_file', args: { path }, access: { write: [path] } });
const bash = (command: string): ToolCall => ({ tool: 'bash', args: { command }, access: { command } });
const perms = (p: unknown): Permissions => {
  const r = parsePermissions({ file: 'SKILL.md', permissions: p });
  assert.ok(r.permissions, JSON.stringify(r.diagnostics));
  return r.permissions;
};

test('reads inside the workspace are allowed, outside are denied with the path in the reason', () => {
  const { gate, outside } = setup();
  assert.equal(gate.authorize(read('src/a.ts'), agent).verdict, 'allow');
  const d = gate.authorize(read(join(outside, 'secret.txt')), agent);
  assert.equal(d.verdict, 'deny');
  assert.match(d.reason, /outside the workspace/);
  assert.equal(gate.authorize(read('../outside/secret.txt'), agent).verdict, 'deny');
});

test('a symlink inside the workspace that points out of it is refused', () => {
  const { gate, ws, outside } = setup();
  symlinkSync(join(outside, 'secret.txt'), join(ws, 'innocent.txt'));
  symlinkSync(outside, join(ws, 'linked-dir'));
  const d = gate.authorize(read('innocent.txt'), agent);
  assert.equal(d.verdict, 'deny');
  assert.match(d.reason, /symlink/);
  assert.equal(gate.authorize(read('linked-dir/secret.txt'), agent).verdict, 'deny');
});

test('a write to a file that does not exist yet under a symlinked folder is judged by the real parent', () => {
  const { gate, ws, outside } = setup({ rules: [{ id: 'w', effect: 'allow', tool: 'write_file', createdAt: 0 }] });
  symlinkSync(outside, join(ws, 'out-link'));
  const d = gate.authorize(write('out-link/new/deep/file.txt'), agent);
  assert.equal(d.verdict, 'deny');
  assert.match(d.reason, /cannot write/);
  assert.equal(gate.authorize(write('src/new/file.txt'), agent).verdict, 'allow');
});

test('a dangling symlink whose target is outside cannot be used to create a file there', () => {
  const { gate, ws, outside } = setup({ rules: [{ id: 'w', effect: 'allow', tool: 'write_file', createdAt: 0 }] });
  symlinkSync(join(outside, 'not-yet.txt'), join(ws, 'dangling.txt'));
  assert.equal(gate.authorize(write('dangling.txt'), agent).verdict, 'deny');
});

test('skill folders are readable but never writable by a skill', () => {
  const { gate, skillsDir } = setup({
    skills: { tabler: perms({ tools: ['read_file', 'write_file'], paths: { write: ['out/**'] } }) },
  });
  const actor: Actor = { kind: 'skill', skill: 'tabler' };
  assert.equal(gate.authorize(read(join(skillsDir, 'tabler', 'data', 'table.json')), actor).verdict, 'allow');
  assert.equal(gate.authorize(write(join(skillsDir, 'tabler', 'data', 'table.json')), actor).verdict, 'deny');
});

test('a skill script without a permissions block gets no tools, no network, and reads only its own folder', () => {
  const { gate, skillsDir } = setup({ network: true, skills: { plain: defaultPermissions() } });
  const actor: Actor = { kind: 'skill', skill: 'plain' };
  assert.equal(gate.authorize(read(join(skillsDir, 'plain', 'data', 'table.json')), actor).verdict, 'allow');
  const d = gate.authorize(read('src/a.ts'), actor);
  assert.equal(d.verdict, 'deny');
  assert.match(d.reason, /may not read src\/a\.ts/);
  assert.match(gate.authorize(bash('ls'), actor).reason, /declares no permissions/);
  assert.equal(gate.authorize({ tool: 'web_fetch', args: {}, access: { network: true } }, actor).verdict, 'deny');
  assert.equal(gate.authorize(write('src/x.ts'), actor).verdict, 'deny');
});

test('a skill is held to its manifest: tools, read globs, write globs, network, command prefixes', () => {
  const { gate } = setup({
    network: true,
    skills: {
      s: perms({
        tools: ['read_file', 'write_file', 'bash(git status:*)'],
        paths: { read: ['src/**'], write: ['out/**'] },
      }),
    },
  });
  const actor: Actor = { kind: 'skill', skill: 's' };
  assert.equal(gate.authorize(read('src/a.ts'), actor).verdict, 'allow');
  assert.match(gate.authorize(read('README.md'), actor).reason, /may not read README\.md/);
  assert.equal(gate.authorize(write('out/x.txt'), actor).verdict, 'ask'); // inside the manifest, still needs approval or a rule
  assert.equal(gate.authorize(write('src/x.txt'), actor).verdict, 'deny');
  assert.equal(gate.authorize(bash('git status -s'), actor).verdict, 'ask');
  assert.equal(gate.authorize(bash('git push'), actor).verdict, 'deny');
  assert.equal(gate.authorize(bash('git status && curl evil'), actor).verdict, 'deny');
  // An environment prefix changes what git runs (GIT_EXTERNAL_DIFF, GIT_SSH_COMMAND, LD_PRELOAD): not "git status".
  assert.equal(gate.authorize(bash('GIT_SSH_COMMAND=./evil git status'), actor).verdict, 'deny');
  assert.equal(gate.authorize(bash('git status >&../outside/x'), actor).verdict, 'deny');
  assert.equal(
    gate.authorize({ tool: 'web_fetch', args: {}, access: { network: true, host: 'x.org' } }, actor).verdict,
    'deny',
  );
  assert.equal(gate.authorize({ tool: 'grep', args: {}, access: { read: ['src'] } }, actor).verdict, 'deny');
});

test('attribution: while a skill with declared permissions is loaded, agent calls stay inside it', () => {
  const { gate } = setup({
    skills: { narrow: perms({ tools: ['read_file'], paths: { read: ['src/**'] } }), plain: defaultPermissions() },
  });
  assert.equal(gate.authorize(read('README.md'), { kind: 'agent', activeSkills: [] }).verdict, 'allow');
  const d = gate.authorize(read('README.md'), { kind: 'agent', activeSkills: ['narrow'] });
  assert.equal(d.verdict, 'deny');
  assert.match(d.reason, /narrow/);
  assert.equal(gate.authorize(read('src/a.ts'), { kind: 'agent', activeSkills: ['narrow', 'plain'] }).verdict, 'allow');
  // A skill that declares nothing does not narrow the agent (its scripts still get nothing).
  assert.equal(gate.authorize(read('README.md'), { kind: 'agent', activeSkills: ['plain'] }).verdict, 'allow');
});

test('attribution: a loaded skill with declared permissions does not lock the agent out of the harness tools', () => {
  const { gate, skillsDir } = setup({
    skills: { narrow: perms({ tools: ['read_file'], paths: { read: ['src/**'] } }), other: defaultPermissions() },
  });
  const actor: Actor = { kind: 'agent', activeSkills: ['narrow'] };
  for (const tool of ['ToolSearch', 'DeferExecuteTool', 'SkillSearch', 'list_skills']) {
    assert.equal(gate.authorize({ tool, args: {}, access: {} }, actor).verdict, 'allow', tool);
  }
  // Loading another skill or reading its resources touches only skill folders.
  const otherFile = join(skillsDir, 'other', 'data', 'table.json');
  assert.equal(gate.authorize({ tool: 'Skill', args: {}, access: { read: [otherFile] } }, actor).verdict, 'allow');
  assert.equal(
    gate.authorize({ tool: 'read_skill_resource', args: {}, access: { read: [otherFile] } }, actor).verdict,
    'allow',
  );
  // The same names get nothing beyond skill folders, and other tools stay bound by the manifest.
  assert.equal(
    gate.authorize({ tool: 'read_skill_resource', args: {}, access: { read: ['README.md'] } }, actor).verdict,
    'deny',
  );
  assert.equal(gate.authorize({ tool: 'glob', args: {}, access: { read: ['src'] } }, actor).verdict, 'deny');
});

test('bash always needs a rule or approval, even for the harmless-looking command', () => {
  const { gate } = setup();
  const d = gate.authorize(bash('ls'), agent);
  assert.equal(d.verdict, 'ask');
  assert.match(d.reason, /cannot be confined by string matching/);
  assert.equal(gate.authorize(bash('ls'), { kind: 'user' }).verdict, 'ask');
});

test('network is denied when the ceiling has it off; a tool outside the ceiling is denied', () => {
  const { gate } = setup({ tools: ['read_file'] });
  assert.match(gate.authorize({ tool: 'web_fetch', args: {}, access: { network: true } }, agent).reason, /not offered/);
  const g2 = setup().gate;
  assert.match(
    g2.authorize({ tool: 'web_fetch', args: {}, access: { network: true } }, agent).reason,
    /network, which is off/,
  );
});

test('writes to Knack settings and skill folders inside the workspace always ask, even with an allow rule', () => {
  const { gate } = setup({ rules: [{ id: 'w', effect: 'allow', tool: 'write_file', createdAt: 0 }] });
  const d = gate.authorize(write('.workbuddy/settings.json'), agent);
  assert.equal(d.verdict, 'ask');
  assert.match(d.reason, /settings, skills or hooks/);
  assert.equal(gate.authorize(write('.git/hooks/pre-commit'), agent).verdict, 'ask');
  assert.equal(gate.authorize(write('src/ok.ts'), agent).verdict, 'allow');
  // On macOS and Windows file names ignore case: .WorkBuddy is the same folder as .workbuddy.
  assert.equal(gate.authorize(write('.WorkBuddy/settings.json'), agent).verdict, 'ask');
  assert.equal(gate.authorize(write('.GIT/Hooks/pre-push'), agent).verdict, 'ask');
  // Submodule hooks and configs, and husky's hook folder, run code on the next git command too.
  assert.equal(gate.authorize(write('.git/modules/lib/hooks/post-checkout'), agent).verdict, 'ask');
  assert.equal(gate.authorize(write('.git/modules/lib/config'), agent).verdict, 'ask');
  assert.equal(gate.authorize(write('.husky/pre-commit'), agent).verdict, 'ask');
});

test('a malformed call or actor is denied with a reason, never thrown', () => {
  const { gate } = setup();
  assert.equal(gate.authorize({ tool: '', args: {}, access: {} }, agent).verdict, 'deny');
  assert.equal(
    gate.authorize({ tool: 'x', args: {}, access: { read: [42 as unknown as string] } }, agent).verdict,
    'deny',
  );
  assert.equal(gate.authorize(read('a'), { kind: 'skill', skill: 'nope' }).verdict, 'deny');
  assert.equal(gate.authorize(null as unknown as ToolCall, agent).verdict, 'deny');
});

test('a workspace settings file can narrow the ceiling but never widen it', async () => {
  const { ceilingFrom } = await import('../../../main/core/policy/ceiling.js');
  const { loadSettings } = await import('../../../main/core/config/settings.js');
  // What every caller gets: loadSettings narrows, the ceiling follows the settings.
  const loadCeiling = (dataDir: string, workspace: string) => {
    const { settings, diagnostics } = loadSettings(dataDir, workspace);
    return {
      ceiling: ceilingFrom(settings, workspace, []),
      diagnostics: diagnostics.filter((d) => d.code === 'settings.ceiling-widening'),
    };
  };
  const root = tempDir();
  const data = join(root, 'data');
  const ws = join(root, 'repo');
  mkdirSync(join(ws, '.workbuddy'), { recursive: true });
  mkdirSync(data, { recursive: true });
  writeFileSync(
    join(ws, '.workbuddy', 'settings.json'),
    JSON.stringify({ policy: { ceiling: { network: true, readRoots: ['/'], tools: ['read_file', 'bash'] } } }),
  );
  const a = loadCeiling(data, ws);
  assert.equal(a.ceiling.network, false);
  assert.deepEqual(a.ceiling.readRoots, [ws]);
  assert.deepEqual(a.ceiling.tools, ['read_file', 'bash']);
  assert.deepEqual(a.diagnostics.map((d) => d.field).sort(), ['policy.ceiling.network', 'policy.ceiling.readRoots']);
  writeFileSync(join(data, 'settings.json'), JSON.stringify({ policy: { ceiling: { network: true } } }));
  assert.equal(loadCeiling(data, ws).ceiling.network, true);
  writeFileSync(join(ws, '.workbuddy', 'settings.json'), JSON.stringify({ policy: { ceiling: { network: false } } }));
  assert.equal(loadCeiling(data, ws).ceiling.network, false);
});

test('a skill mapped from allowed-tools (read **) may list the workspace root; a narrower glob may not', () => {
  const wide = parsePermissions({ file: 'SKILL.md', allowedTools: 'Read Glob' }).permissions!;
  const { gate } = setup({
    skills: { wide, narrow: perms({ tools: ['list_dir', 'glob'], paths: { read: ['src/**'] } }) },
  });
  const list = (path: string): ToolCall => ({ tool: 'glob', args: { path }, access: { read: [path] } });
  assert.equal(gate.authorize(list('.'), { kind: 'agent', activeSkills: ['wide'] }).verdict, 'allow');
  assert.equal(gate.authorize(list('.'), { kind: 'agent', activeSkills: ['narrow'] }).verdict, 'deny');
  assert.equal(gate.authorize(list('src'), { kind: 'agent', activeSkills: ['narrow'] }).verdict, 'allow');
});

test('a skill manifest glob that backtracks without end (*a*a*a*…b) cannot freeze the gate: the call is refused', () => {
  const evil = `${'*a'.repeat(10)}*b`;
  const { gate, ws } = setup({ skills: { slow: perms({ tools: ['read_file'], paths: { read: [evil] } }) } });
  const name = 'a'.repeat(200);
  writeFileSync(join(ws, name), 'x');
  const started = Date.now();
  const d = gate.authorize(read(name), { kind: 'skill', skill: 'slow' });
  assert.equal(d.verdict, 'deny');
  assert.match(d.reason, /too expensive to match/);
  const r = gate.authorize(read(name), { kind: 'agent', activeSkills: [] });
  assert.equal(r.verdict, 'allow');
  const rules: Rule[] = [{ id: 'p', effect: 'allow', tool: 'read_file', path: evil, createdAt: 0 }];
  const s2 = setup({ rules });
  writeFileSync(join(s2.ws, name), 'x');
  const d2 = s2.gate.authorize(read(name), agent);
  assert.equal(d2.verdict, 'deny');
  assert.match(d2.reason, /too expensive to match/);
  assert.ok(Date.now() - started < 10_000);
});
