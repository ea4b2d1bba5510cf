// The main-process side of a script's capabilities: readFile, writeFile, listDir, callTool.
// Each call is validated, confined to its base folder by real path, and authorized by the gate with actor = the skill.
import { readdir } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { z } from 'zod';
import type { Actor, Gate, ToolCall } from '../policy/index.js';
import type { PolicyRepo } from '../store/index.js';
import { askApproval, type ApprovalAnswer, type ApprovalReply, type Approver } from '../tools/index.js';
import type { ToolContext, ToolResult } from '../tools/index.js';
import { HardLinkError, openReal, PathChangedError, readAll, writeReal, type OpenedFile } from '../tools/index.js';
import { isInside, realPathOf, realRoot } from '../base/index.js';
import { SandboxError, type CapabilityOp } from './protocol.js';
import type { CapabilityHandler, RunControls } from './client.js';
import type { SandboxLimits } from '../config/index.js';
import { TOOL } from '../policy/index.js';

/** The skill a script belongs to, as the sandbox needs it. */
export interface ScriptSkill {
  name: string;
  /** The skill folder (real path). */
  dir: string;
  /** builtin | user | project, when known: the script acts as this skill's identity (tier + folder). */
  tier?: string;
}

/** Who runs a script and where: handed to every capability call of that run. */
export interface ScriptContext {
  skill: ScriptSkill;
  workspace: string;
  signal?: AbortSignal;
}

/**
 * Runs a tool call the one allowed way (validate → access → gate → answer → handler): the tool executor
 * (tools/executor.ts). `over.approver` replaces its approver for this call (it holds the script's clock while asking).
 */
export interface ToolRunner {
  execute(name: string, args: unknown, ctx: ToolContext, over?: { approver?: Approver }): Promise<ToolResult>;
}

export interface CapabilityOptions {
  /** Authorizes the file capabilities (readFile, writeFile, listDir) with actor = the skill. */
  gate: Gate;
  /**
   * For callTool: a tool executor judged by the same gate. Every tool call of a script goes through it — the same
   * pipeline as the model's calls — with `approve` as its approver, holding the run's clock while it asks.
   */
  executor?: ToolRunner;
  limits: Pick<SandboxLimits, 'maxFileBytes' | 'maxListEntries'>;
  /** Answers `ask` (once | always | deny); without it every `ask` is refused. */
  approve?: Approver;
  /** Where an "always" for a file capability is kept (the store's policy repository). */
  rules?: PolicyRepo;
}

/** Tools a script may never call through callTool (no nested sandboxes). */
const NOT_CALLABLE = new Set<string>([TOOL.run_skill_script]);

const pathField = z
  .string()
  .min(1)
  .max(4096)
  .refine((p) => !p.includes('\0'), 'contains a NUL character');
const from = z.enum(['workspace', 'skill']).optional();
const payloads = {
  readFile: z.object({ path: pathField, from, encoding: z.enum(['utf8', 'base64']).optional() }).strict(),
  writeFile: z
    .object({ path: pathField, content: z.string(), from, encoding: z.enum(['utf8', 'base64']).optional() })
    .strict(),
  listDir: z.object({ path: pathField, from }).strict(),
  callTool: z.object({ name: z.string().min(1).max(200), args: z.record(z.string(), z.unknown()) }).strict(),
};

function parsePayload<K extends CapabilityOp>(op: K, payload: unknown): z.infer<(typeof payloads)[K]> {
  const r = payloads[op].safeParse(payload);
  if (r.success) return r.data as z.infer<(typeof payloads)[K]>;
  const issue = r.error.issues[0];
  const field = issue?.path.length ? issue.path.join('.') : 'arguments';
  throw new SandboxError('capability.bad_arguments', `knack.${op}: ${field}: ${issue?.message ?? 'invalid'}`);
}

interface Target {
  /** As the script wrote it. */
  given: string;
  /** Absolute real path (for a missing file: real parent + name). */
  real: string;
  exists: boolean;
}

/** Resolve a script's path inside its base folder; anything that leaves it (by `..`, absolute path or symlink) is refused. */
function confine(
  op: CapabilityOp,
  given: string,
  fromWhere: 'workspace' | 'skill' | undefined,
  ctx: ScriptContext,
): Target {
  const baseName = fromWhere === 'skill' ? `the skill folder of "${ctx.skill.name}"` : 'the workspace';
  const base = realRoot(fromWhere === 'skill' ? ctx.skill.dir : ctx.workspace);
  if (isAbsolute(given) || /^[a-zA-Z]:/.test(given) || given.startsWith('\\\\')) {
    throw new SandboxError(
      'capability.denied',
      `knack.${op}("${given}"): paths are relative to ${baseName}, not absolute`,
      { path: given },
    );
  }
  const lexical = resolve(base, given);
  if (!isInside(lexical, base)) {
    throw new SandboxError('capability.denied', `knack.${op}("${given}"): leaves ${baseName}`, { path: given });
  }
  const rp = realPathOf(lexical, base);
  if (!isInside(rp.real, base)) {
    throw new SandboxError(
      'capability.denied',
      `knack.${op}("${given}"): a symlink leads out of ${baseName} (to ${rp.real})`,
      { path: given },
    );
  }
  return { given, real: rp.real, exists: rp.exists };
}

