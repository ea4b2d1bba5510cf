// Sandbox limits: every limit a script run is held to, its default, its bounds, and the error that names it.
// Defaults come from settings.sandbox (config/settings.ts declares the limit types); a run may tighten or override timeoutMs.
import type { RunLimits, SandboxLimits, Settings } from '../config/index.js';

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
    cpuTimeMs:
      over.cpuTimeMs !== undefined
        ? pick('cpuTimeMs')
        : Math.max(base.cpuTimeMs, over.timeoutMs !== undefined ? timeoutMs : 0),
    memoryMb: pick('memoryMb'),
    maxOutputBytes: pick('maxOutputBytes'),
    maxLogBytes: pick('maxLogBytes'),
    maxCapabilityCalls: pick('maxCapabilityCalls'),
    maxPendingCalls: pick('maxPendingCalls'),
  };
}
