// The git-dir watch (git-dirs.ts) fails closed: when it cannot trust what it heard, the read walks the roots instead.
// Each way it stops trusting is reached here, and each time a repository is made where the watch did not hear it, so
// the read finds it only by walking: events lost past the kernel's queue, a mark not heard in time, no inotify watch
// left (ENOSPC), a watcher's error, an event without a name, a root made or swapped after the walk. The faults come from a watch function given
// to the constructor (fs.watch with events dropped or a watch refused), or from the file system itself where cheap.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, renameSync, watch, writeFileSync, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tmp.js';
import { git } from '../../helpers/git-repos.js';
import { GitDirWatch, type GitDirWatchOptions } from '../../../main/core/contain/git-dirs.js';
import { gitDirsBelow } from '../../../main/core/contain/protect.js';
import { isInside } from '../../../main/core/base/index.js';

const root = tempDir('knack-git-dirs-fallbacks-');
const watches: GitDirWatch[] = [];
after(() => {
  for (const w of watches) w.close();
});

/** fs.watch as the watch uses it, with a loaded kernel's faults on the folders under this test's root. */
class Kernel {
  /** Events under the root still delivered before the queue overflows and the rest are lost unseen. */
  budget = Infinity;
  /** Every event lost, Knack's mark included (a kernel far behind). */
  deafAll = false;
  /** Watchers whose events are lost (one that failed). */
  readonly deaf = new Set<FSWatcher>();
  /** Folders no watch can be added to: the inotify limit reached. */
  readonly full = new Set<string>();
  /** The watcher of each folder under the root, the last one made; and those not closed yet. */
  readonly watchers = new Map<string, FSWatcher>();
  /** What each folder's watcher tells the watch: an event can be given to it by hand. */
  readonly listeners = new Map<string, (event: string, name: string | null) => void>();
  readonly open = new Set<FSWatcher>();
  /** The watchers of Knack's mark folders, in the order made. */
  readonly marks: FSWatcher[] = [];
  lost = 0;

  readonly watch: NonNullable<GitDirWatchOptions['watch']> = (dir, listener) => {
    const ours = isInside(dir, root);
    if (ours && this.full.has(dir))
      throw Object.assign(new Error(`ENOSPC: System limit for number of file watchers reached, watch '${dir}'`), {
        code: 'ENOSPC',
      });
    const w: FSWatcher = watch(dir, { persistent: false }, (event, name) => {
      if (this.deafAll || this.deaf.has(w) || (ours && this.budget <= 0)) {
        this.lost++;
        return;
      }
      if (ours) this.budget--;
      listener(event, name);
    });
    if (ours) {
      this.watchers.set(dir, w);
      this.listeners.set(dir, listener);
      this.open.add(w);
      w.on('close', () => this.open.delete(w));
    } else this.marks.push(w);
    return w;
  };
}

/** A workspace under the root with the folders `p` and `q`, and its watch, started and read once (nothing found). */
async function opened(name: string, kernel: Kernel, options: GitDirWatchOptions = {}) {
  const ws = join(root, name);
  mkdirSync(join(ws, 'p'), { recursive: true });
  mkdirSync(join(ws, 'q'));
  const w = new GitDirWatch([ws], { watch: kernel.watch, ...options });
  watches.push(w);
  w.start();
  assert.deepEqual(await w.current(), new Map());
  return { ws, w };
}

/**
 * A repository made in `dir` (then `meanwhile` run); the git dirs read now must be those a walk finds, this one among
 * them.
 */
async function foundAfterInit(w: GitDirWatch, ws: string, dir: string, what: string, meanwhile = () => {}) {
  mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q');
  meanwhile();
  const read = await w.current();
  assert.ok(read.has(join(dir, '.git')), `${what}: ${join(dir, '.git')} not among ${[...read.keys()].join(', ')}`);
  assert.deepEqual(read, gitDirsBelow([ws]), what);
}

test('more events between two reads than half the kernel queue: the read walks and finds the unheard repository', async () => {
  const kernel = new Kernel();
  const { ws, w } = await opened('overflow', kernel, { queueLimit: 16 });
  kernel.budget = 16; // the queue holds 16 events; what comes after is lost, and nothing says so
  for (let i = 0; i < 40; i++) writeFileSync(join(ws, `f${i}`), 'x');
  await foundAfterInit(w, ws, join(ws, 'p'), 'after an overflow');
  assert.ok(kernel.lost > 0, 'events were lost');
  // Watched afresh: with the queue kept, the next repository is heard.
  kernel.budget = Infinity;
  await foundAfterInit(w, ws, join(ws, 'q/r'), 'after the watch started again');
});

