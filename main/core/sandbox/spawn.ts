// How the client starts a sandbox host process: the SpawnHost seam, and its Node implementation (child_process.fork).
// Electron passes its own SpawnHost built on utilityProcess.fork (main/electron/), running the same host entry.
import { fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** A running host process, seen from the main process. */
export interface HostProcess {
  readonly pid: number | undefined;
  send(msg: unknown): void;
  onMessage(cb: (raw: unknown) => void): void;
  /** Called once when the process is gone, whatever the cause. */
  onExit(cb: (code: number | null, signal: string | null) => void): void;
  kill(): void;
}

export interface SpawnOptions {
  /** Heartbeat period the host should use, in ms. */
  heartbeatMs: number;
}

/**
 * The seam between the client and the process machinery. Node: `forkHost` (child_process.fork).
 * Electron: an implementation over `utilityProcess.fork(hostEntry().file, args, { execArgv })` — the host entry
 * detects `process.parentPort` and speaks the same protocol. Tests may pass their own to observe processes.
 */
export type SpawnHost = (opts: SpawnOptions) => HostProcess;

/** The host entry to start: a built `host.js` when one sits beside this file, else `host.ts` through tsx. */
export function hostEntry(): { file: string; execArgv: string[] } {
  const js = fileURLToPath(new URL('./host.js', import.meta.url));
  // isolated-vm needs --no-node-snapshot on Node ≥ 20.
  const base = ['--no-node-snapshot'];
  if (existsSync(js) && !import.meta.url.endsWith('.ts')) return { file: js, execArgv: base };
  const ts = fileURLToPath(new URL('./host.ts', import.meta.url));
  // Resolve tsx from this package, not from the user's working folder.
  const tsx = import.meta.resolve('tsx');
  return { file: ts, execArgv: [...base, '--import', tsx] };
}

/** The host gets no environment of the user's: nothing in it may depend on secrets in env vars. */
export function hostEnv(): NodeJS.ProcessEnv {
  const keep = ['PATH', 'SystemRoot', 'TMPDIR', 'TEMP', 'TMP'];
  const env: NodeJS.ProcessEnv = { KNACK_SANDBOX_HOST: '1' };
  for (const k of keep) if (process.env[k] !== undefined) env[k] = process.env[k];
  return env;
}

export const forkHost: SpawnHost = ({ heartbeatMs }) => {
  const { file, execArgv } = hostEntry();
  const child = fork(file, ['--heartbeat-ms', String(heartbeatMs)], {
    execArgv,
    env: hostEnv(),
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    serialization: 'json',
  });
  // Keep the host's stderr (crash reports) bounded, for error details.
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString('utf8')).slice(-4000);
  });
  const exitCbs: ((code: number | null, signal: string | null) => void)[] = [];
  let exited = false;
  const onGone = (code: number | null, signal: string | null): void => {
    if (exited) return;
    exited = true;
    for (const cb of exitCbs) cb(code, signal);
  };
  // 'close' comes after 'exit' once stderr is drained, so a crash report is complete when the client reads it.
  child.on('close', onGone);
  child.on('error', () => onGone(null, 'spawn-error'));
  return {
    pid: child.pid,
    send(msg) {
      if (child.connected) child.send(msg as never, (err) => err && child.kill('SIGKILL'));
    },
    onMessage: (cb) => void child.on('message', cb),
    onExit: (cb) => void exitCbs.push(cb),
    kill() {
      if (!exited) child.kill('SIGKILL');
    },
    get stderr() {
      return stderr;
    },
  } as HostProcess;
};