/** The approver for one run: it holds the run's wall clock while the user thinks, and an answer after the run ended is "deny". */
function holdingApprover(approve: Approver | undefined, run: RunControls): Approver | undefined {
  if (!approve) return undefined;
  return async (req) => {
    // The user's thinking time does not count against the script's time limit.
    const release = run.hold();
    let answer: ApprovalAnswer | ApprovalReply;
    try {
      answer = await approve(req);
    } finally {
      release();
    }
    return run.signal.aborted ? 'deny' : answer;
  };
}

async function authorize(
  opts: CapabilityOptions,
  call: ToolCall,
  actor: Actor,
  ctx: ScriptContext,
  label: string,
  run: RunControls,
): Promise<void> {
  if (run.signal.aborted) throw new SandboxError('run.ended', `${label}: the script already ended`);
  const d = opts.gate.authorize(call, actor);
  if (d.verdict === 'allow') return;
  if (d.verdict === 'ask') {
    const approver = holdingApprover(opts.approve, run);
    const asked = await askApproval(
      { ...call, actor, reason: d.reason, decision: d },
      { ...(approver ? { approver } : {}), ...(opts.rules ? { rules: opts.rules } : {}), workspace: ctx.workspace },
    );
    if (run.signal.aborted) throw new SandboxError('run.ended', `${label}: the script ended before the approval came`);
    if (asked.allowed) {
      // Judged again once answered: a ceiling narrowed (or a deny rule added) while the question waited still holds.
      const again = opts.gate.authorize(call, actor);
      if (again.verdict === 'deny')
        throw new SandboxError('capability.denied', `${label}: denied: ${again.reason}`, { decision: again });
      return;
    }
    throw new SandboxError(
      'capability.needs_approval',
      `${label}: needs your approval, which was not given: ${d.reason}`,
      { decision: d },
    );
  }
  throw new SandboxError('capability.denied', `${label}: denied: ${d.reason}`, { decision: d });
}

/** The executor's refusals, in the sandbox's words (what scripts have always been told). */
const TOOL_TO_CAPABILITY: Record<string, string> = {
  'tool.unknown': 'capability.unknown_tool',
  'tool.invalid_args': 'capability.bad_arguments',
  'tool.schema': 'capability.bad_arguments',
  'tool.denied': 'capability.denied',
  'tool.declined': 'capability.needs_approval',
};

