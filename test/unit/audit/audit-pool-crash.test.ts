// A crashed audit worker never leaves skills checking forever: the pool replaces it and sends its folders again (each
// alone), a folder that kills a worker twice fails closed (refused, never audited in the opening thread), and workers
// that cannot start at all let the review fall back to auditing in its own thread.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir, writeTree, skillMd } from '../../helpers/tmp.js';
import { AuditCrashError, AuditPool } from '../../../main/core/skills/trust/audit-pool.js';
import { auditSkill } from '../../../main/core/skills/trust/audit.js';
import { createTrustReview } from '../../../main/core/skills/trust/trust.js';
import { openCatalog } from '../../../main/core/skills/catalog/catalog.js';
import { resolvePaths } from '../../../main/core/config/paths.js';
import { Store } from '../../../main/core/store/index.js';

const crashing = { from: import.meta.url, name: 'crashing-audit-worker' };
const broken = { from: import.meta.url, name: 'broken-audit-worker' };

function skills(root: string, names: string[]): string[] {
  const files: Record<string, string> = {};
  for (const n of names)
    files[`${n}/SKILL.md`] = skillMd({ name: n, description: `The ${n} skill` }, '# Steps\n\nDo it well.\n');
  writeTree(root, files);
  return names.map((n) => join(root, n));
}

/** A repository holding `names` as project skills, a store, and a review whose audits go to `pool`; open() opens its catalog until every verdict is in. */
function repoWith(
  root: string,
  names: string[],
  pool: AuditPool,
): {
  store: Store;
  review: ReturnType<typeof createTrustReview>;
  open: () => Promise<Awaited<ReturnType<typeof openCatalog>>>;
} {
  const ws = join(root, 'repo');
  const home = join(root, 'home');
  mkdirSync(home, { recursive: true });
  skills(join(ws, '.workbuddy', 'skills'), names);
  const paths = resolvePaths({ home, dataDir: join(root, 'data'), builtinSkillsDir: join(root, 'builtin') });
  const store = Store.openIn(join(root, 'data'));
  const review = createTrustReview(store, { background: { minBatch: 1, pool } });
  const open = async (): Promise<Awaited<ReturnType<typeof openCatalog>>> => {
    const catalog = await openCatalog({ paths, workspace: ws, store, review });
    await catalog.settled();
    return catalog;
  };
  return { store, review, open };
}

const HOW = {
  'crash-exit': 'exits without an error event',
  'crash-throw': 'throws',
  hang: 'hangs, and is ended when silent past its deadline',
} as const;
for (const kind of ['crash-exit', 'crash-throw', 'hang'] as const) {
  test(`a worker that dies (${HOW[kind]}) is replaced: the other folders of its batch are audited, the culprit fails after a second death`, async () => {
    const root = tempDir();
    const names = Array.from({ length: 12 }, (_, i) => (i === 5 ? `${kind}-5` : `skill-${i}`));
    const dirs = skills(root, names);
    const pool = new AuditPool(2, { entry: crashing, silenceMs: kind === 'hang' ? 500 : 60_000 });
    // Without the hang deadline the audits would never settle: closing the pool (which ends its workers) fails them.
    const guard = setTimeout(() => void pool.close(), 20_000);
    try {
      const settled = await Promise.allSettled(dirs.map((d) => pool.audit(d)));
      clearTimeout(guard);
      for (let i = 0; i < dirs.length; i++) {
        const r = settled[i]!;
        if (i === 5) {
          assert.equal(r.status, 'rejected');
          assert.ok(
            (r as PromiseRejectedResult).reason instanceof AuditCrashError,
            String((r as PromiseRejectedResult).reason),
          );
          assert.match((r as PromiseRejectedResult).reason.message, /died auditing this folder twice/);
        } else {
          assert.equal(r.status, 'fulfilled', `${names[i]}: ${String((r as PromiseRejectedResult).reason)}`);
          assert.equal(
            (r as PromiseFulfilledResult<{ report: { contentHash: string } }>).value.report.contentHash,
            auditSkill(dirs[i]!).contentHash,
          );
        }
      }
      assert.equal(pool.pending, 0, 'no job is left waiting on a dead worker');
      // The pool still works: dead workers were replaced.
      const more = skills(join(root, 'more'), ['after-1', 'after-2', 'after-3']);
      const after = await Promise.all(more.map((d) => pool.audit(d)));
      assert.deepEqual(
        after.map((r) => r.report.level),
        ['P2', 'P2', 'P2'],
      );
      assert.ok(pool.workers >= 1 && pool.workers <= 2);
    } finally {
      await pool.close();
    }
  });
}

