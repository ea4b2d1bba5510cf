// On a loaded machine socat can take longer to start than the sandbox runtime waits for its bridges (0.6 s): the wall
// tries again instead of staying unavailable for the session. Here socat is slow on its first start only.
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
const first = join(root, 'first-start');
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

test('bridges slow to start on the first try: the wall tries again and runs commands inside', async () => {
  wall = await Wall.open({ workspace: ws, home: join(root, 'home'), dataDir: join(root, 'data') }, 'auto');
  assert.ok(existsSync(first), 'the slow socat ran');
  assert.equal(wall.status().available, true, JSON.stringify(wall.status()));
  const r = await runContained(wall, 'echo inside', ws, { timeoutMs: 20_000, hosts: [] });
  assert.equal(r.stdout, 'inside\n');
});
