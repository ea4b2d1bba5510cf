import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import {
  endLeftoverGroup,
  groupRecord,
  liveMembers,
  type ProcessGroupRecord,
} from '../../../main/core/tools/process-group.js';
import { runBash } from '../../../main/core/tools/builtin/bash.js';
import { tempDir } from '../../helpers/tmp.js';

// Ending a recorded process group after a crash never reaches a process that is not the call's: not while the Knack
// that started it runs, and not when the group's number now belongs to another process.

function sleeper(): number {
  const c = spawn('sleep', ['60'], { detached: true, stdio: 'ignore' });
  c.unref();
  return c.pid!;
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

test('a group whose Knack still runs is not left over: nothing is ended', (t) => {
  const pid = sleeper();
  t.after(() => process.kill(-pid, 'SIGKILL'));
  const g = groupRecord(pid);
  assert.equal(g.owner?.pid, process.pid);
  assert.deepEqual(liveMembers(g), []);
  assert.equal(endLeftoverGroup(g), 0);
  assert.ok(alive(pid));
});

test('a recorded leader with another start time is a reused pid: nothing is ended', (t) => {
  const pid = sleeper();
  t.after(() => process.kill(-pid, 'SIGKILL'));
  const g = { ...groupRecord(pid), owner: undefined, start: groupRecord(pid).start! - 1 };
  assert.equal(endLeftoverGroup(g), 0);
  assert.ok(alive(pid));
});

test('a group left by a Knack that is gone is ended', async () => {
  const pid = sleeper();
  // The owner recorded is a process that no longer runs (start time of another life of this pid).
  const g = { ...groupRecord(pid), owner: { pid: process.pid, start: -1 } };
  assert.deepEqual(liveMembers(g), [pid]);
  assert.equal(endLeftoverGroup(g), 1);
  assert.deepEqual(liveMembers(g), []);
});

test('bash on the host: what a command leaves in the background ends with it, and its exit status is its own', async () => {
  const dir = tempDir();
  let rec: ProcessGroupRecord | undefined;
  const r = await runBash('sleep 60 & echo started; exit 7', dir, {
    timeoutMs: 30_000,
    onProcess: (g) => (rec = g),
  });
  assert.equal(r.exitCode, 7);
  assert.equal(r.stdout, 'started\n');
  const left = { ...rec!, owner: undefined }; // as if this Knack were gone: any member counts
  for (let i = 0; i < 40 && liveMembers(left).length; i++) await new Promise((res) => setTimeout(res, 50));
  assert.deepEqual(liveMembers(left), []);
  const killed = await runBash('kill -TERM $$', dir, { timeoutMs: 30_000 });
  assert.equal(killed.signal, 'SIGTERM');
});
