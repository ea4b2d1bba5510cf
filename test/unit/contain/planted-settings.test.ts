// A sandboxed command that plants a workspace settings file (.workbuddy/settings.json, missing when it started) and
// keeps running: the settings watcher hears it, and the settings it applies never include it — the ceiling neither
// widens (network on, `/` as a root) nor narrows (one tool), and no warning names the file — during the command or
// after it, when the sweep has moved it aside. The gate plays no part: the command is spawned in the wall directly.
// No timing: the command waits for a file the test makes, and each reload is one the test causes and waits for.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { serviceEnv } from '../../helpers/service-env.js';

const skip = process.platform !== 'linux';
const PLANTED = { policy: { ceiling: { network: true, writeRoots: ['/'], readRoots: ['/'], tools: ['list_dir'] } } };

test(
  'a settings file planted by a running command is never read, during or after',
  { skip, timeout: 120_000 },
  async (t) => {
    const s = await serviceEnv(t);
    const ws = s.service.workspace!;
    const wall = await ws.wall();
    assert.equal(wall.available, true, wall.status().reason);
    const user = join(s.paths.dataDir, 'settings.json');
    let stall = 90;
    /** An edit of the user's own file (a key that is not the ceiling): the watcher reloads every settings file. */
    const reload = async () => {
      const heard = s.next('workspace.changed');
      writeFileSync(`${user}.swp`, JSON.stringify({ agent: { stallSeconds: ++stall } }));
      renameSync(`${user}.swp`, user);
      await heard;
      return s.call('settings.get', {});
    };
    const before = await reload();
    assert.equal(before.ceiling.network, false);

    const plant =
      `mkdir -p .workbuddy && printf '%s' '${JSON.stringify(PLANTED)}' > .workbuddy/settings.json && echo planted >&2` +
      ' && while [ ! -e release ]; do sleep 0.1; done';
    const p = await wall.spawn(plant, { cwd: s.ws });
    // A failing assertion must not leave the command waiting (once passed, the folder may be gone already).
    t.after(() => {
      if (existsSync(s.ws)) writeFileSync(join(s.ws, 'release'), '');
    });
    let stderr = '';
    p.child.stderr!.on('data', (b: Buffer) => (stderr += b));
    p.child.stdout!.resume();
    const closed = new Promise<number | null>((r) => p.child.once('close', r));
    while (!stderr.includes('planted') && p.child.exitCode === null) await new Promise((r) => setTimeout(r, 50));
    assert.equal(existsSync(join(s.ws, '.workbuddy', 'settings.json')), true, stderr);

    // While it runs: the file is on disk, the watcher hears it and a reload follows; none of it applies.
    const during = await reload();
    assert.deepEqual(during.ceiling, before.ceiling);
    const lines = [...during.warnings, ...(during.problems ?? []).map((d) => d.file)];
    assert.ok(!lines.some((w) => w.includes('.workbuddy')), JSON.stringify(lines));
    assert.deepEqual(await ws.reloadCeiling(), []);
    assert.deepEqual(ws.settings.policy.ceiling, before.ceiling);

    writeFileSync(join(s.ws, 'release'), '');
    assert.equal(await closed, 0, stderr);
    const blocked = await p.finish(stderr);
    assert.ok(
      blocked.some((b) => b.kind === 'write' && b.target === join(s.ws, '.workbuddy')),
      JSON.stringify(blocked),
    );
    // After: moved aside, kept, and still never applied.
    assert.equal(existsSync(join(s.ws, '.workbuddy')), false);
    assert.ok(readdirSync(s.ws).some((n) => n.startsWith('.workbuddy.blocked-')));
    const afterwards = await reload();
    assert.deepEqual(afterwards.ceiling, before.ceiling);
    assert.ok(!afterwards.warnings.some((w) => w.includes('.workbuddy')), JSON.stringify(afterwards.warnings));
  },
);
