// A command that leaves processes behind inside the wall: started with setsid, with nohup, by a double fork, with its
// environment emptied (so no mark of the call is left on it) and disowned. None of them outlives the call: they live
// in the sandbox's PID namespace, which ends with the command.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { runInWall, wallFolders } from '../../helpers/wall-run.js';
import { leftAfter, withMarker } from '../../helpers/procs.js';
import { Wall } from '../../../main/core/contain/wall.js';

const f = wallFolders('knack-outlive-');
let wall: Wall;

before(async () => {
  wall = await Wall.open({ workspace: f.ws, home: f.home, dataDir: join(f.home, '.local/share/knack') }, 'auto');
});
after(() => wall.close());

test('setsid, nohup, a double fork and an emptied environment: nothing a command starts outlives it', async () => {
  assert.equal(wall.status().available, true, wall.status().reason);
  const m = `knack-outlive-${randomBytes(6).toString('hex')}`;
  const quiet = '</dev/null >/dev/null 2>&1';
  const command = [
    `setsid env -i bash -c 'exec -a ${m}-setsid sleep 60' ${quiet} &`,
    `nohup bash -c 'exec -a ${m}-nohup sleep 60' ${quiet} &`,
    `( ( env -i bash -c 'exec -a ${m}-fork sleep 60' ${quiet} & ) & )`,
    'disown -a',
    // Each has started (its argv[0] is the mark) before the command ends.
    `for i in $(seq 50); do n=0; for p in /proc/[0-9]*/cmdline; do case "$(tr '\\0' ' ' < $p 2>/dev/null)" in ${m}-*) n=$((n+1));; esac; done; [ $n -ge 3 ] && break; sleep 0.1; done; echo "running $n"`,
  ].join('\n');
  const r = await runInWall(wall, f.ws, command);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout.trim(), 'running 3', r.stderr);
  assert.deepEqual(await leftAfter(() => withMarker(`${m}-`), 3000), [], 'a process of the call outlived it');
});
