// A skill folder that cannot be watched is said, never dropped in silence: the watcher names each folder whose watch
// could not be made (no inotify watch left: ENOSPC; no descriptor: EMFILE) or whose watch ended, with the error, and
// the folders it does watch still hot-reload. Such a folder is tried again after each walk, and on a timer that backs
// off while any is left (no file event needed), and said once more when it is watched or gone, so that no one counts
// it any longer. At the system's limit a pass makes one failed try for the folders waiting, not one per folder.
//
// The failures are injected through `watchCatalog`'s `watch` option, its one call of node:fs `watch`: a real ENOSPC
// needs the machine's fs.inotify.max_user_watches lowered (one limit for every process of the user, tests running
// beside this one included), Knack reads no limit of its own to lower, and as root no folder can be made unwatchable
// (a folder made unreadable is still watched). `underLimit` keeps the limit as the kernel does, over real watches.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync, watch, type FSWatcher } from 'node:fs';
import { basename, join } from 'node:path';
import { skillMd, tempDir, writeTree } from '../../helpers/tmp.js';
import { openCatalog, type Catalog, type CatalogChange } from '../../../main/core/skills/catalog/catalog.js';
import { watchCatalog } from '../../../main/core/skills/catalog/watch.js';
import { WatchProblems } from '../../../main/core/service/watch-problems.js';

function nextChange(c: Catalog, timeoutMs = 8000): Promise<CatalogChange> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('no catalog change within timeout')), timeoutMs);
    c.once('change', (e: CatalogChange) => {
      clearTimeout(t);
      resolve(e);
    });
  });
}

