// Attacks on protected paths (issue 8, findings 2 and 7): the app's own data folder, user settings and skill tiers
// inside an opened home folder, and git/Knack control files of nested repositories, are never silently writable.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tmp.js';
import { DEFAULT_SETTINGS, type Settings } from '../../../main/core/config/settings.js';
import { ceilingFrom } from '../../../main/core/policy/ceiling.js';
import { appOwnedRoots, createGate } from '../../../main/core/policy/gate.js';
import type { Rule } from '../../../main/core/store/policy-repo.js';
import type { Actor, ToolCall } from '../../../main/core/policy/types.js';
import { cliArgs } from '../../helpers/cli.js';

const agent: Actor = { kind: 'agent', activeSkills: [] };
const write = (path: string): ToolCall => ({ tool: 'write_file', args: { path }, access: { write: [path] } });

/** The user opened their home folder as the workspace; the data folder and user tiers sit inside it. */
function homeWorkspace(extraWriteRoots: string[] = []) {
  const home = join(tempDir(), 'home');
  const dataDir = join(home, '.local', 'share', 'knack');
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(join(dataDir, 'settings.json'), '{}');
  writeFileSync(join(dataDir, 'knack.db'), '');
  mkdirSync(join(home, '.workbuddy', 'skills', 'mine'), { recursive: true });
  mkdirSync(join(home, 'project', 'vendor', 'lib', '.git', 'hooks'), { recursive: true });
  const settings: Settings = structuredClone(DEFAULT_SETTINGS);
  settings.policy.ceiling.writeRoots = extraWriteRoots;
  const rules: Rule[] = [
    { id: 'w', effect: 'allow', tool: 'write_file', createdAt: 0 },
    { id: 'c', effect: 'allow', tool: '@write', createdAt: 0 },
  ];
  return { home, dataDir, settings, rules };
}

test('finding 2: with the home folder open, writes into the data folder, user settings and user skill tiers ask despite an allow rule', () => {
  const { home, dataDir, settings, rules } = homeWorkspace();
  const gate = createGate({
    ceiling: ceilingFrom(settings, home),
    rules: () => rules,
    skill: () => undefined,
    protectedRoots: appOwnedRoots({ home, dataDir }),
  });
  for (const p of [
    join(dataDir, 'settings.json'),
    join(dataDir, 'mcp.json'),
    join(dataDir, 'knack.db'),
    join(home, '.workbuddy', 'skills', 'mine', 'SKILL.md'),
    join(home, '.agents', 'skills', 'x', 'SKILL.md'),
    join(home, '.workbuddy', 'settings.json'),
    join(home, '.knack', 'settings.json'),
  ]) {
    const d = gate.authorize(write(p), agent);
    assert.equal(d.verdict, 'ask', p);
    assert.match(d.reason, /Knack/);
  }
  assert.equal(gate.authorize(write(join(home, 'notes.txt')), agent).verdict, 'allow');
});

test('finding 2: the data folder asks when it is reached through a wider write root, and by default under HOME', () => {
  const { home, dataDir, settings, rules } = homeWorkspace();
  const ws = join(home, 'project');
  settings.policy.ceiling.writeRoots = [home];
  const saved = process.env.HOME;
  const savedData = process.env.KNACK_DATA_DIR;
  process.env.HOME = home;
  process.env.KNACK_DATA_DIR = dataDir;
  try {
    const gate = createGate({ ceiling: ceilingFrom(settings, ws), rules: () => rules, skill: () => undefined });
    assert.equal(gate.authorize(write(join(dataDir, 'settings.json')), agent).verdict, 'ask');
    assert.equal(gate.authorize(write(join(home, '.workbuddy', 'skills', 'mine', 'run.js')), agent).verdict, 'ask');
    assert.equal(gate.authorize(write(join(home, 'other.txt')), agent).verdict, 'allow');
  } finally {
    if (saved === undefined) delete process.env.HOME;
    else process.env.HOME = saved;
    if (savedData === undefined) delete process.env.KNACK_DATA_DIR;
    else process.env.KNACK_DATA_DIR = savedData;
  }
});

test('finding 7: git and Knack control files are protected at any depth (nested repositories, nested project tiers)', () => {
  const { home, settings, rules } = homeWorkspace();
  const ws = join(home, 'project');
  const gate = createGate({
    ceiling: ceilingFrom(settings, ws),
    rules: () => rules,
    skill: () => undefined,
    protectedRoots: [],
  });
  for (const rel of [
    'vendor/lib/.git/config',
    'vendor/lib/.git/hooks/pre-commit',
    'vendor/lib/.git',
    'a/b/.GIT/config',
    'sub/.workbuddy/skills/x/SKILL.md',
    'sub/.agents/skills/x/run.js',
    'sub/.agents/settings.json',
    'pkg/.husky/pre-commit',
    'pkg/.mcp.json',
    'pkg/.claude/settings.json',
    'pkg/.gitmodules',
    'pkg/.envrc',
  ]) {
    assert.equal(gate.authorize(write(join(ws, rel)), agent).verdict, 'ask', rel);
  }
  assert.equal(gate.authorize(write(join(ws, 'vendor/lib/src/git.ts')), agent).verdict, 'allow');
  assert.equal(gate.authorize(write(join(ws, 'docs/.gitkeep')), agent).verdict, 'allow');
});

test('finding 2 end to end: knack tools call with the home folder as workspace asks before rewriting the data folder given by --data-dir', async () => {
  const { main } = await import('../../../main/cli/index.js');
  const root = tempDir();
  const home = join(root, 'home');
  const data = join(home, 'appdata');
  mkdirSync(data, { recursive: true });
  writeFileSync(join(data, 'settings.json'), '{}');
  const asked: string[] = [];
  const io = { out: () => undefined, err: () => undefined, confirm: async (q: string) => (asked.push(q), false) };
  const wide = JSON.stringify({ policy: { ceiling: { network: true, readRoots: ['/'], writeRoots: ['/'] } } });
  const code = await main(
    [
      'tools',
      'call',
      'write_file',
      '--args',
      JSON.stringify({ path: 'appdata/settings.json', content: wide }),
      '--no-mcp',
      ...cliArgs({ ws: home, home, data }),
    ],
    io,
  );
  assert.equal(code, 1);
  assert.equal(asked.length, 1);
  assert.match(asked[0]!, /Knack/);
  assert.equal(readFileSync(join(data, 'settings.json'), 'utf8'), '{}');
});
