// The typed message protocol between the sandbox client (main process) and the host process.
// Every message is validated on arrival (zod); unknown or malformed messages are rejected with a structured error.
import { z } from 'zod';
import type { RunLimits } from '../config/index.js';

/** A structured error that crosses every boundary: a stable code, a sentence for people, optional details. */
export interface SandboxErrorData {
  code: string;
  message: string;
  details?: unknown;
}

export class SandboxError extends Error {
  readonly code: string;
  readonly details?: unknown;
  constructor(code: string, message: string, details?: unknown) {
    super(message);
    this.name = 'SandboxError';
    this.code = code;
    if (details !== undefined) this.details = details;
  }
  toJSON(): SandboxErrorData {
    return { code: this.code, message: this.message, ...(this.details !== undefined ? { details: this.details } : {}) };
  }
}

const errorSchema = z.object({
  code: z.string().max(200),
  message: z.string().max(20_000),
  details: z.unknown().optional(),
});

/** File capabilities a script may ask for, plus calling another tool. `log` never leaves the host as a capability. */
export const CAPABILITY_OPS = ['readFile', 'writeFile', 'listDir', 'callTool'] as const;
export type CapabilityOp = (typeof CAPABILITY_OPS)[number];

const limitsSchema = z.object({
  timeoutMs: z.number().int().positive(),
  cpuTimeMs: z.number().int().positive(),
  memoryMb: z.number().int().min(8),
  maxOutputBytes: z.number().int().positive(),
  maxLogBytes: z.number().int().nonnegative(),
  maxCapabilityCalls: z.number().int().nonnegative(),
  maxPendingCalls: z.number().int().positive(),
});

// ---- client → host ----

export const runRequestSchema = z.object({
  type: z.literal('run'),
  runId: z.string().min(1).max(100),
  /** The script's source text (ES module). */
  source: z.string(),
  /** A display name for stack traces, e.g. `skills/foo/scripts/bar.mjs`. */
  filename: z.string().max(4096),
  /** The arguments, already serialised: only strings cross into the isolate. */
  argsJson: z.string(),
  limits: limitsSchema,
});

const capabilityReplySchema = z.object({
  type: z.literal('capResult'),
  runId: z.string(),
  callId: z.number().int(),
  ok: z.boolean(),
  /** JSON text of the value when ok. */
  valueJson: z.string().optional(),
  error: errorSchema.optional(),
});

const cancelSchema = z.object({ type: z.literal('cancel'), runId: z.string(), reason: errorSchema });

/** Stop / restart a run's wall clock while the main process waits for the user to approve one of its calls. */
const holdSchema = z.object({ type: z.enum(['hold', 'release']), runId: z.string() });

export const clientMessageSchema = z.union([runRequestSchema, capabilityReplySchema, cancelSchema, holdSchema]);
export type RunRequest = z.infer<typeof runRequestSchema>;
export type ClientMessage = z.infer<typeof clientMessageSchema>;

// ---- host → client ----

export const runStatsSchema = z.object({
  wallMs: z.number(),
  cpuMs: z.number(),
  capabilityCalls: z.number(),
  logBytes: z.number(),
});
export type RunStats = z.infer<typeof runStatsSchema>;

export const hostMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready'), pid: z.number(), isolatedVm: z.string() }),
  z.object({ type: z.literal('heartbeat'), at: z.number(), activeRuns: z.number() }),
  /** `knack.log` lines, batched by the host so a flood of calls is a handful of messages. */
  z.object({ type: z.literal('log'), runId: z.string(), lines: z.array(z.string()) }),
  z.object({
    type: z.literal('cap'),
    runId: z.string(),
    callId: z.number().int(),
    op: z.enum(CAPABILITY_OPS),
    /** JSON text of the payload; parsed and validated by the main process. */
    payloadJson: z.string(),
  }),
  z.object({
    type: z.literal('result'),
    runId: z.string(),
    ok: z.boolean(),
    /** JSON text of the script's return value when ok. */
    valueJson: z.string().optional(),
    error: errorSchema.optional(),
    stats: runStatsSchema,
  }),
  /** A message the host could not understand: reported back, never acted on. */
  z.object({ type: z.literal('protocolError'), error: errorSchema }),
]);
export type HostMessage = z.infer<typeof hostMessageSchema>;

export type Parsed<T> = { ok: true; message: T } | { ok: false; error: SandboxErrorData };

function describe(raw: unknown): string {
  if (raw && typeof raw === 'object' && 'type' in raw)
    return `"${String((raw as { type: unknown }).type).slice(0, 60)}"`;
  return typeof raw;
}

function parseWith<T>(schema: z.ZodType<T>, raw: unknown, side: string): Parsed<T> {
  const r = schema.safeParse(raw);
  if (r.success) return { ok: true, message: r.data };
  const issue = r.error.issues[0];
  const where = issue && issue.path.length ? issue.path.join('.') + ': ' : '';
  return {
    ok: false,
    error: {
      code: 'protocol.invalid_message',
      message: `${side} rejected message ${describe(raw)}: ${where}${issue?.message ?? 'invalid'}`,
    },
  };
}

export function parseClientMessage(raw: unknown): Parsed<ClientMessage> {
  return parseWith(clientMessageSchema, raw, 'sandbox host');
}

export function parseHostMessage(raw: unknown): Parsed<HostMessage> {
  return parseWith(hostMessageSchema, raw, 'sandbox client');
}

/** The limits part of a run request. The check below fails to compile if it drifts from RunLimits. */
export type WireLimits = RunRequest['limits'];
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
true satisfies Same<WireLimits, RunLimits>;
