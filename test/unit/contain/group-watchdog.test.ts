import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { holdWatchdog, watchedArgv, watchedStdio } from '../../../main/core/contain/group-watchdog.js';

// The group watchdog ends what a call started when Knack lets go of its pipe: the group, and on Linux also a process
// that left the group with setsid (as bwrap's PID-namespace init does) but still carries the call's mark.

function withMarker(needle: string): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(needle)) out.push(Number(name));
    } catch {
      /* gone meanwhile */
    }
  }
  return out;
}

async function leftAfter(what: () => number[], ms = 5000): Promise<number[]> {
  const end = Date.now() + ms;
  let left = what();
  while (left.length && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 50));
    left = what();
  }
  return left;
}

test(
  'a process that left the group with setsid is ended with the group when the pipe closes',
  { skip: process.platform !== 'linux' && 'the mark is read from /proc (Linux)' },
  async () => {
    const m = `knack-escape-${randomBytes(6).toString('hex')}`;
    // One sleep stays in the group, one leaves it (setsid); each is named by its argv[0]. The program itself waits.
    const script = `bash -c 'exec -a ${m}-in sleep 30' & setsid bash -c 'exec -a ${m}-out sleep 30' & wait`;
    const [file, ...args] = watchedArgv('knack-test', ['bash', '-c', script]);
    const child = spawn(file!, args, { detached: true, stdio: watchedStdio(['ignore', 'ignore', 'ignore']) });
    holdWatchdog(child);
    const named = (n: string): number[] => withMarker(`${n}\0`);
    assert.deepEqual(await leftAfter(() => (named(`${m}-in`).length && named(`${m}-out`).length ? [] : [0])), []);
    const out = named(`${m}-out`)[0]!;
    const stat = readFileSync(`/proc/${out}/stat`, 'utf8').slice(
      readFileSync(`/proc/${out}/stat`, 'utf8').lastIndexOf(')') + 2,
    );
    assert.notEqual(Number(stat.split(' ')[2]), child.pid, 'the setsid sleep left the group');
    // As when Knack dies: the kernel closes Knack's end of the pipe, while the program still runs.
    (child.stdio[3] as NodeJS.WritableStream).end();
    const left = await leftAfter(() => withMarker(m));
    const show = left.map((p) => {
      try {
        return `${p}: ${readFileSync(`/proc/${p}/stat`, 'utf8').trim()}`;
      } catch {
        return `${p}: gone`;
      }
    });
    assert.deepEqual(show, [], 'nothing of the call is left');
  },
);
