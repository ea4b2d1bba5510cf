// The sandbox client in the main process: a lazily started warm pool of host processes, run queue and limits,
// the watchdog (heartbeats, deadlines), and routing of capability calls from scripts to the main-process handler.
import { randomUUID } from 'node:crypto';
import {
  parseHostMessage,
  SandboxError,
  type HostMessage,
  type RunStats,
  type SandboxErrorData,
  type CapabilityOp,
} from './protocol.js';
import { runLimits } from './limits.js';
import { type RunLimits, type SandboxLimits } from '../config/index.js';
import { forkHost, type HostProcess, type SpawnHost } from './spawn.js';

/** What a capability handler may do to the run it serves. */
export interface RunControls {
  /** Stop the run's wall clock (e.g. while the user is asked to approve); call the returned function to restart it. */
  hold(): () => void;
  /** Aborted as soon as the run ends: a call still in progress must not start its side effect after that. */
  signal: AbortSignal;
}

/** Largest serialised arguments a run accepts. */
const MAX_ARGS_BYTES = 8 * 1024 * 1024;

/** Handles one capability call from a script; throw a SandboxError to refuse it. Runs in the main process. */
export type CapabilityHandler<C> = (
  op: CapabilityOp,
  payload: unknown,
  context: C,
  run: RunControls,
) => Promise<unknown>;

export interface ClientRunRequest<C> {
  /** ES module source of the script. */
  source: string;
  /** Shown in stack traces and errors. */
  filename: string;
  /** JSON arguments; serialised here, parsed inside the isolate. */
  args: unknown;
  /** Handed to the capability handler with every call (who is acting, where). */
  context: C;
  /** Tighter or different limits for this run (within bounds). */
  limits?: Partial<RunLimits>;
  /** Each `knack.log` line as it arrives. */
  onLog?: (text: string) => void;
  signal?: AbortSignal;
}

export type ScriptResult =
  | { ok: true; value: unknown; logs: string[]; stats: RunStats }
  | { ok: false; error: SandboxErrorData; logs: string[]; stats?: RunStats };

export interface SandboxClientOptions<C> {
  limits: SandboxLimits;
  capabilities: CapabilityHandler<C>;
  spawn?: SpawnHost;
}

interface HostSlot {
  proc: HostProcess;
  ready: Promise<void>;
  isReady: boolean;
  lastBeat: number;
  runs: Map<string, ActiveRun>;
  /** Runs that picked this host and wait for it to be ready. */
  reserved: number;
  /** Set when the client kills the host on purpose: the error its runs get. */
  killReason?: SandboxErrorData;
  /** The run the kill was about, when it was about one (the others are told their host was restarted). */
  culprit?: string;
}

interface ActiveRun {
  runId: string;
  host?: HostSlot;
  context: unknown;
  logs: string[];
  onLog?: (text: string) => void;
  watchdog?: NodeJS.Timeout;
  /** Re-arm the watchdog for the time left (after a hold). */
  arm?(): void;
  holds: number;
  heldAt?: number;
  ended: AbortController;
  settle(r: ScriptResult): void;
}

interface Queued {
  start(): void;
  fail(e: SandboxErrorData): void;
}

export class SandboxClient<C = unknown> {
  readonly limits: SandboxLimits;
  private readonly spawn: SpawnHost;
  private readonly handler: CapabilityHandler<C>;
  private hosts: HostSlot[] = [];
  private active = 0;
  private queue: Queued[] = [];
  private closed = false;
  private ticker: NodeJS.Timeout | undefined;
  /** Messages from hosts that failed validation (kept for diagnostics; never acted on). */
  readonly rejectedMessages: SandboxErrorData[] = [];

  constructor(opts: SandboxClientOptions<C>) {
    this.limits = opts.limits;
    this.spawn = opts.spawn ?? forkHost;
    this.handler = opts.capabilities;
  }

  /** Pids of the live host processes (diagnostics and tests). */
  hostPids(): number[] {
    return this.hosts.map((h) => h.proc.pid).filter((p): p is number => typeof p === 'number');
  }

  /** Runs executing now / waiting for a slot. */
  load(): { active: number; queued: number } {
    return { active: this.active, queued: this.queue.length };
  }

  /** Start the warm pool ahead of the first run. */
  async warm(): Promise<void> {
    while (this.hosts.length < this.limits.poolSize) this.startHost();
    await Promise.all(this.hosts.map((h) => h.ready.catch(() => undefined)));
  }

