// The live gate over the catalog: a catalog change re-reads only the skills it names, and the result is exactly
// what a gate built from scratch over the new catalog would say.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { skillMd, tempDir, writeTree } from '../../helpers/tmp.js';
import { openCatalog } from '../../../main/core/skills/catalog/catalog.js';
import { CatalogGate, type CatalogSource } from '../../../main/core/skills/use/catalog-gate.js';
import { DEFAULT_SETTINGS } from '../../../main/core/config/settings.js';
import type { Actor } from '../../../main/core/policy/types.js';

const perms = (tools: string[], read: string[] = ['**']) => ({
  name: '',
  description: 'd',
  permissions: { tools, paths: { read } },
});

async function setup() {
  const root = tempDir();
  const ws = join(root, 'ws');
  const user = join(root, 'home/.workbuddy/skills');
  writeTree(ws, { 'a.txt': 'a' });
  for (const [name, tools] of [
    ['alpha', ['read_file']],
    ['beta', ['grep']],
    ['gamma', ['read_file', 'grep']],
  ] as const) {
    writeTree(user, { [`${name}/SKILL.md`]: skillMd({ ...perms([...tools]), name }) });
  }
  const catalog = await openCatalog({
    paths: { home: join(root, 'home'), dataDir: join(root, 'data'), builtinSkillsDir: join(root, 'builtin') },
    workspace: ws,
    listingRacyMs: 0,
  });
  // Count what the gate asks the catalog for: a change must not make it walk every entry again.
  const asked = { entries: 0, get: [] as string[] };
  const source: CatalogSource = {
    entries: () => (asked.entries++, catalog.entries()),
    get: (n) => (asked.get.push(n), catalog.get(n)),
  };
  const gate = new CatalogGate({ settings: DEFAULT_SETTINGS, workspace: ws, catalog: source });
  catalog.on('change', (c) => gate.changed(c));
  return { root, ws, user, catalog, gate, asked };
}

/** A grep over the workspace: a tool a skill must request (unlike its scripts' own file reads, bounded by paths). */
const readA = (ws: string) => ({ tool: 'grep', args: { path: '.' }, access: { read: [ws] } });
const skillActor = (skill: string): Actor => ({ kind: 'skill', skill });

test('a catalog change re-reads only the skills it names, and the gate follows at the next call', async () => {
  const { ws, user, catalog, gate, asked } = await setup();
  assert.equal(gate.authorize(readA(ws), skillActor('alpha')).verdict, 'deny');
  assert.equal(gate.authorize(readA(ws), skillActor('beta')).verdict, 'allow');
  assert.equal(asked.entries, 1);

  writeFileSync(join(user, 'beta/SKILL.md'), skillMd({ ...perms(['read_file']), name: 'beta' }));
  await catalog.refresh();
  assert.equal(gate.authorize(readA(ws), skillActor('beta')).verdict, 'deny');
  assert.equal(asked.entries, 1, 'no second walk over every skill');
  assert.deepEqual(asked.get, ['beta']);

  rmSync(join(user, 'alpha'), { recursive: true });
  writeTree(user, { 'delta/SKILL.md': skillMd({ ...perms(['grep']), name: 'delta' }) });
  await catalog.refresh();
  assert.equal(gate.authorize(readA(ws), skillActor('alpha')).verdict, 'deny');
  assert.equal(gate.authorize(readA(ws), skillActor('delta')).verdict, 'allow');
  assert.deepEqual([...asked.get].sort(), ['alpha', 'beta', 'delta']);
});

test('after any sequence of changes the incremental gate holds exactly what a fresh build over the catalog holds', async () => {
  const { root, ws, user, catalog, gate } = await setup();
  const project = join(ws, '.workbuddy/skills');
  const steps: (() => void)[] = [
    () => writeFileSync(join(user, 'gamma/SKILL.md'), skillMd({ ...perms(['bash(git:*)']), name: 'gamma' })),
    () => writeTree(project, { 'alpha/SKILL.md': skillMd({ ...perms(['grep'], ['src/**']), name: 'alpha' }) }), // shadows the user's alpha
    () => writeTree(user, { 'epsilon/SKILL.md': skillMd({ name: 'epsilon', description: 'no permissions' }) }),
    () => writeFileSync(join(user, 'epsilon/SKILL.md'), '---\nname: epsilon\ndescription: d\nallowed-tools: ""\n---\n'),
    () => rmSync(join(project, 'alpha'), { recursive: true }), // the user's alpha acts again
    () => rmSync(join(user, 'beta'), { recursive: true }),
  ];
  gate.authorize(readA(ws), skillActor('alpha'));
  for (const step of steps) {
    step();
    await catalog.refresh();
    const fresh = new CatalogGate({ settings: DEFAULT_SETTINGS, workspace: ws, catalog });
    assert.deepEqual(new Map([...gate.skills()].sort()), new Map([...fresh.skills()].sort()));
  }
  catalog.setEnabled('gamma', false);
  const fresh = new CatalogGate({ settings: DEFAULT_SETTINGS, workspace: ws, catalog });
  assert.deepEqual(new Map([...gate.skills()].sort()), new Map([...fresh.skills()].sort()));
  assert.ok(root);
});
