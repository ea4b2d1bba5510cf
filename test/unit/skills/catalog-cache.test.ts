// The warm-start cache (catalog-cache.ts): folder listings reused only while a folder is unchanged, file parses reused
// only while size, mtime and ctime are unchanged; every added, edited, renamed or removed skill is seen on a warm start.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, renameSync, rmSync, statSync, symlinkSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { skillMd, tempDir, writeTree } from '../../helpers/tmp.js';
import { openCatalog, type Catalog, type CatalogOptions } from '../../../main/core/skills/catalog/catalog.js';
import { Store } from '../../../main/core/store/index.js';

/** Folders must have been unchanged this long when listed for the listing to be reused (the real default is 2 s). */
const RACY_MS = 100;

async function layout(files: Record<string, string>, project: Record<string, string> = {}) {
  const root = tempDir();
  const paths = { home: join(root, 'home'), dataDir: join(root, 'data'), builtinSkillsDir: join(root, 'builtin') };
  const user = join(root, 'home/.workbuddy/skills');
  const ws = join(root, 'ws');
  writeTree(user, files);
  writeTree(join(ws, '.workbuddy/skills'), project);
  mkdirSync(paths.builtinSkillsDir, { recursive: true });
  // Let the folders age past the racy window so the first build's listings can be reused.
  await sleep(RACY_MS + 50);
  return { root, paths, user, ws, project: join(ws, '.workbuddy/skills') };
}
type Layout = Awaited<ReturnType<typeof layout>>;
const sk = (name: string, description = `${name} skill`) => skillMd({ name, description });

/** A warm start as a new process does it: a fresh store handle and catalog over the same data folder. */
async function warmStart(l: Layout, extra: Partial<CatalogOptions> = {}): Promise<Catalog> {
  const store = Store.openIn(l.paths.dataDir);
  try {
    return await openCatalog({ paths: l.paths, workspace: l.ws, store, listingRacyMs: RACY_MS, ...extra });
  } finally {
    store.close();
  }
}
const names = (c: Catalog) => c.entries().map((e) => e.manifest.name);

test('an unchanged warm start lists no folder and parses no file', async () => {
  const l = await layout({ 'a/SKILL.md': sk('a'), 'group/b/SKILL.md': sk('b') });
  const cold = await warmStart(l);
  assert.equal(cold.timings.parsed, 2);
  assert.ok(cold.timings.listed >= 2);
  const warm = await warmStart(l);
  assert.deepEqual([warm.timings.parsed, warm.timings.listed, warm.timings.cached], [0, 0, 2]);
  assert.deepEqual(names(warm), ['a', 'b']);
});

test('a skill added inside an existing group folder is seen on a warm start', async () => {
  const l = await layout({ 'group/a/SKILL.md': sk('a'), 'other/b/SKILL.md': sk('b') });
  await warmStart(l);
  writeTree(l.user, { 'group/new/SKILL.md': sk('new') });
  const warm = await warmStart(l);
  assert.deepEqual(names(warm), ['a', 'b', 'new']);
  // Only the changed folder was read again; the tier folder and `other` came from the cache.
  assert.equal(warm.timings.listed, 1);
  assert.equal(warm.timings.parsed, 1);
});

test('a renamed skill folder is seen under its new path and the old one is gone', async () => {
  const l = await layout({ 'old-name/SKILL.md': sk('renamed'), 'keep/SKILL.md': sk('keep') });
  const cold = await warmStart(l);
  assert.equal(cold.get('renamed')?.dir, join(l.user, 'old-name'));
  renameSync(join(l.user, 'old-name'), join(l.user, 'renamed'));
  const warm = await warmStart(l);
  assert.equal(warm.get('renamed')?.dir, join(l.user, 'renamed'));
  assert.deepEqual(names(warm), ['keep', 'renamed']);
  assert.equal(warm.entries().length, 2);
});

test('an edit that keeps the size and restores the mtime is still seen (ctime)', async () => {
  const l = await layout({ 'a/SKILL.md': sk('a', 'version one') });
  const file = join(l.user, 'a/SKILL.md');
  const fixed = new Date('2024-05-01T10:00:00Z');
  utimesSync(file, fixed, fixed);
  await warmStart(l);
  const before = statSync(file);
  // What `cp -p`, `touch -r` or an unpacked archive do: new content, same size, old mtime.
  writeFileSync(file, sk('a', 'version two'));
  utimesSync(file, fixed, fixed);
  const after = statSync(file);
  assert.equal(after.size, before.size);
  assert.equal(after.mtimeMs, before.mtimeMs);
  const warm = await warmStart(l);
  assert.equal(warm.get('a')?.manifest.description, 'version two');
  assert.equal(warm.timings.parsed, 1);
});

