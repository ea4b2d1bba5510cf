import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { leftAfter, statOf, withMarker } from '../../helpers/procs.js';
import { holdWatchdog, watchedArgv, watchedStdio } from '../../../main/core/contain/group-watchdog.js';

// The group watchdog ends what a call started when Knack lets go of its pipe: the group, and on Linux also a process
// that left the group with setsid (as bwrap's PID-namespace init does) but still carries the call's mark.

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
    assert.notEqual(Number(statOf(out)?.[2]), child.pid, 'the setsid sleep left the group');
    // As when Knack dies: the kernel closes Knack's end of the pipe, while the program still runs.
    (child.stdio[3] as NodeJS.WritableStream).end();
    const left = await leftAfter(() => withMarker(m), 5000);
    assert.deepEqual(
      left.map((p) => `${p}: ${statOf(p)?.join(' ') ?? 'gone'}`),
      [],
      'nothing of the call is left',
    );
  },
);
