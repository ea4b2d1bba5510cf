// Hot reload: the watcher refreshes the catalog when a skill is added, edited or removed, without a restart,
// including a tier folder that did not exist when watching started.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { skillMd, tempDir, writeTree } from '../../helpers/tmp.js';
import { openCatalog, type Catalog, type CatalogChange } from '../../../main/core/skills/catalog/catalog.js';
import { watchCatalog } from '../../../main/core/skills/catalog/watch.js';

function nextChange(c: Catalog, timeoutMs = 8000): Promise<CatalogChange> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('no catalog change within timeout')), timeoutMs);
    c.once('change', (e: CatalogChange) => {
      clearTimeout(t);
      resolve(e);
    });
  });
}

test('adding, editing and removing a SKILL.md hot-reloads the catalog', async () => {
  const root = tempDir();
  const paths = { home: join(root, 'home'), dataDir: join(root, 'data'), builtinSkillsDir: join(root, 'builtin') };
  const user = join(root, 'home/.workbuddy/skills');
  writeTree(user, { 'one/SKILL.md': skillMd({ name: 'one', description: 'first' }) });
  const c = await openCatalog({ paths, workspace: join(root, 'ws') });
  const w = watchCatalog(c, { debounceMs: 50 });
  try {
    await w.ready;
    let p = nextChange(c);
    writeTree(user, { 'two/SKILL.md': skillMd({ name: 'two', description: 'second' }) });
    assert.deepEqual((await p).added, ['two']);

    p = nextChange(c);
    writeFileSync(join(user, 'one/SKILL.md'), skillMd({ name: 'one', description: 'first, edited' }));
    assert.deepEqual((await p).changed, ['one']);
    assert.equal(c.get('one')?.manifest.description, 'first, edited');

    p = nextChange(c);
    rmSync(join(user, 'two'), { recursive: true });
    assert.deepEqual((await p).removed, ['two']);
    assert.equal(c.get('two'), undefined);
  } finally {
    await w.close();
  }
});

test("a skill's folders are watched with it, never its files one by one; a new skill beside it still hot-reloads", async () => {
  const root = tempDir();
  const paths = { home: join(root, 'home'), dataDir: join(root, 'data'), builtinSkillsDir: join(root, 'builtin') };
  const user = join(root, 'home/.workbuddy/skills');
  writeTree(user, {
    'one/SKILL.md': skillMd({ name: 'one', description: 'first' }),
    'one/scripts/run.sh': 'echo hi\n',
    'one/references/guide.md': '# Guide\n',
    'group/two/SKILL.md': skillMd({ name: 'two', description: 'second' }),
    'group/two/assets/logo.txt': 'logo\n',
  });
  const c = await openCatalog({ paths, workspace: join(root, 'ws') });
  const w = watchCatalog(c, { debounceMs: 50 });
  try {
    await w.ready;
    const watched = new Set(w.watched());
    // Every file of a skill is what its audit reads: each of its folders is watched (one watch per folder).
    for (const folder of ['one', 'one/scripts', 'one/references', 'group/two', 'group/two/assets'])
      assert.ok(watched.has(join(user, folder)), `${folder} is not watched:\n${[...watched].join('\n')}`);
    for (const file of ['one/SKILL.md', 'one/scripts/run.sh', 'one/references/guide.md', 'group/two/assets/logo.txt'])
      assert.ok(!watched.has(join(user, file)), `${file} is watched`);
    const p = nextChange(c);
    writeTree(user, { 'group/three/SKILL.md': skillMd({ name: 'three', description: 'third' }) });
    assert.deepEqual((await p).added, ['three']);
  } finally {
    await w.close();
  }
});

test('a project skills folder created after start-up is picked up', async () => {
  const root = tempDir();
  const paths = { home: join(root, 'home'), dataDir: join(root, 'data'), builtinSkillsDir: join(root, 'builtin') };
  const ws = join(root, 'ws');
  writeTree(ws, { 'README.md': 'hello' });
  const c = await openCatalog({ paths, workspace: ws });
  assert.equal(c.entries().length, 0);
  const w = watchCatalog(c, { debounceMs: 50 });
  try {
    await w.ready;
    const p = nextChange(c);
    writeTree(ws, { '.workbuddy/skills/late/SKILL.md': skillMd({ name: 'late', description: 'arrived later' }) });
    assert.deepEqual((await p).added, ['late']);
    assert.equal(c.get('late')?.tier, 'project');
  } finally {
    await w.close();
  }
});

