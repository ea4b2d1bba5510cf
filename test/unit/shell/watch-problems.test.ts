// Skill folders the open workspace cannot watch reach the contract: `workspace.current` carries one warning per kind of
// failure (how many folders, one of them, for ENOSPC the command that raises the limit) in words the window says, a
// later walk that meets more such folders updates it through `workspace.changed`, and the log says each kind once. A
// folder a later walk watches, or that is removed, is not counted any more: the warning counts fewer, then goes.
//
// The failure is injected through the workspace's `watchFolder` option (watchCatalog's `watch`): a real ENOSPC needs
// the machine's fs.inotify.max_user_watches lowered, for every process of the user, tests beside this one included.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync, watch } from 'node:fs';
import { basename, join } from 'node:path';
import { skillMd, writeTree } from '../../helpers/tmp.js';
import { serviceEnv, testWorkspace } from '../../helpers/service-env.js';
import { assertSaid } from '../../helpers/words.js';
import { RAISE_WATCH_LIMIT, WatchProblems } from '../../../main/core/service/watch-problems.js';
import { english } from '../../../preload/words.js';

const skill = (n: string) => skillMd({ name: n, description: `the ${n} skill` });

test('skill folders without a watch are one warning in the contract, said once in the log', async (t) => {
  const logged: string[] = [];
  const failing = new Set(['a', 'b', 'c', 'd']);
  const env = await serviceEnv(t, {
    files: { '.workbuddy/skills/a/SKILL.md': skill('a'), '.workbuddy/skills/b/SKILL.md': skill('b') },
    extra: {
      log: (m) => logged.push(m),
      workspaceOptions: {
        ...testWorkspace,
        watch: true,
        watchFolder: (dir, o) => {
          if (failing.has(basename(dir)))
            throw Object.assign(new Error(`ENOSPC: System limit for number of file watchers reached, watch '${dir}'`), {
              code: 'ENOSPC',
            });
          return watch(dir, o);
        },
      },
    },
  });
  const problems = async () =>
    (await env.call('workspace.current', {}))!.diagnostics.filter((d) => d.code === 'catalog.watch');
  const [first, ...more] = await problems();
  assert.deepEqual(more, []);
  assert.equal(first!.words?.code, 'catalog.unwatchedLimit');
  assert.equal(first!.words?.params?.count, 2);
  assert.equal(first!.words?.params?.command, RAISE_WATCH_LIMIT);
  assert.ok(['a', 'b'].includes(basename(String(first!.words?.params?.folder))), first!.message);
  const zh = assertSaid(first!.words, first!.message);
  assert.match(zh, /max_user_watches/);
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(logged, [first!.message]);

  // Two more skill folders that cannot be watched: the same warning, counting four, and no second log line.
  const changed = env.next('workspace.changed', (p) =>
    p.workspace.diagnostics.some((d) => d.code === 'catalog.watch' && d.words?.params?.count === 4),
  );
  writeTree(env.ws, { '.workbuddy/skills/c/SKILL.md': skill('c'), '.workbuddy/skills/d/SKILL.md': skill('d') });
  await changed;
  assert.equal((await problems()).length, 1);
  assert.equal(logged.length, 1, logged.join('\n'));
});

test(
  'a folder watched on a later walk or removed leaves the warning, which goes with the last one',
  { timeout: 20_000 },
  async (t) => {
    const failing = new Set(['a', 'b']);
    const env = await serviceEnv(t, {
      files: { '.workbuddy/skills/a/SKILL.md': skill('a'), '.workbuddy/skills/b/SKILL.md': skill('b') },
      extra: {
        workspaceOptions: {
          ...testWorkspace,
          watch: true,
          watchFolder: (dir, o) => {
            if (failing.has(basename(dir)))
              throw Object.assign(
                new Error(`ENOSPC: System limit for number of file watchers reached, watch '${dir}'`),
                {
                  code: 'ENOSPC',
                },
              );
            return watch(dir, o);
          },
        },
      },
    });
    const counted = (diagnostics: { code: string; words?: { params?: Record<string, unknown> } }[]) =>
      diagnostics.filter((d) => d.code === 'catalog.watch').map((d) => d.words?.params?.count);
    assert.deepEqual(counted((await env.call('workspace.current', {}))!.diagnostics), [2]);

    // A watch is left again: the walk after the next change watches `a`, and the window hears one folder.
    failing.delete('a');
    let changed = env.next('workspace.changed', (p) => counted(p.workspace.diagnostics)[0] === 1);
    writeTree(env.ws, { '.workbuddy/skills/c/SKILL.md': skill('c') });
    await changed;
    assert.deepEqual(counted((await env.call('workspace.current', {}))!.diagnostics), [1]);

    // `b` is removed: no folder is left unfollowed, and the warning is gone.
    changed = env.next('workspace.changed', (p) => counted(p.workspace.diagnostics).length === 0);
    rmSync(join(env.ws, '.workbuddy/skills/b'), { recursive: true });
    await changed;
    assert.deepEqual(counted((await env.call('workspace.current', {}))!.diagnostics), []);
  },
);