test('workers that cannot start fail their jobs (no hang), and the review audits those folders in this thread instead', async () => {
  const root = tempDir();
  const dirs = skills(root, ['one', 'two', 'three']);
  const pool = new AuditPool(2, { entry: broken });
  try {
    const settled = await Promise.allSettled(dirs.map((d) => pool.audit(d)));
    for (const r of settled) {
      assert.equal(r.status, 'rejected');
      assert.ok(!((r as PromiseRejectedResult).reason instanceof AuditCrashError));
      assert.match((r as PromiseRejectedResult).reason.message, /cannot start/);
    }
    assert.equal(pool.pending, 0);
  } finally {
    await pool.close();
  }

  const { store, review, open } = repoWith(root, ['alpha', 'beta', 'gamma'], new AuditPool(1, { entry: broken }));
  try {
    const catalog = await open();
    assert.deepEqual(
      catalog.enabled().map((e) => e.manifest.name),
      ['alpha', 'beta', 'gamma'],
      'audited in this thread: benign, enabled',
    );
  } finally {
    await review.close();
    store.close();
  }
});

test('opening a folder with a skill that crashes the audit worker: that skill is refused, every other verdict arrives, nothing stays checking', async () => {
  const root = tempDir();
  const names = [...Array.from({ length: 10 }, (_, i) => `skill-${i}`), 'crash-exit-skill', 'crash-throw-skill'];
  const { store, review, open } = repoWith(root, names, new AuditPool(2, { entry: crashing }));
  try {
    const catalog = await open();
    assert.equal(catalog.checking().length, 0);
    for (const n of ['crash-exit-skill', 'crash-throw-skill']) {
      const e = catalog.entries().find((x) => x.manifest.name === n)!;
      // The folder is benign: had it been audited in this thread it would be enabled. It is held, not trusted.
      assert.equal(auditSkill(e.realDir).level, 'P2');
      assert.deepEqual([e.enabled, e.trust], [false, 'refused'], n);
      assert.match(e.disabledReason ?? '', /could not audit: the audit worker died auditing this folder twice/, n);
      assert.equal(review.reportOf(e), undefined);
    }
    assert.deepEqual(
      catalog
        .enabled()
        .map((e) => e.manifest.name)
        .sort(),
      names.filter((n) => n.startsWith('skill-')).sort(),
    );
    // Refreshing an unchanged folder does not send it to the workers again; it stays refused.
    await catalog.refresh();
    assert.equal(catalog.checking().length, 0);
    assert.equal(catalog.entries().find((x) => x.manifest.name === 'crash-exit-skill')?.trust, 'refused');
  } finally {
    await review.close();
    store.close();
  }
});

test("a pool kept full (the app's, warmed at launch) whose workers cannot start gives up instead of respawning them forever", async () => {
  const pool = new AuditPool(2, { entry: broken });
  try {
    pool.warm();
    // Every worker dies before it loads; after START_FAILURES of them the pool stops refilling itself.
    for (let i = 0; i < 400 && !(pool.started > 0 && pool.workers === 0); i++)
      await new Promise((r) => setTimeout(r, 25));
    assert.equal(pool.workers, 0, `still respawning: ${pool.started} workers started`);
    const started = pool.started;
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(pool.started, started, 'no worker started after giving up');
    assert.ok(started <= 4, `${started} workers started`);
    // Asking again tries again (and fails the job clearly rather than hanging).
    const dir = skills(tempDir(), ['again'])[0]!;
    await assert.rejects(pool.audit(dir), /cannot start/);
  } finally {
    await pool.close();
  }
});

test('a worker that dies while parsing is not blamed on the folders waiting for it: one that then kills a worker once is audited again, not refused', async () => {
  const root = tempDir();
  const [parseKiller, once] = skills(root, ['crash-parse-a', 'crash-once-b']);
  const pool = new AuditPool(1, { entry: crashing });
  try {
    await pool.ready();
    // The folder's audit goes to the worker that parses it, and waits behind that parse, which kills the worker.
    const parsing = pool.parse([join(parseKiller!, 'SKILL.md'), join(once!, 'SKILL.md')]);
    const audited = pool.audit(once!);
    await assert.rejects(parsing);
    // Its own audit then kills a worker once: one death of its own is not two; audited alone again, it passes.
    const r = await audited;
    assert.equal(r.report.contentHash, auditSkill(once!).contentHash);
    assert.equal(pool.pending, 0);
  } finally {
    await pool.close();
  }
});