test('the mark not heard in time: the read walks and finds the unheard repository', async () => {
  const kernel = new Kernel();
  const { ws, w } = await opened('mark', kernel, { markWaitMs: 200 });
  kernel.deafAll = true;
  await foundAfterInit(w, ws, join(ws, 'p'), 'with the mark unheard');
  await foundAfterInit(w, ws, join(ws, 'q'), 'with the mark still unheard');
  kernel.deafAll = false;
  await foundAfterInit(w, ws, join(ws, 'q/s'), 'with the mark heard again');
});

test('no inotify watch can be added (ENOSPC): every read walks, and no watch is left open', async () => {
  const kernel = new Kernel();
  const ws = join(root, 'enospc');
  mkdirSync(join(ws, 'p'), { recursive: true });
  mkdirSync(join(ws, 'q'));
  kernel.full.add(join(ws, 'p'));
  const w = new GitDirWatch([ws], { watch: kernel.watch });
  watches.push(w);
  w.start();
  assert.ok(kernel.watchers.size > 0, 'some folders were watched before the limit was reached');
  await foundAfterInit(w, ws, join(ws, 'p'), 'in the folder that could not be watched');
  await foundAfterInit(w, ws, join(ws, 'q'), 'in a folder watched before the limit was reached');
  await foundAfterInit(w, ws, join(ws, 'n/m'), 'in a folder made later');
  await new Promise((r) => setImmediate(r)); // a watcher's 'close' comes on a later tick
  assert.equal(kernel.open.size, 0, 'the watches made before the limit are closed');
});

test("a watcher's error: the read walks and finds the repository its folder's watcher did not hear", async () => {
  const kernel = new Kernel();
  const { ws, w } = await opened('error', kernel);
  const failed = kernel.watchers.get(join(ws, 'p'));
  assert.ok(failed);
  kernel.deaf.add(failed); // a watcher that fails hears nothing more
  failed.emit('error', Object.assign(new Error(`EIO: i/o error, watch '${join(ws, 'p')}'`), { code: 'EIO' }));
  await foundAfterInit(w, ws, join(ws, 'p'), 'after the error');
  assert.ok(!kernel.open.has(failed), 'the failed watcher is closed');
  await foundAfterInit(w, ws, join(ws, 'p/t'), 'after the watch started again');
});

test('an event without a name: the watch starts afresh and finds what its folder did not report', async () => {
  const kernel = new Kernel();
  const { ws, w } = await opened('nameless', kernel);
  const p = join(ws, 'p');
  const watcher = kernel.watchers.get(p);
  assert.ok(watcher);
  kernel.deaf.add(watcher); // the repository's own events are not reported, only an event that names nothing
  await foundAfterInit(w, ws, p, 'after an event without a name', () => kernel.listeners.get(p)?.('rename', null));
});

test('a root missing at the walk and made later: the read walks it', async () => {
  const kernel = new Kernel();
  const ws = join(root, 'late');
  const w = new GitDirWatch([ws], { watch: kernel.watch });
  watches.push(w);
  w.start();
  assert.deepEqual(await w.current(), new Map());
  await foundAfterInit(w, ws, join(ws, 'deep/r'), 'in a root made after the walk');
});

test('a root swapped for another folder, its own events lost: the read walks the new one', async () => {
  const kernel = new Kernel();
  const { ws, w } = await opened('swapped', kernel);
  const rootWatcher = kernel.watchers.get(ws);
  assert.ok(rootWatcher);
  kernel.deaf.add(rootWatcher);
  renameSync(ws, `${ws}-old`); // the old folder keeps its inode: the new one is another
  mkdirSync(join(ws, 'p'), { recursive: true });
  await foundAfterInit(w, ws, join(ws, 'p'), 'in the new root');
});

test("the mark's watcher fails: the read walks, and the next mark is heard by a new watcher", async () => {
  const kernel = new Kernel();
  // A mark unheard waits this long before the read walks: without a new watcher, every read after the failure would.
  const { ws, w } = await opened('mark-error', kernel, { markWaitMs: 60_000 });
  const failed = kernel.marks.at(-1);
  assert.ok(failed);
  kernel.deaf.add(failed);
  failed.emit('error', Object.assign(new Error('EIO: i/o error, watch'), { code: 'EIO' }));
  await foundAfterInit(w, ws, join(ws, 'p'), 'after the mark watcher failed');
  assert.equal(kernel.marks.length, 2, 'the mark is watched afresh');
  await foundAfterInit(w, ws, join(ws, 'q'), 'heard through the new mark watcher');
  assert.equal(kernel.marks.length, 2, 'the new mark watcher keeps hearing');
});
