// A sandboxed command that plants a project skill (.workbuddy/skills/x/SKILL.md, missing when it started) and keeps
// running: what it made is on disk until the sweep at its end moves it aside, and meanwhile the catalog — refreshed by
// hand or by its watcher — never lists it. Afterwards it stays unlisted (moved aside); a skill the user had before the
// command is listed throughout.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tmp.js';
import { openWorkspace } from '../../../main/core/workspace.js';
import { resolvePaths } from '../../../main/core/config/paths.js';

const skip = process.platform !== 'linux';
const SKILL = (name: string) => `---\nname: ${name}\ndescription: ${name} does things\n---\nbody\n`;

test('a skill planted by a running command is never listed, during or after', { skip }, async () => {
  const home = tempDir('knack-planted-');
  const ws = join(home, 'ws');
  mkdirSync(ws, { recursive: true });
  // A user skill in the user tier (outside the workspace, not guarded): listed all along.
  mkdirSync(join(home, '.workbuddy', 'skills', 'mine'), { recursive: true });
  writeFileSync(join(home, '.workbuddy', 'skills', 'mine', 'SKILL.md'), SKILL('mine'));
  const paths = resolvePaths({ home, dataDir: join(home, '.knack') });
  const opened = await openWorkspace({ paths, workspace: ws, watch: true, audit: false });
  try {
    const names = () => opened.catalog.entries().map((e) => e.manifest.name);
    /** The user's skill is listed, the planted one is not. */
    const check = () => {
      assert.ok(names().includes('mine'), JSON.stringify(names()));
      assert.ok(!names().includes('evil'), JSON.stringify(names()));
    };
    check();
    const wall = await opened.wall();
    assert.equal(wall.available, true, wall.status().reason);
    const plant =
      `mkdir -p .workbuddy/skills/evil && printf '%b' '${SKILL('evil').replace(/\n/g, '\\n')}' > .workbuddy/skills/evil/SKILL.md` +
      ' && echo go >&2 && sleep 3';
    const p = await wall.spawn(plant, { cwd: ws });
    let stderr = '';
    p.child.stderr!.on('data', (b: Buffer) => (stderr += b));
    p.child.stdout!.resume();
    const closed = new Promise<number | null>((r) => p.child.once('close', r));
    while (!stderr.includes('go') && p.child.exitCode === null) await new Promise((r) => setTimeout(r, 50));
    // Planted, on disk, while the command still runs: the catalog (refreshed now, and by its watcher) leaves it out.
    assert.equal(existsSync(join(ws, '.workbuddy', 'skills', 'evil', 'SKILL.md')), true, stderr);
    const seen: string[][] = [];
    opened.catalog.on('change', () => seen.push(names()));
    await opened.catalog.refresh();
    check();
    await new Promise((r) => setTimeout(r, 1000));
    await opened.catalog.refresh();
    check();
    assert.equal(await closed, 0, stderr);
    const blocked = await p.finish(stderr);
    assert.ok(
      blocked.some((b) => b.kind === 'write' && b.target === join(ws, '.workbuddy')),
      JSON.stringify(blocked),
    );
    // Afterwards: moved aside, kept, and still not listed.
    assert.equal(existsSync(join(ws, '.workbuddy')), false);
    assert.ok(readdirSync(ws).some((n) => n.startsWith('.workbuddy.blocked-')));
    await opened.catalog.refresh();
    check();
    for (const s of seen) assert.ok(!s.includes('evil'), JSON.stringify(seen));
  } finally {
    await opened.close();
  }
});
