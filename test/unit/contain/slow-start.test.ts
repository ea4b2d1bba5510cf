// On a loaded machine `which` can take longer than the runtime's 1 s limit (a program then reads as not installed),
// and socat longer to start than the runtime waits for its bridges (0.6 s): the wall asks again instead of staying
// unavailable for the session. Here both are slow the first time only.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { tempDir } from '../../helpers/tmp.js';
import { Wall } from '../../../main/core/contain/wall.js';
import { runContained } from '../../../main/core/tools/builtin/bash.js';

const root = tempDir('knack-slow-bridges-');
const ws = join(root, 'ws');
const bin = join(root, 'bin');
mkdirSync(ws, { recursive: true });
mkdirSync(bin, { recursive: true });
const real = execFileSync('which', ['socat'], { encoding: 'utf8' }).trim();
const realWhich = execFileSync('which', ['which'], { encoding: 'utf8' }).trim();
const first = join(root, 'first-start');
const firstWhich = join(root, 'first-which');
// Knack finds bubblewrap and socat itself; the runtime still looks its file scanner up with `which` (by the path
// Knack found) as it starts: this which takes 1.5 s the first time, whatever it is asked.
writeFileSync(
  join(bin, 'which'),
  `#!/bin/sh\nif mkdir ${JSON.stringify(firstWhich)} 2>/dev/null; then sleep 1.5; fi\nexec ${JSON.stringify(realWhich)} "$@"\n`,
);
chmodSync(join(bin, 'which'), 0o755);
// knack-socat runs `socat` from PATH: this one sleeps 1.5 s the first time it is started as a bridge (a listener on a
// Unix socket; the two bridges start at once, and a probe runs `socat -V` before).
writeFileSync(
  join(bin, 'socat'),
  '#!/bin/sh\ncase "$*" in *UNIX-LISTEN*) ' +
    `if mkdir ${JSON.stringify(first)} 2>/dev/null; then sleep 1.5; fi;; esac\nexec ${JSON.stringify(real)} "$@"\n`,
);
chmodSync(join(bin, 'socat'), 0o755);
process.env.PATH = `${bin}:${process.env.PATH}`;

let wall: Wall | undefined;
after(async () => {
  await wall?.close();
});

test('which and the bridges slow on the first try: the wall asks again and runs commands inside', async () => {
  wall = await Wall.open({ workspace: ws, home: join(root, 'home'), dataDir: join(root, 'data') }, 'auto');
  assert.ok(existsSync(firstWhich), 'the slow which ran');
  assert.ok(existsSync(first), 'the slow socat ran');
  assert.equal(wall.status().available, true, JSON.stringify(wall.status()));
  const r = await runContained(wall, 'echo inside', ws, { timeoutMs: 20_000, hosts: [] });
  assert.equal(r.stdout, 'inside\n');
});
