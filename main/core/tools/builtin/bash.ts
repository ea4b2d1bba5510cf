// bash: run a shell command in the workspace, inside the OS sandbox (core/contain) when it is up, with a timeout and
// an output cap.
// The child is its own process group (detached) so a timeout or abort kills everything it started (kill(-pid)), and it
// dies with Knack: inside the wall by bwrap's --die-with-parent (its PID namespace ends with it), outside by a watchdog
// in the group (see HOST_WRAPPER). What the wall blocked returns as a structured error, never as success.
import { spawn, type ChildProcess } from 'node:child_process';
import {
  describeWall,
  holdWatchdog,
  WallError,
  watchedArgv,
  watchedStdio,
  type Blocked,
  type Wall,
  wallSeen,
} from '../../contain/index.js';
import { ok, toolError, toolRefusal } from '../errors.js';
import type { ToolResult } from '../types.js';
import { say } from '../../base/index.js';
import { z } from 'zod';
import { defineTool } from '../define.js';
import { TOOL, TOOLS } from '../../policy/index.js';
import { groupRecord, type ProcessGroupRecord } from '../process-group.js';

const BASH_DEFAULT_TIMEOUT_MS = 120_000;
const BASH_MAX_TIMEOUT_MS = 600_000;
/** Bytes kept per stream (stdout, stderr); the rest is counted and dropped. */
const BASH_OUTPUT_CAP = 100_000;
/**
 * How long a command's decision waits for the sandbox still starting (its start is under way from the workspace's
 * open; it takes about a second, longer on a loaded machine). Past it, the gate decides as if it were not there.
 */
const WALL_WAIT_MS = 10_000;

export interface BashResult {
  exitCode: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  truncated: boolean;
  durationMs: number;
}

class Capped {
  private chunks: Buffer[] = [];
  private size = 0;
  dropped = 0;
  constructor(private readonly cap: number) {}
  push(b: Buffer): void {
    const room = this.cap - this.size;
    if (room <= 0) {
      this.dropped += b.length;
      return;
    }
    const part = b.length > room ? b.subarray(0, room) : b;
    this.chunks.push(part);
    this.size += part.length;
    this.dropped += b.length - part.length;
  }
  text(): string {
    const s = Buffer.concat(this.chunks).toString('utf8');
    return this.dropped ? `${s}\n… [${this.dropped} more bytes not shown]` : s;
  }
}

function killGroup(pid: number | undefined): void {
  if (!pid) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
}

interface RunOptions {
  timeoutMs: number;
  cap?: number;
  signal?: AbortSignal;
  /** Told the command's process group as soon as it is started (the agent stores it, to end it after a crash). */
  onProcess?: (g: ProcessGroupRecord) => void;
}

/**
 * Tell the caller the child's process group. A group that cannot be recorded could not be ended after a crash: it is
 * killed, and the call fails with the reason (collect reports the kill; the error is thrown).
 */
function recordGroup(child: ChildProcess, opts: RunOptions): void {
  if (!child.pid || !opts.onProcess) return;
  try {
    opts.onProcess(groupRecord(child.pid));
  } catch (e) {
    killGroup(child.pid);
    throw new Error(`its process group could not be recorded, so it was stopped: ${(e as Error).message}`);
  }
}

/** Collect a started child's output (capped) until it exits; kill its process group on timeout or abort. */
function collect(child: ChildProcess, opts: RunOptions, started: number): Promise<BashResult> {
  return new Promise((resolveRun, rejectRun) => {
    const out = new Capped(opts.cap ?? BASH_OUTPUT_CAP);
    const err = new Capped(opts.cap ?? BASH_OUTPUT_CAP);
    let timedOut = false;
    child.stdout!.on('data', (b: Buffer) => out.push(b));
    child.stderr!.on('data', (b: Buffer) => err.push(b));
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, opts.timeoutMs);
    const onAbort = () => killGroup(child.pid);
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    child.on('error', (e) => {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      rejectRun(e);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      // Background children that kept the pipes open are gone with the group; make sure of it.
      if (timedOut || opts.signal?.aborted) killGroup(child.pid);
      resolveRun({
        exitCode: code,
        signal,
        stdout: out.text(),
        stderr: err.text(),
        timedOut,
        truncated: out.dropped + err.dropped > 0,
        durationMs: Math.round(performance.now() - started),
      });
    });
  });
}

/** Run a command line with bash in `cwd`, on the host (no sandbox). Never throws for command failures. */
export function runBash(command: string, cwd: string, opts: RunOptions): Promise<BashResult> {
  const started = performance.now();
  // Its own group (detached), ended by the group watchdog when Knack dies (contain/group-watchdog.ts).
  const [file, ...args] = watchedArgv('knack-bash', ['bash', '-c', command]);
  const child = spawn(file!, args, {
    cwd,
    detached: true,
    stdio: watchedStdio(['ignore', 'pipe', 'pipe']),
    env: { ...process.env, ...QUIET_ENV },
  });
  holdWatchdog(child);
  recordGroup(child, opts);
  return collect(child, opts, started);
}

