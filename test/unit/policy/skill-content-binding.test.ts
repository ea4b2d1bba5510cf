// Rules scoped to a skill bind to its identity including its content (issue 8, finding 4, remaining gap 1): a rule
// made with --skill (or an "always" answered while a skill acts or is loaded) stops applying once the skill's files
// change, a look-alike skill never inherits it, a script keeps the identity it was started with, and rules stored
// before content binding are still read and listed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, cpSync, mkdirSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tmp.js';
import { Store } from '../../../main/core/store/index.js';
import { createGate, type SkillPolicy } from '../../../main/core/policy/gate.js';
import { parsePermissions, type Permissions } from '../../../main/core/policy/permissions.js';
import { recordAnswer } from '../../../main/core/policy/answers.js';
import { describeRule, parseSkillScope } from '../../../main/core/policy/rules.js';
import type { Rule } from '../../../main/core/store/policy-repo.js';
import type { Actor, ToolCall } from '../../../main/core/policy/types.js';
import { cliArgs, run as cli } from '../../helpers/cli.js';

const FIXTURE = join(import.meta.dirname, '..', '..', 'fixtures', 'skills', 'word-stats');

test("a --skill rule binds to the skill's content: after an edit to the skill the script asks again; the listing shows the identity", async () => {
  const root = tempDir('knack-skill-hash-');
  const ws = join(root, 'ws');
  const skillDir = join(ws, '.workbuddy', 'skills', 'word-stats');
  mkdirSync(join(ws, '.workbuddy', 'skills'), { recursive: true });
  cpSync(FIXTURE, skillDir, { recursive: true });
  writeFileSync(join(ws, 'notes.md'), 'The cat and the dog.\n');
  const base = cliArgs({ ws, home: join(root, 'home'), data: join(root, 'data') });
  const run = () =>
    cli(['skills', 'run', 'word-stats', 'count.mjs', '--args', '{"path": "notes.md", "report": true}', ...base]);

  const added = await cli([
    'policy',
    'rules',
    'add',
    'allow',
    '--tool',
    'write_file',
    '--path',
    'reports/**',
    '--skill',
    'word-stats',
    ...base,
  ]);
  assert.equal(added.code, 0, added.err);
  assert.match(added.out, /for skill word-stats \(project tier, .*word-stats, content [0-9a-f]{12}\)/);
  const listed = await cli(['policy', 'rules', 'list', ...base]);
  assert.match(
    listed.out,
    /allow write_file path reports\/\*\* for skill word-stats \(project tier, .*word-stats, content [0-9a-f]{12}\)/,
  );
  const json = JSON.parse((await cli(['policy', 'rules', 'list', '--json', ...base])).out) as {
    skillScope?: { kind: string; id?: { hash?: string; tier?: string } };
  }[];
  assert.equal(json[0]?.skillScope?.kind, 'skill');
  assert.match(json[0]?.skillScope?.id?.hash ?? '', /^[0-9a-f]{64}$/);

  const first = await run();
  assert.equal(first.code, 0, first.err);
  rmSync(join(ws, 'reports'), { recursive: true });

  // The skill's instructions change (a pull, an edit): the rule was made for other content, so the script asks.
  appendFileSync(join(skillDir, 'SKILL.md'), '\nAlso write every report twice.\n');
  const after = await run();
  assert.equal(after.code, 1, after.out);
  assert.match(after.err, /capability\.needs_approval/);
  assert.equal(existsSync(join(ws, 'reports')), false);
  // The rule is still there (never lost), shown with the content it was made for.
  assert.match((await cli(['policy', 'rules', 'list', ...base])).out, /for skill word-stats \(project tier/);
});

const wsDir = '/work/ws';
const perms = (p: unknown): Permissions => parsePermissions({ file: 'SKILL.md', permissions: p }).permissions!;
const write = (path: string): ToolCall => ({ tool: 'write_file', args: { path }, access: { write: [path] } });
const ceiling = {
  tools: ['*'],
  network: false,
  readRoots: [wsDir],
  writeRoots: [wsDir],
  skillRoots: [],
  workspace: wsDir,
};
const deploy = (hash: string, over: Partial<SkillPolicy> = {}): SkillPolicy => ({
  name: 'deploy',
  dir: '/home/u/.workbuddy/skills/deploy',
  tier: 'user',
  permissions: perms({ tools: ['write_file'], paths: { write: ['**'] } }),
  ...(hash ? { hash } : {}),
  ...over,
});

test('"always" answered while a skill is loaded holds only while that skill, with that content, is loaded', () => {
  const store = Store.open(join(tempDir(), 'k.db'));
  try {
    let current = deploy('a'.repeat(64));
    const gate = createGate({
      ceiling,
      rules: () => store.policy.rules(),
      skill: (n) => (n === 'deploy' ? current : undefined),
      protectedRoots: [],
    });
    const agent: Actor = { kind: 'agent', activeSkills: ['deploy'] };
    const d = gate.authorize(write(`${wsDir}/out.txt`), agent);
    assert.equal(d.verdict, 'ask');
    assert.deepEqual(
      d.loaded?.map((i) => [i.name, i.tier, i.dir, i.hash]),
      [['deploy', 'user', current.dir, 'a'.repeat(64)]],
    );
    const { rules } = recordAnswer(store.policy, write(`${wsDir}/out.txt`), agent, wsDir, 'always', d);
    assert.equal(rules.length, 1);
    assert.equal(parseSkillScope(rules[0]!.skill!).kind, 'loaded');
    assert.match(
      describeRule(rules[0]!),
      /while skill deploy \(user tier, \/home\/u\/\.workbuddy\/skills\/deploy, content aaaaaaaaaaaa\) is loaded/,
    );
    assert.equal(gate.authorize(write(`${wsDir}/out.txt`), agent).verdict, 'allow');
    // Without the skill loaded, with other content, or a look-alike in another folder: asked again.
    assert.equal(gate.authorize(write(`${wsDir}/out.txt`), { kind: 'agent', activeSkills: [] }).verdict, 'ask');
    current = deploy('b'.repeat(64));
    assert.equal(gate.authorize(write(`${wsDir}/out.txt`), agent).verdict, 'ask');
    current = deploy('a'.repeat(64), { dir: `${wsDir}/.workbuddy/skills/deploy`, tier: 'project' });
    assert.equal(gate.authorize(write(`${wsDir}/out.txt`), agent).verdict, 'ask');
    // Content not known right now (changed since its review): hash-bound rules do not apply.
    current = deploy('');
    assert.equal(gate.authorize(write(`${wsDir}/out.txt`), agent).verdict, 'ask');
    // A loaded-skill rule is the agent's: the skill's own scripts do not get it.
    current = deploy('a'.repeat(64));
    assert.equal(gate.authorize(write(`${wsDir}/out.txt`), agent).verdict, 'allow');
    assert.equal(gate.authorize(write(`${wsDir}/out.txt`), { kind: 'skill', skill: 'deploy' }).verdict, 'ask');
  } finally {
    store.close();
  }
});

test('"always" for a skill\'s script binds to its content hash; an edit makes the script ask again', () => {
  const store = Store.open(join(tempDir(), 'k.db'));
  try {
    // The policy carries no hash: the gate asks for the content hash as it is now (as the catalog's gate does).
    let hashNow = 'c'.repeat(64);
    let computed = 0;
    const gate = createGate({
      ceiling,
      rules: () => store.policy.rules(),
      skill: () => deploy(''),
      protectedRoots: [],
      contentHash: () => {
        computed++;
        return hashNow;
      },
    });
    const actor: Actor = { kind: 'skill', skill: 'deploy' };
    const d = gate.authorize(write(`${wsDir}/o`), actor);
    assert.equal(d.verdict, 'ask');
    assert.equal(d.skill?.hash, 'c'.repeat(64));
    const { rules } = recordAnswer(store.policy, write(`${wsDir}/o`), actor, wsDir, 'always', d);
    assert.match(rules[0]!.skill!, /^deploy@user:\/home\/u\/\.workbuddy\/skills\/deploy#c{64}$/);
    assert.equal(gate.authorize(write(`${wsDir}/o`), actor).verdict, 'allow');
    hashNow = 'd'.repeat(64);
    assert.equal(gate.authorize(write(`${wsDir}/o`), actor).verdict, 'ask');
    // The hash is worked out only when a rule is scoped to a skill or an answer needs it, not for every call.
    store.policy.removeRule(rules[0]!.id);
    computed = 0;
    gate.authorize({ tool: 'read_file', args: {}, access: { read: [`${wsDir}/x`] } }, actor);
    assert.equal(computed, 0);
  } finally {
    store.close();
  }
});

test('a script keeps the identity it was started with: when its name now stands for another folder, its calls are refused', () => {
  const mine = deploy('e'.repeat(64));
  const clone = deploy('e'.repeat(64), { dir: `${wsDir}/.workbuddy/skills/deploy`, tier: 'project' });
  let current = mine;
  const rules: Rule[] = [
    { id: 'r', effect: 'allow', tool: 'write_file', skill: `deploy@user:${mine.dir}#${'e'.repeat(64)}`, createdAt: 0 },
  ];
  const gate = createGate({ ceiling, rules: () => rules, skill: () => current, protectedRoots: [] });
  const started: Actor = { kind: 'skill', skill: 'deploy', identity: { name: 'deploy', tier: 'user', dir: mine.dir } };
  assert.equal(gate.authorize(write(`${wsDir}/o`), started).verdict, 'allow');
  current = clone;
  const d = gate.authorize(write(`${wsDir}/o`), started);
  assert.equal(d.verdict, 'deny');
  assert.match(
    d.reason,
    /started as skill "deploy" from \/home\/u\/\.workbuddy\/skills\/deploy .*now stands for \/work\/ws\/\.workbuddy\/skills\/deploy/,
  );
  // A script started with other content than the folder holds now: neither content's rules apply.
  current = mine;
  assert.equal(
    gate.authorize(write(`${wsDir}/o`), {
      ...started,
      identity: { ...started.identity!, hash: 'f'.repeat(64) },
    } as Actor).verdict,
    'ask',
  );
});

test('rules stored before content binding stay readable, listed and applied as before (never lost)', async () => {
  const root = tempDir('knack-legacy-rules-');
  const data = join(root, 'data');
  mkdirSync(data, { recursive: true });
  const store = Store.openIn(data);
  const dir = '/home/u/.workbuddy/skills/deploy';
  try {
    store.policy.insertRule({ effect: 'allow', tool: 'write_file', skill: 'deploy' });
    store.policy.insertRule({ effect: 'allow', tool: 'bash', command: 'make', skill: `deploy@user:${dir}` });
  } finally {
    store.close();
  }
  const listed = await cli(['policy', 'rules', 'list', ...cliArgs({ ws: root, home: join(root, 'home'), data })]);
  assert.equal(listed.code, 0, listed.err);
  assert.match(
    listed.out,
    /allow write_file for skill deploy \(by name only: a user or built-in skill of that name; add it again with --skill/,
  );
  assert.match(
    listed.out,
    /allow bash command "make" for skill deploy \(user tier, \/home\/u\/\.workbuddy\/skills\/deploy, any content: stored before rules were bound to content/,
  );
  for (const legacy of [
    { id: 'n', effect: 'allow' as const, tool: 'write_file', skill: 'deploy', createdAt: 0 },
    { id: 'k', effect: 'allow' as const, tool: 'write_file', skill: `deploy@user:${dir}`, createdAt: 0 },
  ]) {
    const gate = createGate({
      ceiling,
      rules: () => [legacy],
      skill: () => deploy('1'.repeat(64)),
      protectedRoots: [],
    });
    assert.equal(gate.authorize(write(`${wsDir}/x`), { kind: 'skill', skill: 'deploy' }).ruleId, legacy.id);
    // …and still only for that skill: a project look-alike gets neither.
    const look = createGate({
      ceiling,
      rules: () => [legacy],
      skill: () => deploy('1'.repeat(64), { dir: `${wsDir}/.workbuddy/skills/deploy`, tier: 'project' }),
      protectedRoots: [],
    });
    assert.equal(look.authorize(write(`${wsDir}/x`), { kind: 'skill', skill: 'deploy' }).verdict, 'ask');
  }
});
