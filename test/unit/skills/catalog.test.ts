// The catalog model: the SQLite revision cache (warm start re-parses only what changed), per-workspace toggles,
// the trust layer's review hook, change events, and parallel parsing giving the same result as one thread.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { skillMd, tempDir, writeTree } from '../../helpers/tmp.js';
import { openCatalog, type CatalogChange } from '../../../main/core/skills/catalog/catalog.js';
import { CACHE_VERSION } from '../../../main/core/skills/catalog/catalog-cache.js';
import { Store } from '../../../main/core/store/index.js';

function setup(n = 5) {
  const root = tempDir();
  const paths = { home: join(root, 'home'), dataDir: join(root, 'data'), builtinSkillsDir: join(root, 'builtin') };
  const user = join(root, 'home/.workbuddy/skills');
  const files: Record<string, string> = {};
  for (let i = 0; i < n; i++) files[`s${i}/SKILL.md`] = skillMd({ name: `s${i}`, description: `skill number ${i}` });
  writeTree(user, files);
  return { root, paths, user, ws: join(root, 'ws') };
}

test('a warm start from the SQLite cache re-parses only the file that changed', async () => {
  const s = setup(5);
  const store1 = Store.openIn(s.paths.dataDir);
  const cold = await openCatalog({ paths: s.paths, workspace: s.ws, store: store1 });
  assert.equal(cold.timings.parsed, 5);
  store1.close();

  const file = join(s.user, 's2/SKILL.md');
  writeFileSync(file, skillMd({ name: 's2', description: 'edited description' }));
  utimesSync(file, new Date(), new Date(Date.now() + 5000));
  const store2 = Store.openIn(s.paths.dataDir);
  const warm = await openCatalog({ paths: s.paths, workspace: s.ws, store: store2 });
  assert.equal(warm.timings.parsed, 1);
  assert.equal(warm.timings.cached, 4);
  assert.equal(warm.get('s2')?.manifest.description, 'edited description');
  assert.equal(warm.get('s1')?.manifest.description, 'skill number 1');
  store2.close();
});

test('refresh in the same process re-parses only what changed and reports added/changed/removed', async () => {
  const s = setup(3);
  const c = await openCatalog({ paths: s.paths, workspace: s.ws });
  const events: CatalogChange[] = [];
  c.on('change', (e: CatalogChange) => events.push(e));
  writeTree(s.user, { 'new/SKILL.md': skillMd({ name: 'new', description: 'added' }) });
  rmSync(join(s.user, 's0'), { recursive: true });
  const f = join(s.user, 's1/SKILL.md');
  writeFileSync(f, skillMd({ name: 's1', description: 'changed' }));
  utimesSync(f, new Date(), new Date(Date.now() + 5000));
  const change = await c.refresh();
  assert.deepEqual(change, { added: ['new'], removed: ['s0'], changed: ['s1'] });
  assert.equal(c.timings.parsed, 2);
  assert.deepEqual(events, [change]);
});

test('disabling a skill is per workspace, persists in the store, and removes it from enabled()', async () => {
  const s = setup(2);
  const store = Store.openIn(s.paths.dataDir);
  const a = await openCatalog({ paths: s.paths, workspace: join(s.root, 'ws-a'), store });
  a.setEnabled('s0', false);
  assert.deepEqual(
    a.enabled().map((e) => e.manifest.name),
    ['s1'],
  );
  assert.equal(a.get('s0')?.enabled, false);
  assert.match(a.get('s0')?.disabledReason ?? '', /disabled by the user/);
  const b = await openCatalog({ paths: s.paths, workspace: join(s.root, 'ws-b'), store });
  assert.equal(b.get('s0')?.enabled, true);
  store.close();
  const again = Store.openIn(s.paths.dataDir);
  const a2 = await openCatalog({ paths: s.paths, workspace: join(s.root, 'ws-a'), store: again });
  assert.equal(a2.get('s0')?.enabled, false);
  a2.setEnabled('S0', true);
  assert.equal(a2.get('s0')?.enabled, true);
  assert.throws(() => a2.setEnabled('nope', false), /no skill named "nope"/);
  again.close();
});