/** Run a command line inside the wall (the OS sandbox); what the wall blocked comes back with the result. */
export async function runContained(
  wall: Wall,
  command: string,
  cwd: string,
  opts: RunOptions & { hosts: string[] },
): Promise<BashResult & { blocked: Blocked[] }> {
  const started = performance.now();
  const p = await wall.spawn(command, { cwd, hosts: opts.hosts, env: { ...process.env, ...QUIET_ENV } });
  recordGroup(p.child, opts);
  const r = await collect(p.child, opts, started);
  return { ...r, blocked: await p.finish(r.stderr) };
}

const QUIET_ENV = { PAGER: 'cat', GIT_PAGER: 'cat', TERM: 'dumb' };

/**
 * Where a command runs, as the Tools page says and as the handler does: inside the wall; on the host (off in settings,
 * or unavailable in mode auto: the gate asks about each command); or not at all (unavailable in mode required; its
 * workspace closed, whatever the mode). `starting`: the wall has not answered yet (a command waits for it).
 */
type WallState = 'starting' | 'sandboxed' | 'off' | 'asks' | 'refused' | 'closed';

/** What is known of the wall: still starting, none (no sandbox for this tool), failed to open, or the wall. */
type Known = { kind: 'starting' } | { kind: 'none' } | { kind: 'failed'; why: string } | { kind: 'wall'; wall: Wall };

function wallState(k: Known): WallState {
  if (k.kind === 'starting') return 'starting';
  if (k.kind === 'none') return 'asks';
  // Asked of a workspace already closed: nothing runs for it.
  if (k.kind === 'failed') return 'closed';
  // The gate is told the same wall through the same function (the workspace's wallView): they agree.
  const v = wallSeen(k.wall, k.wall.mode);
  if (v.closed) return 'closed';
  if (v.mode === 'off') return 'off';
  if (v.available) return 'sandboxed';
  return v.mode === 'required' ? 'refused' : 'asks';
}

const SUMMARY: Record<WallState, string> = {
  starting: 'Run a shell command in the workspace; the OS sandbox is still starting.',
  sandboxed: 'Run a shell command in the workspace, inside the OS sandbox.',
  off: 'Run a shell command in the workspace, without the OS sandbox (off in settings); each one asks.',
  asks: 'Run a shell command in the workspace, without the OS sandbox (unavailable); each one asks.',
  refused: 'Shell commands are refused: the OS sandbox is unavailable and settings require it.',
  closed: 'Shell commands are refused: the workspace is closed.',
};

/**
 * What the model is told, the same whatever the wall's state: a provider caches the prompt from its start, tools first,
 * so a description that followed the wall would throw that cache away mid-session, and one read before the sandbox
 * answered would claim a wall not known yet. Each result says where its command ran instead, and why when not inside.
 */
const DESCRIPTION =
  'Run a bash command line with the workspace as the working folder. ' +
  `Returns exit code, stdout and stderr (each capped at ${BASH_OUTPUT_CAP / 1000} KB). ` +
  `Default timeout ${BASH_DEFAULT_TIMEOUT_MS / 1000} s, at most ${BASH_MAX_TIMEOUT_MS / 1000} s; ` +
  'on timeout the command and everything it started are killed. Not interactive: no stdin. ' +
  'Commands run inside the OS sandbox when it is up: there a command can write only in the workspace (not ' +
  ".git/hooks, .git/config or Knack's settings), cannot read secrets (~/.ssh, cloud keys) and reaches only the hosts " +
  'allowed for it. When the sandbox blocks something the command must do, the error names it; only then call again ' +
  'with sandbox: false, which runs WITHOUT the sandbox and always asks the user (refused when settings require the ' +
  "sandbox). With the sandbox off in settings or unavailable, a command runs WITHOUT it, with the user's own access, " +
  'and the user is asked before each one (with it off in settings, an allow rule of theirs can allow one); when ' +
  'settings require the sandbox and it is unavailable, or the workspace is closed, ' +
  'every command is refused. The sandbox can change during a conversation: each result says whether its command ran ' +
  'inside it (sandboxed), and why not (sandboxNote); a refusal says why.';

/** Why a command ran without the OS sandbox, for the model: its description names no state of the wall. */
function outsideNote(s: WallState, w: Wall | undefined, asked: boolean): string {
  const own = "with the user's own access";
  if (s === 'sandboxed' && asked) return `ran WITHOUT the OS sandbox, as asked (sandbox: false), ${own}`;
  if (s === 'off') return `ran WITHOUT the OS sandbox (it is turned off in settings), ${own}`;
  const why = w ? `: ${w.status().reason}` : '';
  return (
    `ran WITHOUT the OS sandbox (it is unavailable${why}), ${own}; ` +
    'until it is back, each command runs so and is asked about first'
  );
}