  /** Run a script; never throws: limits, denials and crashes come back as `{ok: false, error}`. */
  run(req: ClientRunRequest<C>): Promise<ScriptResult> {
    if (this.closed) return Promise.resolve(failure('sandbox.closed', 'the sandbox is shut down'));
    let argsJson: string;
    try {
      argsJson = JSON.stringify(req.args ?? {}) ?? 'null';
    } catch (e) {
      return Promise.resolve(failure('script.bad_arguments', `the arguments are not JSON: ${(e as Error).message}`));
    }
    if (Buffer.byteLength(argsJson, 'utf8') > MAX_ARGS_BYTES) {
      return Promise.resolve(
        failure('script.bad_arguments', `the arguments are larger than ${MAX_ARGS_BYTES} bytes of JSON`),
      );
    }
    const limits = runLimits(this.limits, req.limits);
    return new Promise<ScriptResult>((resolve) => {
      const start = (): void => void this.execute(req, argsJson, limits, resolve);
      if (this.active < this.limits.maxConcurrent) {
        this.active++;
        start();
        return;
      }
      if (this.queue.length >= this.limits.maxQueued) {
        resolve(
          failure(
            'limit.concurrency',
            `too many scripts at once: ${this.limits.maxConcurrent} running and ${this.queue.length} waiting (maxConcurrent, maxQueued)`,
            { maxConcurrent: this.limits.maxConcurrent, maxQueued: this.limits.maxQueued },
          ),
        );
        return;
      }
      const entry: Queued = {
        start: () => {
          this.active++;
          start();
        },
        fail: (e) => resolve({ ok: false, error: e, logs: [] }),
      };
      this.queue.push(entry);
      req.signal?.addEventListener(
        'abort',
        () => {
          const i = this.queue.indexOf(entry);
          if (i >= 0) {
            this.queue.splice(i, 1);
            entry.fail({ code: 'run.cancelled', message: 'the run was cancelled before it started' });
          }
        },
        { once: true },
      );
    });
  }

  private async execute(
    req: ClientRunRequest<C>,
    argsJson: string,
    limits: RunLimits,
    resolve: (r: ScriptResult) => void,
  ): Promise<void> {
    const runId = randomUUID();
    let done = false;
    const run: ActiveRun = {
      runId,
      context: req.context,
      logs: [],
      holds: 0,
      ended: new AbortController(),
      ...(req.onLog ? { onLog: req.onLog } : {}),
      settle: (r) => {
        if (done) return;
        done = true;
        run.ended.abort();
        clearTimeout(run.watchdog);
        run.host?.runs.delete(runId);
        this.active--;
        this.queue.shift()?.start();
        resolve({ ...r, logs: run.logs });
      },
    };
    if (req.signal?.aborted) return run.settle(failure('run.cancelled', 'the run was cancelled before it started'));
    let host: HostSlot;
    try {
      host = this.pickHost();
      host.reserved++;
      try {
        await host.ready;
      } finally {
        host.reserved--;
      }
    } catch (e) {
      return run.settle(failure('host.start_failed', `the sandbox host did not start: ${(e as Error).message}`));
    }
    if (!this.hosts.includes(host))
      return run.settle(failure('host.crashed', 'the sandbox host exited before the run could start'));
    run.host = host;
    host.runs.set(runId, run);
    // Watchdog: the host stops a runaway at its deadline; if it has not answered shortly after, it is killed.
    let deadline = performance.now() + limits.timeoutMs;
    run.arm = () => {
      clearTimeout(run.watchdog);
      if (run.heldAt !== undefined) {
        deadline += performance.now() - run.heldAt;
        run.heldAt = undefined;
      }
      run.watchdog = setTimeout(
        () => {
          this.killHost(
            host,
            {
              code: 'limit.timeout',
              message: `the script ran longer than the ${limits.timeoutMs} ms time limit (timeoutMs) and its host was killed`,
              details: { limit: limits.timeoutMs },
            },
            runId,
          );
        },
        Math.max(0, deadline - performance.now()) + this.limits.killGraceMs,
      );
    };
    run.arm();
    req.signal?.addEventListener(
      'abort',
      () => {
        host.proc.send({ type: 'cancel', runId, reason: { code: 'run.cancelled', message: 'the run was cancelled' } });
      },
      { once: true },
    );
    host.proc.send({ type: 'run', runId, source: req.source, filename: req.filename, argsJson, limits });
  }

