// How a process group Knack starts dies with Knack, on the host or around the sandbox. Node cannot give a child a
// parent-death signal (prctl PR_SET_PDEATHSIG); `setpriv --pdeathsig` would reach only the first process, and bwrap's
// --die-with-parent is set by bwrap itself, too late for a Knack killed right after the spawn. So the group's leader
// first forks a watchdog into its own group that blocks reading fd 3, a pipe only Knack holds the other end of, then
// becomes the program (exec "$@": its exit code and signal are the program's own). The pipe reaches end-of-file when
// Knack closes it (the program ended: what it left running in the background ends too) or when Knack dies by any
// means, kill -9 included: the kernel closes it, and the watchdog kills the whole group. `kill 0` names the watchdog's
// own group, which exists as long as the watchdog does: no pid reuse can point it elsewhere.
//
// A process that leaves the group (setsid) escapes `kill 0`. bwrap's PID-namespace init is one: it calls setsid and
// only then sets its own parent-death signal, so a bwrap killed between the two leaves the sandbox running. On Linux
// every process of the call therefore carries KNACK_GROUP=<128 random bits> in its environment (as /proc shows it: the
// block it was started with). At end-of-file the watchdog first kills every other process that carries the mark,
// round after round until a round finds none (only a marked process can start another; the namespace ends with its
// init), then the group. Its scans run without the mark. No other process can carry it, so pid reuse cannot point the
// watchdog elsewhere either. A program that drops the mark and leaves the group escapes on the host; inside the
// sandbox the PID namespace holds it.
import type { ChildProcess, StdioOptions } from 'node:child_process';
import type { Writable } from 'node:stream';
import { randomBytes } from 'node:crypto';

const GROUP_WATCHDOG = '{ read -r _ <&3; kill -KILL 0; } </dev/null >/dev/null 2>&1 & exec "$@" 3<&-';

// At most 50 rounds, 0.05 s apart, ending at the first that finds no other marked process. Only " and $ inside.
const MARKED_WATCHDOG =
  'export KNACK_GROUP="$1"; shift; ' +
  '{ read -r _ <&3; me=$BASHPID; for ((i = 0; i < 50; i++)); do ' +
  'p=$(env -u KNACK_GROUP grep -lzxF "KNACK_GROUP=$KNACK_GROUP" /proc/[0-9]*/environ 2>/dev/null); set --; ' +
  'for f in $p; do f=${f#/proc/}; f=${f%/environ}; [ "$f" = "$me" ] || set -- "$@" "$f"; done; ' +
  '[ $# -gt 0 ] || break; kill -KILL "$@"; sleep 0.05; done; kill -KILL 0; } ' +
  '</dev/null >/dev/null 2>&1 & exec "$@" 3<&-';

/** The argv that runs `argv` under the watchdog (`name` is its $0, seen in process listings). */
export function watchedArgv(name: string, argv: readonly string[]): string[] {
  if (process.platform !== 'linux') return ['bash', '-c', GROUP_WATCHDOG, name, ...argv];
  return ['bash', '-c', MARKED_WATCHDOG, name, randomBytes(16).toString('hex'), ...argv];
}

/** `stdio` with fd 3 added as the watchdog's pipe. Not stdin: bash reads ~/.bashrc when its stdin is a socket. */
export function watchedStdio(stdio: StdioOptions): StdioOptions {
  return [...(typeof stdio === 'string' ? [stdio, stdio, stdio] : stdio), 'pipe'];
}

/** Hold the watchdog's pipe until `child` exits (or, by the kernel, until Knack dies). Spawn `detached`. */
export function holdWatchdog(child: ChildProcess): void {
  const pipe = child.stdio[3] as Writable | null | undefined;
  pipe?.on('error', () => undefined);
  child.once('exit', () => pipe?.end());
}