test('a touched file with the same content is re-parsed, and the others are not', async () => {
  const l = await layout({ 'a/SKILL.md': sk('a'), 'b/SKILL.md': sk('b') });
  await warmStart(l);
  const file = join(l.user, 'a/SKILL.md');
  utimesSync(file, new Date(), new Date(Date.now() + 3000));
  const warm = await warmStart(l);
  assert.deepEqual([warm.timings.parsed, warm.timings.cached], [1, 1]);
});

test('a deleted tier folder drops its skills and its cache; re-creating it brings them back', async () => {
  const l = await layout(
    { 'u/SKILL.md': sk('u') },
    { 'p/SKILL.md': sk('p'), 'shared/SKILL.md': sk('u', 'project wins') },
  );
  const cold = await warmStart(l);
  assert.equal(cold.get('u')?.tier, 'project');
  rmSync(l.project, { recursive: true });
  const warm = await warmStart(l);
  assert.deepEqual(names(warm), ['u']);
  assert.equal(warm.get('u')?.tier, 'user');
  const store = Store.openIn(l.paths.dataDir);
  assert.equal(store.skills.getSnapshot(l.project), undefined);
  store.close();
  writeTree(l.project, { 'p/SKILL.md': sk('p') });
  const back = await warmStart(l);
  assert.deepEqual(names(back), ['p', 'u']);
});

test('a SKILL.md replaced by a lowercase skill.md in the same folder is followed', async () => {
  const l = await layout({ 'a/SKILL.md': sk('a', 'upper') });
  await warmStart(l);
  unlinkSync(join(l.user, 'a/SKILL.md'));
  writeFileSync(join(l.user, 'a/skill.md'), sk('a', 'lower'));
  const warm = await warmStart(l);
  assert.equal(warm.get('a')?.manifest.description, 'lower');
  assert.ok(warm.get('a')?.file.endsWith('skill.md'));
});

test('a symbolic link whose target changes is followed to the new target (its folder did not change)', async () => {
  const l = await layout({ 'local/SKILL.md': sk('local') });
  const store = join(l.root, 'store');
  writeTree(store, {
    'v1/tool/SKILL.md': sk('tool', 'version 1'),
    'v2/tool/SKILL.md': sk('tool', 'version 2'),
    'v2/extra/SKILL.md': sk('extra'),
  });
  // user/skills/pack -> store/current -> store/v1: swapping `current` changes `store`, never the tier folder.
  symlinkSync(join(store, 'v1'), join(store, 'current'));
  symlinkSync(join(store, 'current'), join(l.user, 'pack'));
  await sleep(RACY_MS + 50);
  const cold = await warmStart(l);
  assert.equal(cold.get('tool')?.manifest.description, 'version 1');
  const tierTimes = statSync(l.user);
  unlinkSync(join(store, 'current'));
  symlinkSync(join(store, 'v2'), join(store, 'current'));
  assert.equal(statSync(l.user).ctimeMs, tierTimes.ctimeMs);
  const warm = await warmStart(l);
  assert.equal(warm.get('tool')?.manifest.description, 'version 2');
  assert.equal(warm.get('tool')?.realDir, join(store, 'v2/tool'));
  assert.deepEqual(names(warm), ['extra', 'local', 'tool']);
  // The tier folder's listing was reused; only the new target folder was read.
  assert.equal(warm.timings.listed, 1);
});

test('a folder listed right after it changed is read again next time (coarse file-system clocks)', async () => {
  const l = await layout({ 'a/SKILL.md': sk('a') });
  writeTree(l.user, { 'b/SKILL.md': sk('b') });
  // The tier folder changed just now: its listing is not trusted on the next start even though it looks unchanged.
  const first = await warmStart(l, { listingRacyMs: 60_000 });
  assert.deepEqual(names(first), ['a', 'b']);
  const second = await warmStart(l, { listingRacyMs: 60_000 });
  assert.ok(second.timings.listed >= 1);
  // Once the folder is older than the window when it is listed, the listing is reused.
  await sleep(RACY_MS + 50);
  await warmStart(l);
  const fourth = await warmStart(l);
  assert.deepEqual([fourth.timings.listed, fourth.timings.parsed], [0, 0]);
  assert.deepEqual(names(fourth), ['a', 'b']);
});

test('refresh in one process uses the same rules: added, renamed and removed skills are seen', async () => {
  const l = await layout({ 'g/a/SKILL.md': sk('a'), 'b/SKILL.md': sk('b'), 'c/SKILL.md': sk('c') });
  const store = Store.openIn(l.paths.dataDir);
  const c = await openCatalog({ paths: l.paths, workspace: l.ws, store, listingRacyMs: RACY_MS });
  writeTree(l.user, { 'g/new/SKILL.md': sk('new') });
  renameSync(join(l.user, 'b'), join(l.user, 'b2'));
  rmSync(join(l.user, 'c'), { recursive: true });
  const change = await c.refresh();
  assert.deepEqual(change, { added: ['new'], removed: ['c'], changed: ['b'] });
  assert.deepEqual(names(c), ['a', 'b', 'new']);
  assert.equal(c.get('b')?.dir, join(l.user, 'b2'));
  store.close();
});