  private pickHost(): HostSlot {
    const live = this.hosts;
    const load = (h: HostSlot): number => h.runs.size + h.reserved;
    const idle = live.find((h) => load(h) === 0);
    if (idle) return idle;
    if (live.length < this.limits.poolSize) return this.startHost();
    let best = live[0];
    for (const h of live) if (best && load(h) < load(best)) best = h;
    return best ?? this.startHost();
  }

  private startHost(): HostSlot {
    const proc = this.spawn({ heartbeatMs: this.limits.heartbeatMs });
    let markReady!: () => void;
    let markFailed!: (e: Error) => void;
    const slot: HostSlot = {
      proc,
      isReady: false,
      lastBeat: Date.now(),
      runs: new Map(),
      reserved: 0,
      ready: new Promise<void>((res, rej) => {
        markReady = res;
        markFailed = rej;
      }),
    };
    slot.ready.catch(() => undefined);
    const startTimer = setTimeout(() => {
      if (!slot.isReady) {
        markFailed(new Error('no ready message within 30 s'));
        this.killHost(slot, { code: 'host.start_failed', message: 'the sandbox host did not start in time' });
      }
    }, 30_000);
    proc.onMessage((raw) => {
      const parsed = parseHostMessage(raw);
      if (!parsed.ok) {
        if (this.rejectedMessages.length < 100) this.rejectedMessages.push(parsed.error);
        return;
      }
      slot.lastBeat = Date.now();
      if (parsed.message.type === 'ready') {
        slot.isReady = true;
        clearTimeout(startTimer);
        markReady();
      }
      this.onHostMessage(slot, parsed.message);
    });
    proc.onExit((code, signal) => {
      clearTimeout(startTimer);
      this.hosts = this.hosts.filter((h) => h !== slot);
      const stderr = (proc as { stderr?: string }).stderr;
      markFailed(
        new Error(
          `host exited (${signal ?? `code ${code}`})${stderr ? `: ${stderr.trim().split('\n').slice(-3).join(' | ')}` : ''}`,
        ),
      );
      // Some allocations make V8 abort the whole process instead of failing the isolate (a known isolated-vm
      // limit): that is why scripts run out of process. Name it as the memory limit when it is one.
      const oom = !slot.killReason && OOM_PATTERN.test(stderr ?? '');
      const alone = slot.runs.size === 1;
      const error: SandboxErrorData =
        slot.killReason ??
        (oom
          ? {
              code: alone ? 'limit.memory' : 'host.crashed',
              message: alone
                ? `the script used more memory than its host process could give it (memoryMb ${this.limits.memoryMb}); the host was restarted`
                : 'a script in the same sandbox host ran out of memory and the host was restarted; run this script again',
              details: { signal, stderr: (stderr ?? '').slice(-2000) },
            }
          : {
              code: 'host.crashed',
              message: `the sandbox host process exited unexpectedly (${signal ?? `exit code ${code}`}) while this script ran; the next run starts a fresh host`,
              ...(stderr ? { details: { stderr: stderr.slice(-2000) } } : {}),
            });
      const bystander: SandboxErrorData = {
        code: 'host.restarted',
        message:
          'another script in the same sandbox host had to be stopped, and this run was stopped with it; run it again',
      };
      for (const run of [...slot.runs.values()]) {
        const mine = slot.culprit === undefined || slot.culprit === run.runId;
        run.settle({ ok: false, error: mine ? error : bystander, logs: run.logs });
      }
      slot.runs.clear();
    });
    this.hosts.push(slot);
    this.ensureTicker();
    return slot;
  }