test('a folder that becomes a skill after the walk that found it empty is seen, however close the two are', async () => {
  const root = tempDir();
  const paths = { home: join(root, 'home'), dataDir: join(root, 'data'), builtinSkillsDir: join(root, 'builtin') };
  const user = join(root, 'home/.workbuddy/skills');
  writeTree(user, { 'one/SKILL.md': skillMd({ name: 'one', description: 'first' }) });
  const c = await openCatalog({ paths, workspace: join(root, 'ws') });
  // Runs after each walk and before the watcher follows it: the SKILL.md lands where no watch is yet.
  let planted = false;
  c.on('walked', () => {
    if (planted || !c.folders().entries.includes(join(user, 'late'))) return;
    planted = true;
    writeTree(user, { 'late/SKILL.md': skillMd({ name: 'late', description: 'arrived between' }) });
  });
  const w = watchCatalog(c, { debounceMs: 50 });
  try {
    await w.ready;
    const seen = new Promise<void>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error('the late skill was never seen')), 8000);
      c.on('change', () => {
        if (!c.get('late')) return;
        clearTimeout(t);
        resolve();
      });
    });
    mkdirSync(join(user, 'late'));
    await seen;
    assert.ok(planted);
  } finally {
    await w.close();
  }
});

test('a SKILL.md edited in place in a nested skill, and one added at the depth bound, hot-reload', async () => {
  const root = tempDir();
  const paths = { home: join(root, 'home'), dataDir: join(root, 'data'), builtinSkillsDir: join(root, 'builtin') };
  const user = join(root, 'home/.workbuddy/skills');
  writeTree(user, {
    'group/two/SKILL.md': skillMd({ name: 'two', description: 'second' }),
    'a/b/c/d/notes.txt': 'not a skill yet\n',
  });
  const c = await openCatalog({ paths, workspace: join(root, 'ws') });
  assert.equal(c.settingsInUse.discovery.maxDepth, 4);
  const w = watchCatalog(c, { debounceMs: 50 });
  try {
    await w.ready;
    let p = nextChange(c);
    appendFileSync(join(user, 'group/two/SKILL.md'), '\nOne more step.\n');
    assert.deepEqual((await p).changed, ['two']);

    p = nextChange(c);
    writeFileSync(join(user, 'a/b/c/d/SKILL.md'), skillMd({ name: 'deep', description: 'at the depth bound' }));
    assert.deepEqual((await p).added, ['deep']);
  } finally {
    await w.close();
  }
});

test('a skill folder renamed, and a tier folder removed and made again, hot-reload', async () => {
  const root = tempDir();
  const paths = { home: join(root, 'home'), dataDir: join(root, 'data'), builtinSkillsDir: join(root, 'builtin') };
  const user = join(root, 'home/.workbuddy/skills');
  writeTree(user, { 'one/SKILL.md': skillMd({ name: 'one', description: 'first' }) });
  const c = await openCatalog({ paths, workspace: join(root, 'ws') });
  const w = watchCatalog(c, { debounceMs: 50 });
  try {
    await w.ready;
    let p = nextChange(c);
    renameSync(join(user, 'one'), join(root, 'one-away'));
    assert.deepEqual((await p).removed, ['one']);

    p = nextChange(c);
    rmSync(join(root, 'home/.workbuddy'), { recursive: true });
    writeTree(user, { 'two/SKILL.md': skillMd({ name: 'two', description: 'second' }) });
    assert.deepEqual((await p).added, ['two']);
  } finally {
    await w.close();
  }
});

test('a tier folder removed and made again is watched again: a skill added to it later hot-reloads', async () => {
  const root = tempDir();
  const paths = { home: join(root, 'home'), dataDir: join(root, 'data'), builtinSkillsDir: join(root, 'builtin') };
  const user = join(root, 'home/.workbuddy/skills');
  writeTree(user, { 'one/SKILL.md': skillMd({ name: 'one', description: 'first' }) });
  const c = await openCatalog({ paths, workspace: join(root, 'ws') });
  const w = watchCatalog(c, { debounceMs: 50 });
  try {
    await w.ready;
    let p = nextChange(c);
    rmSync(user, { recursive: true });
    mkdirSync(user);
    assert.deepEqual((await p).removed, ['one']);
    // Quiet until the watcher has followed the new folder (its walk and the refresh after a new watch).
    await new Promise((r) => setTimeout(r, 500));
    p = nextChange(c);
    writeTree(user, { 'two/SKILL.md': skillMd({ name: 'two', description: 'second' }) });
    assert.deepEqual((await p).added, ['two']);

    // The same for a skill folder: made again under its name, then its SKILL.md edited in place.
    p = nextChange(c);
    rmSync(join(user, 'two'), { recursive: true });
    writeTree(user, { 'two/SKILL.md': skillMd({ name: 'two', description: 'second, again' }) });
    assert.deepEqual((await p).changed, ['two']);
    await new Promise((r) => setTimeout(r, 500));
    p = nextChange(c);
    writeFileSync(join(user, 'two/SKILL.md'), skillMd({ name: 'two', description: 'second, edited' }));
    assert.deepEqual((await p).changed, ['two']);
    assert.equal(c.get('two')?.manifest.description, 'second, edited');
  } finally {
    await w.close();
  }
});