test('the review hook (trust layer) disables a skill with a reason, over the user toggle', async () => {
  const s = setup(2);
  const c = await openCatalog({
    paths: s.paths,
    workspace: s.ws,
    review: (e) =>
      e.manifest.name === 's1' ? { enabled: false, reason: 'audit P0: downloads and runs code' } : undefined,
  });
  c.setEnabled('s1', true);
  assert.equal(c.get('s1')?.enabled, false);
  assert.equal(c.get('s1')?.disabledReason, 'audit P0: downloads and runs code');
  assert.deepEqual(
    c.enabled().map((e) => e.manifest.name),
    ['s0'],
  );
});

test("a refresh that moves a skill's verdict alone (its SKILL.md unchanged) reports the skill changed", async () => {
  const s = setup(2);
  let refused = false;
  const c = await openCatalog({
    paths: s.paths,
    workspace: s.ws,
    review: (e) => (refused && e.manifest.name === 's1' ? { enabled: false, reason: 'audit P0: a script' } : undefined),
  });
  const changes: CatalogChange[] = [];
  c.on('change', (x: CatalogChange) => changes.push(x));
  refused = true;
  await c.refresh();
  assert.equal(c.get('s1')?.enabled, false);
  assert.deepEqual(changes, [{ added: [], removed: [], changed: ['s1'] }]);
  await c.refresh();
  assert.equal(changes.length, 1, 'the same verdict again is no change');
});

test('a review hook that throws disables that skill (fail closed) and the catalog still opens', async () => {
  const s = setup(2);
  const c = await openCatalog({
    paths: s.paths,
    workspace: s.ws,
    review: (e) => {
      if (e.manifest.name === 's0') throw new Error('audit crashed');
      return undefined;
    },
  });
  assert.equal(c.get('s0')?.enabled, false);
  assert.match(c.get('s0')?.disabledReason ?? '', /trust review failed: audit crashed/);
  assert.equal(c.get('s1')?.enabled, true);
});

test('a damaged cache row is re-parsed, never trusted', async () => {
  const s = setup(1);
  const store = Store.openIn(s.paths.dataDir);
  await openCatalog({ paths: s.paths, workspace: s.ws, store });
  assert.ok(store.skills.getSnapshot(s.user));
  const file = join(s.user, 's0/SKILL.md');
  const st = statSync(file);
  const rev = `${JSON.stringify(file)},${st.size},${st.mtimeMs},${st.ctimeMs}`;
  const head = `{"v":${CACHE_VERSION},"dirs":[]}`;
  // Truncated JSON; rows of the wrong shape; a row whose revision matches but whose manifest is garbage.
  for (const json of ['{not json', `${head}\n[[1,2,3]]`, `${head}\n{}`, `${head}\n[[${rev},"not a manifest",0,0]]`]) {
    store.skills.putSnapshots([{ root: s.user, json }]);
    const c = await openCatalog({ paths: s.paths, workspace: s.ws, store });
    assert.equal(c.timings.parsed, 1);
    assert.equal(c.get('s0')?.manifest.description, 'skill number 0');
  }
  store.close();
});

test('a skill disabled in a workspace stays disabled when the same folder is opened through a symbolic link', async () => {
  const s = setup(2);
  const real = join(s.root, 'real-ws');
  mkdirSync(real);
  const link = join(s.root, 'linked-ws');
  symlinkSync(real, link);
  const store = Store.openIn(s.paths.dataDir);
  (await openCatalog({ paths: s.paths, workspace: real, store })).setEnabled('s0', false);
  const viaLink = await openCatalog({ paths: s.paths, workspace: link, store });
  assert.equal(viaLink.get('s0')?.enabled, false);
  assert.deepEqual(
    viaLink.enabled().map((e) => e.manifest.name),
    ['s1'],
  );
  store.close();
});