/**
 * The bash tool over a workspace's wall. Where a command runs follows the wall's state (wallState), the one its summary
 * states on the Tools page and each result tells the model (its description stays the same): inside the wall when it
 * is up (on the host only with `sandbox: false`, approved on its own, and never in mode required); on the host with
 * the sandbox off in settings or unavailable in mode auto (every command asked about, and never one the gate allowed
 * because it would be contained); nowhere when settings require the sandbox and it is unavailable, or its workspace is
 * closed.
 */
export function createBashTool(wall?: Promise<Wall>, o: { readyWithinMs?: number } = {}) {
  let known: Known = wall ? { kind: 'starting' } : { kind: 'none' };
  const settled = wall?.then(
    (w) => void (known = { kind: 'wall', wall: w }),
    (e: unknown) => void (known = { kind: 'failed', why: (e as Error).message }),
  );
  /** The sandbox's answer, waited for at most readyWithinMs before the gate decides (then it is not there). */
  const ready = (): Promise<void> => {
    if (!settled || known.kind !== 'starting') return Promise.resolve();
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<void>((res) => (timer = setTimeout(res, o.readyWithinMs ?? WALL_WAIT_MS)));
    return Promise.race([settled, bound]).finally(() => clearTimeout(timer));
  };
  const state = () => wallState(known);
  const tool = defineTool({
    name: TOOL.bash,
    summary: SUMMARY.starting,
    description: DESCRIPTION,
    input: z.strictObject({
      command: z.string().min(1).describe('The command line to run'),
      timeout_ms: z.int().min(100).max(BASH_MAX_TIMEOUT_MS).optional().describe('Timeout in milliseconds'),
      // false: run outside the OS sandbox (always its own approval).
      sandbox: z
        .boolean()
        .optional()
        .describe('false: run WITHOUT the OS sandbox (the user is asked every time). Leave out otherwise.'),
    }),
    deferLoading: false,
    risk: TOOLS.bash.access,
    access: (a) => ({ command: a.command, ...(a.sandbox === false ? { unsandboxed: true } : {}) }),
    ready,
    async handler(a, ctx) {
      const timeoutMs = a.timeout_ms ?? BASH_DEFAULT_TIMEOUT_MS;
      const opts = {
        timeoutMs,
        ...(ctx.signal ? { signal: ctx.signal } : {}),
        ...(ctx.onProcess ? { onProcess: ctx.onProcess } : {}),
      };
      if (wall) await wall.catch(() => undefined);
      const k = known;
      const w = k.kind === 'wall' ? k.wall : undefined;
      const s = wallState(k);
      /** Why a command did not run: the wall as it is now (it may have gone down as this one started). */
      const notRun = (): ToolResult => {
        if (s === 'closed' || w?.closed)
          return toolError('sandbox.unavailable', 'not run: the workspace is closed, and nothing runs for it');
        if (w) return toolError('sandbox.unavailable', `not run: ${describeWall(w.status())}`, { status: w.status() });
        return toolError('sandbox.unavailable', 'not run: the OS sandbox is unavailable');
      };
      try {
        if (s === 'refused' || s === 'closed') return notRun();
        // Fail closed: a command allowed because it would be contained never runs uncontained.
        if (s === 'asks' && ctx.decision?.sandbox !== undefined) return notRun();
        if (s === 'sandboxed' && w && a.sandbox !== false) {
          const r = await runContained(w, a.command, ctx.workspace, {
            ...opts,
            hosts: ctx.decision?.sandbox?.hosts ?? [],
          });
          if (r.timedOut) return toolError('tool.timeout', `command timed out after ${timeoutMs} ms and was killed`, r);
          if (r.blocked.length)
            return toolRefusal(
              'sandbox.blocked',
              say('wall.blocked', {
                blocked: r.blocked.map((b) => b.words).reduce((a, b) => say('listSemicolon', { a, b })),
                exit: String(r.exitCode ?? r.signal),
              }),
              r,
            );
          return ok({ ...r, sandboxed: true });
        }
        // Settings that require the sandbox never let a command leave it (the gate refuses it first).
        if (w?.mode === 'required')
          return toolError(
            'sandbox.unavailable',
            'not run: settings require the OS sandbox (sandbox.mode required), and sandbox: false would leave it',
          );
        const r = await runBash(a.command, ctx.workspace, opts);
        if (r.timedOut) return toolError('tool.timeout', `command timed out after ${timeoutMs} ms and was killed`, r);
        return ok({ ...r, sandboxed: false, sandboxNote: outsideNote(s, w, a.sandbox === false) });
      } catch (e) {
        if (e instanceof WallError) return w ? notRun() : toolError('sandbox.unavailable', `not run: ${e.message}`);
        return toolError('tool.failed', `could not start bash: ${(e as Error).message}`);
      }
    },
  });
  return Object.defineProperty(tool, 'summary', { get: () => SUMMARY[state()], enumerable: true });
}