  private onHostMessage(slot: HostSlot, msg: HostMessage): void {
    switch (msg.type) {
      case 'ready':
      case 'heartbeat':
        return;
      case 'protocolError':
        if (this.rejectedMessages.length < 100) this.rejectedMessages.push(msg.error);
        return;
      case 'log': {
        const run = slot.runs.get(msg.runId);
        if (!run) return;
        for (const line of msg.lines) {
          run.logs.push(line);
          run.onLog?.(line);
        }
        return;
      }
      case 'cap': {
        const run = slot.runs.get(msg.runId);
        if (!run) return;
        void this.serveCapability(slot, run, msg.callId, msg.op, msg.payloadJson);
        return;
      }
      case 'result': {
        const run = slot.runs.get(msg.runId);
        if (!run) return;
        if (msg.ok) {
          let value: unknown;
          try {
            value = JSON.parse(msg.valueJson ?? 'null');
          } catch {
            return run.settle({
              ok: false,
              error: { code: 'protocol.invalid_message', message: 'the script result was not valid JSON' },
              logs: [],
              stats: msg.stats,
            });
          }
          run.settle({ ok: true, value, logs: [], stats: msg.stats });
        } else {
          run.settle({
            ok: false,
            error: msg.error ?? { code: 'script.error', message: 'the script failed' },
            logs: [],
            stats: msg.stats,
          });
        }
        return;
      }
    }
  }

  private async serveCapability(
    slot: HostSlot,
    run: ActiveRun,
    callId: number,
    op: CapabilityOp,
    payloadJson: string,
  ): Promise<void> {
    let reply: { ok: true; valueJson: string } | { ok: false; error: SandboxErrorData };
    try {
      // JSON.parse makes `__proto__` an own property: nothing the script sends can reach a prototype here.
      const payload: unknown = JSON.parse(payloadJson);
      const value = await this.handler(op, payload, run.context as C, {
        hold: () => this.hold(slot, run),
        signal: run.ended.signal,
      });
      reply = { ok: true, valueJson: JSON.stringify(value ?? null) };
    } catch (e) {
      reply = { ok: false, error: toErrorData(e) };
    }
    if (!slot.runs.has(run.runId)) return;
    slot.proc.send({ type: 'capResult', runId: run.runId, callId, ...reply });
  }

  private hold(slot: HostSlot, run: ActiveRun): () => void {
    if (run.holds++ === 0) {
      run.heldAt = performance.now();
      clearTimeout(run.watchdog);
    }
    slot.proc.send({ type: 'hold', runId: run.runId });
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (!slot.runs.has(run.runId)) return;
      slot.proc.send({ type: 'release', runId: run.runId });
      if (--run.holds === 0) run.arm?.();
    };
  }

  private killHost(slot: HostSlot, reason: SandboxErrorData, culprit?: string): void {
    if (!this.hosts.includes(slot)) return;
    slot.killReason = reason;
    if (culprit !== undefined) slot.culprit = culprit;
    slot.proc.kill();
  }

  private ensureTicker(): void {
    if (this.ticker) return;
    // Judged after the loop has read what already arrived (setImmediate runs after the I/O poll): when this thread was
    // busy for longer than the timeout (a long synchronous task, a loaded machine), the hosts' heartbeats are queued
    // behind this timer, and judging before reading them would kill healthy hosts.
    const judge = (): void => {
      const now = Date.now();
      for (const h of this.hosts) {
        if (h.isReady && h.runs.size > 0 && now - h.lastBeat > this.limits.heartbeatTimeoutMs) {
          this.killHost(h, {
            code: 'host.unresponsive',
            message: `the sandbox host stopped answering for ${now - h.lastBeat} ms and was restarted`,
          });
        }
      }
    };
    this.ticker = setInterval(() => setImmediate(judge), this.limits.heartbeatMs);
    this.ticker.unref();
  }

  /** Stop every host; queued runs fail with `sandbox.closed`. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.ticker);
    this.ticker = undefined;
    for (const q of this.queue.splice(0)) q.fail({ code: 'sandbox.closed', message: 'the sandbox was shut down' });
    const exits = this.hosts.map((h) => new Promise<void>((r) => h.proc.onExit(() => r())));
    for (const h of [...this.hosts])
      this.killHost(h, { code: 'sandbox.closed', message: 'the sandbox was shut down while this script ran' });
    await Promise.all(exits);
  }
}

/** What V8 prints when a heap runs out for good. */
const OOM_PATTERN =
  /is_heap_oom|heap out of memory|Reached heap limit|Fatal JavaScript invalid size|Fatal process out of memory|Invalid array length Allocation failed/i;

function failure(code: string, message: string, details?: unknown): ScriptResult {
  return { ok: false, error: { code, message, ...(details !== undefined ? { details } : {}) }, logs: [] };
}

function toErrorData(e: unknown): SandboxErrorData {
  if (e instanceof SandboxError) return e.toJSON();
  return { code: 'capability.failed', message: e instanceof Error ? e.message : String(e) };
}