export function createCapabilityHandler(opts: CapabilityOptions): CapabilityHandler<ScriptContext> {
  return async (op, payload, ctx, run) => {
    // The script acts as the skill it was started as (by identity, not only the name): the gate refuses the call if
    // the name now stands for another folder or tier.
    const actor: Actor = {
      kind: 'skill',
      skill: ctx.skill.name,
      identity: { name: ctx.skill.name, dir: ctx.skill.dir, ...(ctx.skill.tier ? { tier: ctx.skill.tier } : {}) },
    };
    switch (op) {
      case 'readFile': {
        const p = parsePayload('readFile', payload);
        const t = confine(op, p.path, p.from, ctx);
        await authorize(
          opts,
          { tool: TOOL.read_file, args: { path: t.real }, access: { read: [t.real] } },
          actor,
          ctx,
          `knack.readFile("${p.path}")`,
          run,
        );
        // Opened once by the checked real path (the same opener as the file tools): a swapped symlink is refused.
        let f: OpenedFile;
        try {
          f = openReal(t.real);
        } catch (e) {
          const code = (e as NodeJS.ErrnoException).code;
          if (code === 'ENOENT')
            throw new SandboxError('capability.not_found', `knack.readFile("${p.path}"): no such file`);
          if (e instanceof PathChangedError || code === 'ELOOP')
            throw new SandboxError('capability.denied', `knack.readFile("${p.path}"): ${(e as Error).message}`);
          throw e;
        }
        try {
          if (!f.stat.isFile())
            throw new SandboxError('capability.not_a_file', `knack.readFile("${p.path}"): not a file`);
          if (f.stat.size > opts.limits.maxFileBytes) {
            throw new SandboxError(
              'limit.file_size',
              `knack.readFile("${p.path}"): the file is ${f.stat.size} bytes, over the ${opts.limits.maxFileBytes}-byte limit (maxFileBytes)`,
              { limit: opts.limits.maxFileBytes },
            );
          }
          const buf = readAll(f, opts.limits.maxFileBytes);
          return p.encoding === 'base64' ? buf.toString('base64') : buf.toString('utf8');
        } finally {
          f.close();
        }
      }
      case 'writeFile': {
        const p = parsePayload('writeFile', payload);
        if (p.from === 'skill') {
          throw new SandboxError(
            'capability.denied',
            `knack.writeFile("${p.path}"): a skill's own folder is read-only`,
          );
        }
        const data = p.encoding === 'base64' ? Buffer.from(p.content, 'base64') : Buffer.from(p.content, 'utf8');
        if (data.length > opts.limits.maxFileBytes) {
          throw new SandboxError(
            'limit.file_size',
            `knack.writeFile("${p.path}"): ${data.length} bytes is over the ${opts.limits.maxFileBytes}-byte limit (maxFileBytes)`,
            { limit: opts.limits.maxFileBytes },
          );
        }
        const t = confine(op, p.path, p.from, ctx);
        await authorize(
          opts,
          { tool: TOOL.write_file, args: { path: t.real }, access: { write: [t.real] } },
          actor,
          ctx,
          `knack.writeFile("${p.path}")`,
          run,
        );
        // The shared writer (tools/safe-fs.ts): through a verified folder handle, never a swapped symlink or a hard link.
        try {
          writeReal(t.real, data, { mkdirs: true });
        } catch (e) {
          if (
            e instanceof PathChangedError ||
            e instanceof HardLinkError ||
            (e as NodeJS.ErrnoException).code === 'ELOOP'
          ) {
            throw new SandboxError('capability.denied', `knack.writeFile("${p.path}"): ${(e as Error).message}`);
          }
          throw e;
        }
        return { path: p.path, bytes: data.length };
      }
      case 'listDir': {
        const p = parsePayload('listDir', payload);
        const t = confine(op, p.path, p.from, ctx);
        await authorize(
          opts,
          { tool: TOOL.list_dir, args: { path: t.real }, access: { read: [t.real] } },
          actor,
          ctx,
          `knack.listDir("${p.path}")`,
          run,
        );
        const entries = await readdir(t.real, { withFileTypes: true }).catch((e: NodeJS.ErrnoException) => {
          throw new SandboxError(
            e.code === 'ENOENT' ? 'capability.not_found' : 'capability.failed',
            `knack.listDir("${p.path}"): ${e.code === 'ENOENT' ? 'no such folder' : e.message}`,
          );
        });
        const list = entries
          .map((e) => ({
            name: e.name,
            type: e.isDirectory() ? 'dir' : e.isFile() ? 'file' : e.isSymbolicLink() ? 'symlink' : 'other',
          }))
          .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
        return {
          entries: list.slice(0, opts.limits.maxListEntries),
          truncated: list.length > opts.limits.maxListEntries,
        };
      }
      case 'callTool': {
        const p = parsePayload('callTool', payload);
        const label = `knack.callTool("${p.name}")`;
        if (NOT_CALLABLE.has(p.name))
          throw new SandboxError('capability.denied', `${label}: scripts cannot start other scripts`);
        // The tool is cancelled when the run ends (deadline, limit, crash).
        const toolCtx: ToolContext = {
          workspace: ctx.workspace,
          actor,
          signal: ctx.signal ? AbortSignal.any([ctx.signal, run.signal]) : run.signal,
        };
        if (!opts.executor)
          throw new SandboxError('capability.unknown_tool', `${label}: no tools are reachable from scripts here`);
        if (run.signal.aborted) throw new SandboxError('run.ended', `${label}: the script already ended`);
        const approver = holdingApprover(opts.approve, run);
        // An approver that always declines stands in for "nobody can approve": the run's own approver, never the app's.
        const result = await opts.executor.execute(p.name, p.args, toolCtx, {
          approver: approver ?? (async () => 'deny'),
        });
        if (result.ok) return result.content;
        const mapped = TOOL_TO_CAPABILITY[result.error.code];
        const code =
          mapped ?? (result.error.code.startsWith('tool.') ? result.error.code : `tool.${result.error.code}`);
        const reason = (result.error.details as { reason?: string } | undefined)?.reason;
        const message =
          reason && code === 'capability.denied'
            ? `denied: ${reason}`
            : reason && code === 'capability.needs_approval'
              ? `needs your approval, which was not given: ${reason}`
              : result.error.message;
        throw new SandboxError(code.slice(0, 100), `${label}: ${message}`, result.error.details);
      }
    }
  };
}
