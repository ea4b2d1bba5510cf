// Sandbox limits: every limit a script run is held to, its default, its bounds, and the error that names it.
// Defaults come from settings.sandbox (main/core/config.ts); a run may tighten or (within bounds) override timeoutMs.
import type { Settings } from '../config.js';

/** Limits enforced inside the host for one run. */
export interface RunLimits {
  /** Wall-clock budget for the whole run, bridged calls to the main process included. */
  timeoutMs: number;
  /** CPU time the isolate may burn. */
  cpuTimeMs: number;
  /** Isolate heap + ArrayBuffer memory, in MB (isolated-vm memoryLimit). */
  memoryMb: number;
  /** Size of the JSON result, in UTF-8 bytes, checked inside the isolate before it is copied out. */
  maxOutputBytes: number;
  /** Total `knack.log` output per run, in UTF-8 bytes. */
  maxLogBytes: number;
  /** Capability calls (readFile, writeFile, listDir, callTool) per run. */
  maxCapabilityCalls: number;
  /** Capability calls in flight at once. */
  maxPendingCalls: number;
}

/** Limits enforced by the client in the main process. */
export interface SandboxLimits extends RunLimits {
  /** Runs executing at once, across the pool. */
  maxConcurrent: number;
  /** Runs waiting for a slot; one more is refused with `limit.concurrency`. */
  maxQueued: number;
  /** Host processes kept warm. */
  poolSize: number;
  /** How often a host reports it is alive. */
  heartbeatMs: number;
  /** A busy host silent for this long is killed and restarted. */
  heartbeatTimeoutMs: number;
  /** After a run's deadline, how long the client waits for the host to stop it before killing the host. */
  killGraceMs: number;
  /** Largest file readFile returns or writeFile writes, in bytes. */
  maxFileBytes: number;
  /** Most entries listDir returns. */
  maxListEntries: number;
}

export type SandboxSettings = Settings['sandbox'];

const BOUNDS: Record<keyof SandboxLimits, [number, number]> = {
  timeoutMs: [10, 600_000],
  cpuTimeMs: [10, 600_000],
  memoryMb: [8, 4096],
  maxOutputBytes: [16, 256 * 1024 * 1024],
  maxLogBytes: [0, 64 * 1024 * 1024],
  maxCapabilityCalls: [0, 1_000_000],
  maxPendingCalls: [1, 1024],
  maxConcurrent: [1, 256],
  maxQueued: [0, 10_000],
  poolSize: [1, 32],
  heartbeatMs: [10, 10_000],
  heartbeatTimeoutMs: [100, 120_000],
  killGraceMs: [10, 60_000],
  maxFileBytes: [1, 1024 * 1024 * 1024],
  maxListEntries: [1, 1_000_000],
};

/** Settings → limits: every field present, whole numbers, clamped into sane bounds. */
export function limitsFromSettings(s: SandboxSettings): SandboxLimits {
  const out = {} as SandboxLimits;
  for (const key of Object.keys(BOUNDS) as (keyof SandboxLimits)[]) {
    const [lo, hi] = BOUNDS[key];
    const v = Number((s as unknown as Record<string, unknown>)[key]);
    out[key] = Number.isFinite(v) ? Math.min(hi, Math.max(lo, Math.round(v))) : lo;
  }
  if (out.heartbeatTimeoutMs < out.heartbeatMs * 3) out.heartbeatTimeoutMs = out.heartbeatMs * 3;
  return out;
}

/** The per-run part, with optional overrides for this run (e.g. `--timeout`). */
export function runLimits(base: SandboxLimits, over: Partial<RunLimits> = {}): RunLimits {
  const pick = (k: keyof RunLimits): number => {
    const v = over[k];
    if (v === undefined) return base[k];
    const [lo, hi] = BOUNDS[k];
    return Math.min(hi, Math.max(lo, Math.round(v)));
  };
  const timeoutMs = pick('timeoutMs');
  return {
    timeoutMs,
    // A longer wall clock asked for one run lifts the CPU budget with it unless that was set too.
    cpuTimeMs: over.cpuTimeMs !== undefined ? pick('cpuTimeMs') : Math.max(base.cpuTimeMs, over.timeoutMs !== undefined ? timeoutMs : 0),
    memoryMb: pick('memoryMb'),
    maxOutputBytes: pick('maxOutputBytes'),
    maxLogBytes: pick('maxLogBytes'),
    maxCapabilityCalls: pick('maxCapabilityCalls'),
    maxPendingCalls: pick('maxPendingCalls'),
  };
}

/** Stable error codes, one per limit; the message always names the limit and its value. */
export const LIMIT_CODES = {
  timeout: 'limit.timeout',
  cpu: 'limit.cpu',
  memory: 'limit.memory',
  output: 'limit.output',
  log: 'limit.log',
  stack: 'limit.stack',
  capabilityCalls: 'limit.capability_calls',
  pendingCalls: 'limit.pending_calls',
  concurrency: 'limit.concurrency',
  fileSize: 'limit.file_size',
} as const;
