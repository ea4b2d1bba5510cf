// kill -9 of Knack: the sandbox runtime's host-side socat bridges die with it (knack-socat starts them under
// `setpriv --pdeathsig KILL`) instead of living on under pid 1. Only the killed child's own bridges are looked at:
// other programs on the machine run the same runtime, with the same socket names.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { tempDir } from '../../helpers/tmp.js';
import { describeWall } from '../../../main/core/contain/status.js';

const child = join(import.meta.dirname, '..', '..', 'helpers', 'wall-child.ts');

/** `pid`'s children (every thread's) whose command line listens on a sandbox runtime socket, with that socket. */
function bridgesOf(pid: number): { pid: number; socket: string }[] {
  const out: { pid: number; socket: string }[] = [];
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    let children = '';
    try {
      children = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8');
    } catch {
      continue;
    }
    for (const c of children.split(/\s+/).filter(Boolean).map(Number)) {
      const socket = /UNIX-LISTEN:([^,\0]+\.sock),/.exec(cmdline(c))?.[1];
      if (socket) out.push({ pid: c, socket });
    }
  }
  return out;
}

/** A process's command line; empty once it is gone or a zombie. */
function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
}

test('kill -9 of Knack: none of its sandbox bridges (socat) is left after 2 s', async (t) => {
  if (process.platform !== 'linux') return t.skip('the socat bridges exist on Linux only');
  const root = tempDir('knack-bridges-');
  const [home, dataDir, workspace] = ['home', 'data', 'ws'].map((d) => join(root, d)) as [string, string, string];
  for (const d of [home, dataDir, workspace]) mkdirSync(d, { recursive: true });
  const p = spawn(process.execPath, ['--import', 'tsx', child, home, dataDir, workspace], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  p.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const ready = await new Promise<string>((resolve, reject) => {
    p.once('exit', (code) => reject(new Error(`child exited early (${code}): ${stderr}`)));
    createInterface({ input: p.stdout! }).on('line', (l) => l.startsWith('READY ') && resolve(l));
  });
  p.removeAllListeners('exit');
  const bridges = bridgesOf(p.pid!);
  const exited = new Promise((r) => p.once('exit', r));
  p.kill('SIGKILL');
  await exited;
  assert.match(ready, /^READY true/, ready);
  assert.ok(bridges.length >= 1, `the child started no socat bridge: ${stderr}`);
  const left = (): number[] =>
    bridges.filter(({ pid, socket }) => cmdline(pid).includes(`UNIX-LISTEN:${socket},`)).map((b) => b.pid);
  // A bounded poll for the kernel's kill to land (no timing assertion), then the test's own clean-up of any leftover.
  const end = Date.now() + 2000;
  while (left().length && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
  const leftover = left();
  for (const pid of leftover) process.kill(pid, 'SIGKILL');
  assert.deepEqual(leftover, [], 'bridges outlived the killed child');
});

test("the wall's status line carries its note (a bridge that may outlive Knack)", () => {
  const line = describeWall({
    available: true,
    backend: 'bubblewrap',
    reason: '',
    hint: '',
    mode: 'auto',
    note: 'setpriv --pdeathsig did not run (x): bridges may outlive Knack',
  });
  assert.match(line, /^sandbox: bubblewrap, on \(mode auto\); note: setpriv --pdeathsig did not run/);
});
