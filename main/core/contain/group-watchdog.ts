// How a process group Knack starts dies with Knack, on the host or around the sandbox. Node cannot give a child a
// parent-death signal (prctl PR_SET_PDEATHSIG); `setpriv --pdeathsig` would reach only the first process, and bwrap's
// --die-with-parent is set by bwrap itself, too late for a Knack killed right after the spawn. So the group's leader
// first forks a watchdog into its own group that blocks reading fd 3, a pipe only Knack holds the other end of, then
// becomes the program (exec "$@": its exit code and signal are the program's own). The pipe reaches end-of-file when
// Knack closes it (the program ended: what it left running in the background ends too) or when Knack dies by any
// means, kill -9 included: the kernel closes it, and the watchdog kills the whole group. `kill 0` names the watchdog's
// own group, which exists as long as the watchdog does: no pid reuse can point it elsewhere. A process that leaves the
// group (setsid) escapes it; inside the sandbox the PID namespace holds it too.
import type { ChildProcess, StdioOptions } from 'node:child_process';
import type { Writable } from 'node:stream';

const GROUP_WATCHDOG = '{ read -r _ <&3; kill -KILL 0; } </dev/null >/dev/null 2>&1 & exec "$@" 3<&-';

/** The argv that runs `argv` under the watchdog (`name` is its $0, seen in process listings). */
export function watchedArgv(name: string, argv: readonly string[]): string[] {
  return ['bash', '-c', GROUP_WATCHDOG, name, ...argv];
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
