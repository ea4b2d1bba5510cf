// One script run inside a fresh isolated-vm isolate, in the host process: limits, deadline, CPU watch, bridging.
// Everything that comes back from the isolate is untrusted text; the run settles exactly once with a value or an error.
import ivm from 'isolated-vm';
import { BOOTSTRAP_SOURCE } from './bootstrap.js';
import type { RunLimits } from '../config/index.js';
import type { CapabilityOp, RunStats, SandboxErrorData } from './protocol.js';
import { CAPABILITY_OPS } from './protocol.js';

export interface RunInput {
  runId: string;
  source: string;
  filename: string;
  argsJson: string;
  limits: RunLimits;
}

export interface RunHooks {
  log(text: string): void;
  cap(callId: number, op: CapabilityOp, payloadJson: string): void;
}

export type RunOutcome =
  { ok: true; valueJson: string; stats: RunStats } | { ok: false; error: SandboxErrorData; stats: RunStats };

export interface ActiveRun {
  readonly runId: string;
  /** Resolves once, with the run's outcome. */
  readonly done: Promise<RunOutcome>;
  /** Hand a capability result back into the isolate. */
  deliver(callId: number, ok: boolean, json: string): void;
  /** Stop the run now with this error (deadline, CPU, cancel). */
  stop(error: SandboxErrorData): void;
  /** Check the CPU budget; called by the host's ticker. */
  checkCpu(): void;
  /** Stop the wall clock (the user is being asked to approve a call); CPU limits still apply. */
  hold(): void;
  /** Restart it: the deadline moves by the time held. */
  release(): void;
}

const utf8 = (s: string): number => Buffer.byteLength(s, 'utf8');

