// The JavaScript file walk behind grep and glob stops at a cap (100,000 files by default): when it does, the result
// the model sees and the process's log say the results are partial and name the cap; a tree within the cap says nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tempDir, writeTree } from '../../helpers/tmp.js';
import { grepFiles } from '../../../main/core/tools/builtin/grep.js';
import { globFiles } from '../../../main/core/tools/builtin/glob.js';
import { WALK_MAX_FILES } from '../../../main/core/tools/builtin/walk.js';
import type { ToolContext } from '../../../main/core/tools/index.js';

function tree(): string {
  const ws = tempDir('knack-walk-cap-');
  writeTree(ws, {
    'a.txt': 'needle 1\n',
    'b.txt': 'needle 2\n',
    'c/d.txt': 'needle 3\n',
    'c/e.txt': 'needle 4\n',
    'f.txt': 'needle 5\n',
  });
  return ws;
}

/** Warnings emitted while `fn` runs (the log: stderr for the CLI and serve). */
async function warningsOf<T>(fn: () => Promise<T>): Promise<{ value: T; warnings: Error[] }> {
  const warnings: Error[] = [];
  const on = (w: Error) => warnings.push(w);
  process.on('warning', on);
  try {
    const value = await fn();
    // 'warning' is emitted on the next tick.
    await new Promise((r) => setImmediate(r));
    return { value, warnings };
  } finally {
    process.off('warning', on);
  }
}

const ctxOf = (ws: string): ToolContext => ({ workspace: ws, actor: { kind: 'user' } });

test('grep (JavaScript engine) past the walk cap says the results are partial, in its result and the log', async () => {
  const ws = tree();
  const { value: r, warnings } = await warningsOf(() =>
    grepFiles({ pattern: 'needle' }, ctxOf(ws), undefined, { engine: 'javascript', maxFiles: 3 }),
  );
  assert.ok(r.ok, JSON.stringify(r));
  const c = r.content as { matches: unknown[]; filesSearched: number; partial?: string };
  assert.equal(c.filesSearched, 3);
  assert.equal(c.matches.length, 3);
  assert.match(c.partial ?? '', /partial/);
  assert.match(c.partial ?? '', /stopped after 3 files/);
  const logged = warnings.filter((w) => (w as { code?: string }).code === 'KNACK_WALK_CAP');
  assert.equal(logged.length, 1);
  assert.match(logged[0]!.message, /^grep: results are partial: the file walk stopped after 3 files/);
});

test('glob past the walk cap says the results are partial, in its result and the log', async () => {
  const ws = tree();
  const { value: r, warnings } = await warningsOf(() => globFiles({ pattern: '**/*.txt' }, ctxOf(ws), { maxFiles: 2 }));
  assert.ok(r.ok, JSON.stringify(r));
  const c = r.content as { files: string[]; partial?: string };
  assert.equal(c.files.length, 2);
  assert.match(c.partial ?? '', /stopped after 2 files .*its cap/);
  assert.equal(warnings.filter((w) => (w as { code?: string }).code === 'KNACK_WALK_CAP').length, 1);
});

test('a tree of exactly the cap, or under it, is whole: no partial note and nothing logged', async () => {
  const ws = tree();
  for (const maxFiles of [5, WALK_MAX_FILES]) {
    const { value: g, warnings } = await warningsOf(() =>
      grepFiles({ pattern: 'needle' }, ctxOf(ws), undefined, { engine: 'javascript', maxFiles }),
    );
    assert.ok(g.ok);
    assert.equal((g.content as { partial?: string }).partial, undefined);
    assert.equal((g.content as { filesSearched: number }).filesSearched, 5);
    const gl = await globFiles({ pattern: '**' }, ctxOf(ws), { maxFiles });
    assert.ok(gl.ok);
    assert.equal((gl.content as { partial?: string }).partial, undefined);
    assert.deepEqual(warnings, []);
  }
});
