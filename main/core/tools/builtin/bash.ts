// bash: run a shell command in the workspace with a timeout and an output cap. The child is its own process
// group (detached) so a timeout or abort kills everything it started (kill(-pid)). The gate sees the command
// line in access().command: bash never runs without an allow rule or a per-call approval.
import { spawn } from 'node:child_process';
import { ok, toolError } from '../errors.js';
import type { ToolDefinition } from '../types.js';
import { TOOL, TOOLS } from '../../policy/index.js';

export const BASH_DEFAULT_TIMEOUT_MS = 120_000;
export const BASH_MAX_TIMEOUT_MS = 600_000;
/** Bytes kept per stream (stdout, stderr); the rest is counted and dropped. */
export const BASH_OUTPUT_CAP = 100_000;

interface Args {
  command: string;
  timeout_ms?: number;
}

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

/** Run a command line with bash in `cwd`. Never throws for command failures; resolves when the process exits. */
export function runBash(
  command: string,
  cwd: string,
  opts: { timeoutMs: number; cap?: number; signal?: AbortSignal },
): Promise<BashResult> {
  const started = performance.now();
  return new Promise((resolveRun, rejectRun) => {
    // eslint-disable-next-line knack/tool-names -- the program bash runs the command line
    const child = spawn('bash', ['-c', command], {
      cwd,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, PAGER: 'cat', GIT_PAGER: 'cat', TERM: 'dumb' },
    });
    const out = new Capped(opts.cap ?? BASH_OUTPUT_CAP);
    const err = new Capped(opts.cap ?? BASH_OUTPUT_CAP);
    let timedOut = false;
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
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

export const bashTool: ToolDefinition<Args> = {
  name: TOOL.bash,
  summary: 'Run a shell command in the workspace (needs an allow rule or your approval).',
  description:
    'Run a bash command line with the workspace as the working folder. Returns exit code, stdout and stderr ' +
    `(each capped at ${BASH_OUTPUT_CAP / 1000} KB). Default timeout ${BASH_DEFAULT_TIMEOUT_MS / 1000} s, at most ${BASH_MAX_TIMEOUT_MS / 1000} s; ` +
    'on timeout the command and everything it started are killed. Not interactive: no stdin. ' +
    "Every command needs an allow rule or the user's approval.",
  inputSchema: {
    type: 'object',
    properties: {
      command: { type: 'string', minLength: 1, description: 'The command line to run' },
      timeout_ms: {
        type: 'integer',
        minimum: 100,
        maximum: BASH_MAX_TIMEOUT_MS,
        description: 'Timeout in milliseconds',
      },
    },
    required: ['command'],
    additionalProperties: false,
  },
  deferLoading: false,
  risk: TOOLS.bash.access,
  access: (a) => ({ command: a.command }),
  async handler(a, ctx) {
    try {
      const r = await runBash(a.command, ctx.workspace, {
        timeoutMs: a.timeout_ms ?? BASH_DEFAULT_TIMEOUT_MS,
        ...(ctx.signal ? { signal: ctx.signal } : {}),
      });
      if (r.timedOut) {
        return toolError(
          'tool.timeout',
          `command timed out after ${a.timeout_ms ?? BASH_DEFAULT_TIMEOUT_MS} ms and was killed`,
          r,
        );
      }
      return ok(r);
    } catch (e) {
      return toolError('tool.failed', `could not start bash: ${(e as Error).message}`);
    }
  },
};