export function startRun(input: RunInput, hooks: RunHooks): ActiveRun {
  const { limits } = input;
  const started = performance.now();
  let deadline = started + limits.timeoutMs;
  let heldAt: number | undefined;
  let holds = 0;
  const isolate = new ivm.Isolate({ memoryLimit: limits.memoryMb });
  let settled = false;
  let logBytes = 0;
  let capCalls = 0;
  let deliverRef: ivm.Reference<(id: number, ok: boolean, json: string) => void> | undefined;
  let resolveDone!: (o: RunOutcome) => void;
  const done = new Promise<RunOutcome>((r) => (resolveDone = r));

  const cpuMs = (): number => {
    try {
      return Number(isolate.cpuTime) / 1e6;
    } catch {
      return 0;
    }
  };
  const stats = (): RunStats => ({
    wallMs: Math.round(performance.now() - started),
    cpuMs: Math.round(cpuMs()),
    capabilityCalls: capCalls,
    logBytes,
  });

  function finish(outcome: { ok: true; valueJson: string } | { ok: false; error: SandboxErrorData }): void {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    const s = stats();
    try {
      if (!isolate.isDisposed) isolate.dispose();
    } catch {
      /* already gone */
    }
    resolveDone({ ...outcome, stats: s });
  }
  const fail = (error: SandboxErrorData): void => finish({ ok: false, error });

  // The wall clock covers everything: compile, run, and time spent waiting on the main process.
  const timeoutError = (): SandboxErrorData => ({
    code: 'limit.timeout',
    message: `the script ran longer than the ${limits.timeoutMs} ms time limit (timeoutMs)`,
    details: { limit: limits.timeoutMs },
  });
  let timer = setTimeout(() => fail(timeoutError()), limits.timeoutMs);
  /** Host-side time counts too: a flood of bridged calls ends the run at its deadline even if the timer is late. */
  const pastDeadline = (): boolean => {
    if (heldAt !== undefined || performance.now() < deadline) return false;
    fail(timeoutError());
    return true;
  };
  const remaining = (): number => Math.max(1, Math.ceil(deadline - performance.now()));

  const sendLog = new ivm.Callback(
    (text: unknown) => {
      if (settled || typeof text !== 'string') return;
      if (pastDeadline()) return;
      logBytes += utf8(text) + 1;
      // Backstop for the count kept inside the isolate: the host never trusts it.
      if (logBytes > limits.maxLogBytes) {
        fail({
          code: 'limit.log',
          message: `the script logged more than the ${limits.maxLogBytes}-byte log limit (maxLogBytes)`,
          details: { limit: limits.maxLogBytes },
        });
        return;
      }
      hooks.log(text);
    },
    // Synchronous on purpose: the isolate waits for each line, so a flood cannot pile up a backlog in the host.
    { sync: true },
  );

  const sendCap = new ivm.Callback(
    (id: unknown, op: unknown, payloadJson: unknown) => {
      if (settled || pastDeadline()) return;
      if (
        typeof id !== 'number' ||
        typeof payloadJson !== 'string' ||
        !(CAPABILITY_OPS as readonly unknown[]).includes(op)
      ) {
        fail({ code: 'protocol.invalid_message', message: 'the script sent a malformed capability call' });
        return;
      }
      capCalls++;
      if (capCalls > limits.maxCapabilityCalls) {
        fail({
          code: 'limit.capability_calls',
          message: `the script made more than ${limits.maxCapabilityCalls} capability calls (maxCapabilityCalls)`,
          details: { limit: limits.maxCapabilityCalls },
        });
        return;
      }
      hooks.cap(id, op as CapabilityOp, payloadJson);
    },
    { ignored: true },
  );

  void (async () => {
    const context = await isolate.createContext();
    const api = await context.evalClosure(BOOTSTRAP_SOURCE, [sendLog, sendCap, JSON.stringify(limits)], {
      result: { reference: true },
      timeout: remaining(),
    });
    const runRef = (await api.get('run', { reference: true })) as ivm.Reference<
      (ns: unknown, a: string) => Promise<string>
    >;
    deliverRef = (await api.get('deliver', { reference: true })) as ivm.Reference<
      (id: number, ok: boolean, json: string) => void
    >;
    const mod = await isolate.compileModule(input.source, { filename: input.filename });
    await mod.instantiate(context, (specifier) => {
      throw new Error(
        `imports are not available in skill scripts (import "${specifier.slice(0, 200)}"): a script is one self-contained file`,
      );
    });
    await mod.evaluate({ timeout: remaining() });
    const envelope: unknown = await runRef.apply(undefined, [mod.namespace.derefInto(), input.argsJson], {
      arguments: { copy: true },
      result: { promise: true, copy: true },
      timeout: remaining(),
    });
    if (typeof envelope !== 'string' || envelope.length === 0) {
      fail({ code: 'protocol.invalid_message', message: 'the script runner returned something other than text' });
      return;
    }
    const body = envelope.slice(1);
    if (envelope[0] === 'R') {
      if (utf8(body) > limits.maxOutputBytes) {
        fail({
          code: 'limit.output',
          message: `the result is larger than the ${limits.maxOutputBytes}-byte output limit (maxOutputBytes)`,
          details: { limit: limits.maxOutputBytes },
        });
      } else finish({ ok: true, valueJson: body });
      return;
    }
    const error = parseScriptError(body);
    // V8 rejects import() with a bare "Not supported" when no module loader exists; say what that means.
    if (error.code === 'script.error' && error.message === 'Not supported' && /\bimport\s*\(/.test(input.source)) {
      fail({
        code: 'script.import',
        message: 'dynamic import() is not available in skill scripts: a script is one self-contained file',
      });
    } else fail(error);
  })().catch((e: unknown) => fail(mapIvmError(e, limits)));

  return {
    runId: input.runId,
    done,
    deliver(callId, ok, json) {
      if (settled || !deliverRef) return;
      deliverRef
        .apply(undefined, [callId, ok, json], { arguments: { copy: true }, timeout: remaining() })
        .catch((e: unknown) => fail(mapIvmError(e, limits)));
    },
    stop: fail,
    hold() {
      if (settled || holds++ > 0) return;
      heldAt = performance.now();
      clearTimeout(timer);
    },
    release() {
      if (settled || holds === 0 || --holds > 0 || heldAt === undefined) return;
      deadline += performance.now() - heldAt;
      heldAt = undefined;
      timer = setTimeout(() => fail(timeoutError()), Math.max(0, deadline - performance.now()));
    },
    checkCpu() {
      // When both limits are past, the wall clock is the one named (it is the one people set).
      if (settled || pastDeadline()) return;
      if (cpuMs() > limits.cpuTimeMs) {
        fail({
          code: 'limit.cpu',
          message: `the script used more than the ${limits.cpuTimeMs} ms CPU time limit (cpuTimeMs)`,
          details: { limit: limits.cpuTimeMs },
        });
      }
    },
  };
}

/** The runner's error envelope, read as untrusted JSON. */
function parseScriptError(json: string): SandboxErrorData {
  try {
    const v = JSON.parse(json) as Record<string, unknown>;
    const code =
      typeof v.code === 'string' && /^(limit|script|capability|tool)\.[a-z_.]+$/.test(v.code) ? v.code : 'script.error';
    const message = typeof v.message === 'string' ? v.message.slice(0, 4000) : 'the script failed';
    return { code, message, ...(v.details !== undefined ? { details: v.details } : {}) };
  } catch {
    return { code: 'script.error', message: 'the script failed with an unreadable error' };
  }
}

/** Errors raised by isolated-vm itself (compile errors, disposal, timeouts) → structured errors. */
function mapIvmError(e: unknown, limits: RunLimits): SandboxErrorData {
  const message = e instanceof Error ? e.message : String(e);
  if (/memory limit/i.test(message)) {
    return {
      code: 'limit.memory',
      message: `the script used more than the ${limits.memoryMb} MB memory limit (memoryMb)`,
      details: { limit: limits.memoryMb },
    };
  }
  if (/Script execution timed out/i.test(message)) {
    return {
      code: 'limit.timeout',
      message: `the script ran longer than the ${limits.timeoutMs} ms time limit (timeoutMs)`,
      details: { limit: limits.timeoutMs },
    };
  }
  if (/Maximum call stack size exceeded/.test(message)) {
    return { code: 'limit.stack', message: 'the script recursed too deeply (call stack limit)' };
  }
  if (e instanceof SyntaxError || /SyntaxError/.test(String((e as Error)?.name))) {
    return { code: 'script.syntax', message: `the script does not parse: ${message}` };
  }
  if (/imports are not available/.test(message)) return { code: 'script.import', message };
  if (/disposed/i.test(message)) return { code: 'host.isolate_disposed', message: 'the script was stopped' };
  const stack = e instanceof Error ? e.stack : undefined;
  return {
    code: 'script.error',
    message: message.slice(0, 4000),
    ...(stack ? { details: { stack: stack.slice(0, 4000) } } : {}),
  };
}