test(
  'a folder that could not be watched is tried again by itself: the warning goes with no file event',
  { timeout: 30_000 },
  async (t) => {
    let tries = 0;
    const env = await serviceEnv(t, {
      files: { '.workbuddy/skills/a/SKILL.md': skill('a') },
      extra: {
        workspaceOptions: {
          ...testWorkspace,
          watch: true,
          // No watch left for `a` at the first try only (the limit raised, or other watches closed, since).
          watchFolder: (dir, o) => {
            if (basename(dir) === 'a' && ++tries === 1)
              throw Object.assign(new Error(`ENOSPC: System limit for number of file watchers reached`), {
                code: 'ENOSPC',
              });
            return watch(dir, o);
          },
        },
      },
    });
    const watchWarnings = async () =>
      (await env.call('workspace.current', {}))!.diagnostics.filter((d) => d.code === 'catalog.watch');
    assert.equal((await watchWarnings()).length, 1);
    // The product's own retry delay (5 s): nothing is written, and the warning still goes.
    await env.next('workspace.changed', (p) => !p.workspace.diagnostics.some((d) => d.code === 'catalog.watch'));
    assert.deepEqual(await watchWarnings(), []);
    assert.equal(tries, 2);
  },
);

test('a folder that still fails when tried again, or the same refresh failure, tells the window nothing new', async () => {
  let told = 0;
  const p = new WatchProblems(() => told++);
  const turn = () => new Promise((r) => setImmediate(r));
  const enospc = Object.assign(new Error('ENOSPC: System limit for number of file watchers reached'), {
    code: 'ENOSPC',
  });
  p.add(enospc, '/skills/a');
  await turn();
  p.add(enospc, '/skills/a');
  await turn();
  assert.equal(told, 1);
  p.add(new Error('database is locked'));
  await turn();
  p.add(new Error('database is locked'));
  await turn();
  assert.equal(told, 2);
  p.close();
});

test(
  'a hot reload that failed is one warning with the latest error, gone once a later refresh succeeds',
  { timeout: 20_000 },
  async (t) => {
    const env = await serviceEnv(t, {
      files: { '.workbuddy/skills/a/SKILL.md': skill('a') },
      extra: { workspaceOptions: { ...testWorkspace, watch: true } },
    });
    // The catalog's refreshes fail while `failing` holds an error (a disk that went away, a store that stopped
    // answering), as FailingCatalog does in held-on-failure.test.ts.
    const catalog = env.service.workspace!.catalog;
    const refresh = catalog.refresh.bind(catalog);
    let failing: Error | undefined;
    catalog.refresh = () => (failing ? Promise.reject(failing) : refresh());
    const refreshFailed = (
      diagnostics: { code: string; words?: { code: string; params?: Record<string, unknown> } }[],
    ) =>
      diagnostics
        .filter((d) => d.code === 'catalog.watch' && d.words?.code === 'catalog.refreshFailed')
        .map((d) => d.words?.params?.error);

    failing = new Error('the disk went away');
    let changed = env.next('workspace.changed', (p) => refreshFailed(p.workspace.diagnostics).length > 0);
    writeTree(env.ws, { '.workbuddy/skills/b/SKILL.md': skill('b') });
    assert.deepEqual(refreshFailed((await changed).workspace.diagnostics), ['the disk went away']);

    // A second failure replaces the first: one warning, saying the error of now.
    failing = new Error('database is locked');
    changed = env.next('workspace.changed', (p) =>
      refreshFailed(p.workspace.diagnostics).includes('database is locked'),
    );
    writeTree(env.ws, { '.workbuddy/skills/c/SKILL.md': skill('c') });
    assert.deepEqual(refreshFailed((await changed).workspace.diagnostics), ['database is locked']);

    // The next refresh succeeds: the skill list is current again, and the warning goes without a Reload.
    failing = undefined;
    changed = env.next('workspace.changed', (p) => refreshFailed(p.workspace.diagnostics).length === 0);
    writeTree(env.ws, { '.workbuddy/skills/d/SKILL.md': skill('d') });
    await changed;
    assert.deepEqual(refreshFailed((await env.call('workspace.current', {}))!.diagnostics), []);
    assert.ok(catalog.get('d'), 'the skills written meanwhile are listed');
  },
);

test('a hot reload whose refresh fails is a warning too, and any other watch error names its code', () => {
  const told: string[][] = [];
  const p = new WatchProblems((fresh) => told.push(fresh.map((d) => d.message)));
  p.add(new Error('database is locked'));
  p.add(Object.assign(new Error('EMFILE: too many open files'), { code: 'EMFILE' }), '/skills/a');
  const [refresh, emfile] = p.diagnostics();
  assert.equal(refresh!.words?.code, 'catalog.refreshFailed');
  assertSaid(refresh!.words, refresh!.message);
  assert.match(refresh!.message, /database is locked/);
  assert.equal(emfile!.words?.code, 'catalog.unwatched');
  assert.equal(emfile!.message, english(emfile!.words!));
  assert.match(emfile!.message, /1 folder\(s\), \/skills\/a among them \(EMFILE\)/);
  p.close();
});

test('a folder or error with a line break or a bidi control stays one visible line in the warning and the log', () => {
  const p = new WatchProblems(() => {});
  const folder = '/skills/evil\nknack: all skills watched\u202e';
  p.add(Object.assign(new Error(`EMFILE: too many open files, watch '${folder}'`), { code: 'EMFILE' }), folder);
  p.add(new Error('refresh failed\nknack: fine'));
  for (const d of p.diagnostics()) {
    assert.doesNotMatch(d.message, /[\n\u202e]/, d.message);
    for (const v of Object.values(d.words?.params ?? {})) assert.doesNotMatch(String(v), /[\n\u202e]/, String(v));
  }
  p.close();
});