/** The error node:fs `watch` throws when no inotify watch is left. */
function errno(code: string, dir: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: System limit for number of file watchers reached, watch '${dir}'`), {
    code,
    syscall: 'watch',
    path: dir,
  });
}

/** A real node:fs watch that keeps each watcher it makes in `made`, by folder (a test ends one with an error). */
function keeping(made: Map<string, FSWatcher>) {
  return (dir: string, o: { persistent: boolean; encoding: 'utf8' }): FSWatcher => {
    const fw = watch(dir, o);
    made.set(dir, fw);
    return fw;
  };
}

async function catalogOf(skills: string[]) {
  const root = tempDir();
  const paths = { home: join(root, 'home'), dataDir: join(root, 'data'), builtinSkillsDir: join(root, 'builtin') };
  const user = join(root, 'home/.workbuddy/skills');
  writeTree(
    user,
    Object.fromEntries(skills.map((n) => [`${n}/SKILL.md`, skillMd({ name: n, description: `the ${n} skill` })])),
  );
  return { user, catalog: await openCatalog({ paths, workspace: join(root, 'ws') }) };
}

test('folders whose watch cannot be made are each said with their error; the others still hot-reload', async () => {
  const { user, catalog } = await catalogOf(['one', 'two', 'three']);
  const failed: { dir: string | undefined; code: string | undefined }[] = [];
  const w = watchCatalog(catalog, {
    debounceMs: 50,
    onError: (e, dir) => failed.push({ dir, code: (e as NodeJS.ErrnoException).code }),
    watch: (dir, o) => {
      if (basename(dir) === 'two' || basename(dir) === 'three') throw errno('ENOSPC', dir);
      // A folder gone since the walk is not a failure: its parent's event refreshes the catalog.
      if (basename(dir) === 'one') throw errno('ENOENT', dir);
      return watch(dir, o);
    },
  });
  try {
    await w.ready;
    assert.deepEqual(
      failed.sort((a, b) => a.dir!.localeCompare(b.dir!)),
      [
        { dir: join(user, 'three'), code: 'ENOSPC' },
        { dir: join(user, 'two'), code: 'ENOSPC' },
      ],
    );
    const watched = w.watched();
    assert.ok(watched.includes(user), watched.join('\n'));
    assert.ok(!watched.includes(join(user, 'two')), watched.join('\n'));
    const p = nextChange(catalog);
    writeTree(user, { 'four/SKILL.md': skillMd({ name: 'four', description: 'the four skill' }) });
    assert.deepEqual((await p).added, ['four']);
  } finally {
    await w.close();
  }
});

test('a watch that ends with an error names its folder', async () => {
  const { user, catalog } = await catalogOf(['one']);
  const made = new Map<string, FSWatcher>();
  const failed: { dir: string | undefined; code: string | undefined }[] = [];
  const w = watchCatalog(catalog, {
    onError: (e, dir) => failed.push({ dir, code: (e as NodeJS.ErrnoException).code }),
    watch: keeping(made),
  });
  try {
    await w.ready;
    made.get(join(user, 'one'))!.emit('error', errno('EMFILE', join(user, 'one')));
    assert.deepEqual(failed, [{ dir: join(user, 'one'), code: 'EMFILE' }]);
  } finally {
    await w.close();
  }
});

test('a folder that could not be watched is said again once a later walk watches it, or once it is gone', async () => {
  const { user, catalog } = await catalogOf(['one', 'two', 'three']);
  // Refused each on its own (EACCES), not for the system's limit, after which a pass tries no more known failures.
  const failing = new Set(['two', 'three']);
  const failed: string[] = [];
  const watchedAgain: string[] = [];
  const w = watchCatalog(catalog, {
    debounceMs: 50,
    onError: (_e, dir) => failed.push(dir!),
    onWatched: (dir) => watchedAgain.push(dir ?? '(a walk)'),
    watch: (dir, o) => {
      if (failing.has(basename(dir))) throw errno('EACCES', dir);
      return watch(dir, o);
    },
  });
  try {
    await w.ready;
    assert.deepEqual(failed.sort(), [join(user, 'three'), join(user, 'two')]);
    assert.deepEqual(watchedAgain, []);

    // `two` can be watched again: the next walk watches it.
    failing.delete('two');
    let p = nextChange(catalog);
    writeTree(user, { 'four/SKILL.md': skillMd({ name: 'four', description: 'the four skill' }) });
    assert.deepEqual((await p).added, ['four']);
    assert.deepEqual(watchedAgain, [join(user, 'two')]);
    assert.ok(w.watched().includes(join(user, 'two')), w.watched().join('\n'));

    // `three` still cannot be watched, then is removed: nothing of it is left unfollowed.
    p = nextChange(catalog);
    rmSync(join(user, 'three'), { recursive: true });
    assert.deepEqual((await p).removed, ['three']);
    assert.deepEqual(watchedAgain, [join(user, 'two'), join(user, 'three')]);
  } finally {
    await w.close();
  }
});

test('a folder whose watch ended is watched anew after the next walk', async () => {
  const { user, catalog } = await catalogOf(['one']);
  const made = new Map<string, FSWatcher>();
  const watchedAgain: string[] = [];
  const w = watchCatalog(catalog, {
    debounceMs: 50,
    onError: () => {},
    onWatched: (dir) => watchedAgain.push(dir ?? '(a walk)'),
    watch: keeping(made),
  });
  try {
    await w.ready;
    const ended = made.get(join(user, 'one'))!;
    ended.emit('error', errno('EMFILE', join(user, 'one')));
    const p = nextChange(catalog);
    writeTree(user, { 'two/SKILL.md': skillMd({ name: 'two', description: 'the two skill' }) });
    assert.deepEqual((await p).added, ['two']);
    assert.deepEqual(watchedAgain, [join(user, 'one')]);
    assert.notEqual(made.get(join(user, 'one')), ended);
  } finally {
    await w.close();
  }
});

/** Resolves once `ok()` holds, checked every 10 ms; fails after `boundMs` (a generous bound, not a speed target). */
async function eventually(ok: () => boolean, what: string, boundMs = 10_000): Promise<void> {
  for (const end = Date.now() + boundMs; !ok(); await new Promise((r) => setTimeout(r, 10)))
    if (Date.now() > end) throw new Error(`not within ${boundMs} ms: ${what}`);
}

test('a folder that could not be watched is tried again on a timer that backs off, with no file event', async () => {
  const { user, catalog } = await catalogOf(['one', 'two']);
  const two = join(user, 'two');
  let tries = 0;
  const delays: (number | undefined)[] = [];
  const watchedAgain: (string | undefined)[] = [];
  const changes: CatalogChange[] = [];
  catalog.on('change', (c: CatalogChange) => changes.push(c));
  const w = watchCatalog(catalog, {
    debounceMs: 50,
    retryMs: 20,
    // After each failure the watcher has set its next try: its delay, read once the walk or retry is over.
    onError: () => void Promise.resolve().then(() => delays.push(w.retryIn())),
    onWatched: (dir) => watchedAgain.push(dir),
    watch: (dir, o) => {
      // No watch left for `two` the first two times (the limit raised, or other watches closed, since).
      if (dir === two && ++tries <= 2) throw errno('ENOSPC', dir);
      return watch(dir, o);
    },
  });
  try {
    await w.ready;
    assert.equal(tries, 1);
    await eventually(() => watchedAgain.includes(two), 'the folder watched on a retry');
    assert.equal(tries, 3);
    assert.deepEqual(delays, [20, 40], 'the second try waits twice as long as the first');
    assert.ok(w.watched().includes(two), w.watched().join('\n'));
    assert.equal(w.retryIn(), undefined, 'no retry is left once every folder is watched');

    // Now watched: an edit in `two` hot-reloads.
    const p = nextChange(catalog);
    writeTree(two, { 'SKILL.md': skillMd({ name: 'two', description: 'the two skill, edited' }) });
    assert.deepEqual((await p).changed, ['two']);
    // The retries and the refresh after the watch read nothing new: the edit is the one change.
    assert.deepEqual(changes, [{ added: [], removed: [], changed: ['two'] }]);
  } finally {
    await w.close();
  }
});

test('the retries stop when the watcher closes', async () => {
  const { user, catalog } = await catalogOf(['one']);
  let tries = 0;
  const w = watchCatalog(catalog, {
    retryMs: 20,
    onError: () => {},
    watch: (dir, o) => {
      if (dir === join(user, 'one')) {
        tries++;
        throw errno('ENOSPC', dir);
      }
      return watch(dir, o);
    },
  });
  try {
    await w.ready;
    await eventually(() => tries >= 2, 'a retry');
    assert.equal(typeof w.retryIn(), 'number');
  } finally {
    await w.close();
  }
  assert.equal(w.retryIn(), undefined);
  const after = tries;
  // Longer than the next retry's delay could be by now: no try comes after close.
  await new Promise((r) => setTimeout(r, 400));
  assert.equal(tries, after);
});

/**
 * node:fs watch under a limit kept as the kernel keeps fs.inotify.max_user_watches: a real watch while fewer than
 * `limit.max` of its watches are open, ENOSPC after; closing one frees its place. `passes`: the folders tried, by pass
 * (the watcher tries a pass's folders in one go, within one tick).
 */
function underLimit(limit: { max: number }) {
  const open = new Set<FSWatcher>();
  const passes: string[][] = [];
  let pass: string[] | undefined;
  const fn = (dir: string, o: { persistent: boolean; encoding: 'utf8' }): FSWatcher => {
    if (!pass) {
      passes.push((pass = []));
      setImmediate(() => (pass = undefined));
    }
    pass.push(dir);
    if (open.size >= limit.max) throw errno('ENOSPC', dir);
    const fw = watch(dir, o);
    open.add(fw);
    const close = fw.close.bind(fw);
    fw.close = () => {
      open.delete(fw);
      close();
    };
    return fw;
  };
  return { fn, passes };
}

test('at the watch limit a pass makes one failed try, not one per waiting folder, and the warning holds', async () => {
  const names = Array.from({ length: 30 }, (_, i) => `s${i}`);
  const { user, catalog } = await catalogOf(names);
  const limit = { max: 10 };
  const { fn, passes } = underLimit(limit);
  const problems = new WatchProblems(() => {});
  const w = watchCatalog(catalog, {
    debounceMs: 50,
    retryMs: 20,
    onError: problems.add,
    onWatched: problems.watched,
    watch: fn,
  });
  try {
    await w.ready;
    // The first pass tries every folder once: each one left without a watch is said, with its own error.
    const wanted = passes[0]!.length;
    assert.ok(wanted > 30, `${wanted} folders`);
    const warning = () => problems.diagnostics().find((d) => d.field === 'ENOSPC')?.words;
    assert.equal(warning()?.code, 'catalog.unwatchedLimit');
    assert.equal(warning()?.params?.count, wanted - 10);

    // Retries while no watch is left, on the timer and after a walk (a skill added under a watched folder).
    await eventually(() => passes.length >= 3, 'two retries');
    const p = nextChange(catalog);
    writeTree(user, { 'new/SKILL.md': skillMd({ name: 'new', description: 'the new skill' }) });
    assert.deepEqual((await p).added, ['new']);
    await eventually(() => passes.length >= 5, 'more passes');
    for (const [i, tried] of passes.entries())
      if (i > 0) assert.ok(tried.length <= 2, `pass ${i} tried ${tried.length} folders: ${tried.join(', ')}`);
    // The user is still told how many folders are not followed (the new skill's among them).
    assert.equal(warning()?.params?.count, wanted + 1 - 10);

    // The limit raised: the next retry watches every waiting folder in one pass, and the warning goes.
    limit.max = 10_000;
    const before = passes.length;
    await eventually(() => warning() === undefined && w.retryIn() === undefined, 'every folder watched');
    assert.equal(passes.length, before + 1, 'one pass');
    assert.equal(passes.at(-1)!.length, wanted + 1 - 10);
    const q = nextChange(catalog);
    writeTree(user, { 's29/SKILL.md': skillMd({ name: 's29', description: 'the s29 skill, edited' }) });
    assert.deepEqual((await q).changed, ['s29']);
  } finally {
    await w.close();
  }
});
