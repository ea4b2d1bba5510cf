// The main-process side of a script's capabilities: readFile, writeFile, listDir, callTool.
// Each call is validated, confined to its base folder by real path, and authorized by the gate with actor = the skill.
import { readdir } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { z } from 'zod';
import type { Actor, Decision, Gate, ToolCall } from '../policy/types.js';
import type { ToolContext, ToolDefinition, ToolResult } from '../tools/types.js';
import { withGrants } from '../tools/grants.js';
import { HardLinkError, openReal, PathChangedError, readAll, writeReal, type OpenedFile } from '../tools/safe-fs.js';
import { isInside, realPathOf, realRoot } from '../base/paths.js';
import { SandboxError, type CapabilityOp } from './protocol.js';
import type { CapabilityHandler, RunControls } from './client.js';
import type { SandboxLimits } from '../config/settings.js';

/** The skill a script belongs to, as the sandbox needs it. */
export interface ScriptSkill {
  name: string;
  /** The skill folder (real path). */
  dir: string;
}

/** Who runs a script and where: handed to every capability call of that run. */
export interface ScriptContext {
  skill: ScriptSkill;
  workspace: string;
  signal?: AbortSignal;
}

/** Looks tools up by name for `callTool` (the tool registry). */
export interface ToolLookup {
  get(name: string): ToolDefinition<Record<string, unknown>> | undefined | Promise<ToolDefinition<Record<string, unknown>> | undefined>;
  /** Check the arguments against the tool's schema: a readable problem, or undefined when they are fine. */
  problems?(name: string, args: Record<string, unknown>): string | undefined | Promise<string | undefined>;
}

/** The tool registry as a ToolLookup (schema validation included). */
export function registryLookup(registry: {
  get(name: string): { def: ToolDefinition<Record<string, unknown>> } | undefined;
  validate(name: string, args: unknown): { field: string; message: string }[];
}): ToolLookup {
  return {
    get: (name) => registry.get(name)?.def,
    problems: (name, args) => {
      const list = registry.validate(name, args);
      return list.length ? list.map((p) => `${p.field}: ${p.message}`).join('; ') : undefined;
    },
  };
}

/** Asked when the gate says `ask`; resolve true to allow this one call. The run's wall clock is held meanwhile. */
export type ApproveHook = (call: ToolCall, actor: Actor, decision: Decision) => Promise<boolean>;

/** Runs a tool call the one allowed way (validate → access → gate → approval → handler): the tool executor. */
export interface ToolRunner {
  execute(name: string, args: unknown, ctx: ToolContext): Promise<ToolResult>;
}

export interface CapabilityOptions {
  gate: Gate;
  /**
   * For callTool: the tool registry (see registryLookup). The call is validated, then authorized by `gate` here,
   * so an approval holds the run's clock like any other capability.
   */
  tools?: ToolLookup;
  /** Alternatively the app's tool executor (it authorizes with ctx.actor = the skill; its approvals do not hold the clock). */
  executor?: ToolRunner;
  limits: Pick<SandboxLimits, 'maxFileBytes' | 'maxListEntries'>;
  approve?: ApproveHook;
}

/** Tools a script may never call through callTool (no nested sandboxes). */
const NOT_CALLABLE = new Set(['run_skill_script']);

const pathField = z.string().min(1).max(4096).refine((p) => !p.includes('\0'), 'contains a NUL character');
const from = z.enum(['workspace', 'skill']).optional();
const payloads = {
  readFile: z.object({ path: pathField, from, encoding: z.enum(['utf8', 'base64']).optional() }).strict(),
  writeFile: z.object({ path: pathField, content: z.string(), from, encoding: z.enum(['utf8', 'base64']).optional() }).strict(),
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
function confine(op: CapabilityOp, given: string, fromWhere: 'workspace' | 'skill' | undefined, ctx: ScriptContext): Target {
  const baseName = fromWhere === 'skill' ? `the skill folder of "${ctx.skill.name}"` : 'the workspace';
  const base = realRoot(fromWhere === 'skill' ? ctx.skill.dir : ctx.workspace);
  if (isAbsolute(given) || /^[a-zA-Z]:/.test(given) || given.startsWith('\\\\')) {
    throw new SandboxError('capability.denied', `knack.${op}("${given}"): paths are relative to ${baseName}, not absolute`, { path: given });
  }
  const lexical = resolve(base, given);
  if (!isInside(lexical, base)) {
    throw new SandboxError('capability.denied', `knack.${op}("${given}"): leaves ${baseName}`, { path: given });
  }
  const rp = realPathOf(lexical, base);
  if (!isInside(rp.real, base)) {
    throw new SandboxError('capability.denied', `knack.${op}("${given}"): a symlink leads out of ${baseName} (to ${rp.real})`, { path: given });
  }
  return { given, real: rp.real, exists: rp.exists };
}

async function authorize(opts: CapabilityOptions, call: ToolCall, actor: Actor, label: string, run: RunControls): Promise<Decision> {
  if (run.signal.aborted) throw new SandboxError('run.ended', `${label}: the script already ended`);
  const d = opts.gate.authorize(call, actor);
  if (d.verdict === 'allow') return d;
  if (d.verdict === 'ask') {
    if (opts.approve) {
      // The user's thinking time does not count against the script's time limit.
      const release = run.hold();
      let yes = false;
      try {
        yes = await opts.approve(call, actor, d);
      } finally {
        release();
      }
      if (yes) {
        if (run.signal.aborted) throw new SandboxError('run.ended', `${label}: the script ended before the approval came`);
        return d;
      }
    }
    throw new SandboxError('capability.needs_approval', `${label}: needs your approval, which was not given: ${d.reason}`, { decision: d });
  }
  throw new SandboxError('capability.denied', `${label}: denied: ${d.reason}`, { decision: d });
}

export function createCapabilityHandler(opts: CapabilityOptions): CapabilityHandler<ScriptContext> {
  return async (op, payload, ctx, run) => {
    const actor: Actor = { kind: 'skill', skill: ctx.skill.name };
    switch (op) {
      case 'readFile': {
        const p = parsePayload('readFile', payload);
        const t = confine(op, p.path, p.from, ctx);
        await authorize(opts, { tool: 'read_file', args: { path: t.real }, access: { read: [t.real] } }, actor, `knack.readFile("${p.path}")`, run);
        // Opened once by the checked real path (the same opener as the file tools): a swapped symlink is refused.
        let f: OpenedFile;
        try {
          f = openReal(t.real);
        } catch (e) {
          const code = (e as NodeJS.ErrnoException).code;
          if (code === 'ENOENT') throw new SandboxError('capability.not_found', `knack.readFile("${p.path}"): no such file`);
          if (e instanceof PathChangedError || code === 'ELOOP') throw new SandboxError('capability.denied', `knack.readFile("${p.path}"): ${(e as Error).message}`);
          throw e;
        }
        try {
          if (!f.stat.isFile()) throw new SandboxError('capability.not_a_file', `knack.readFile("${p.path}"): not a file`);
          if (f.stat.size > opts.limits.maxFileBytes) {
            throw new SandboxError('limit.file_size', `knack.readFile("${p.path}"): the file is ${f.stat.size} bytes, over the ${opts.limits.maxFileBytes}-byte limit (maxFileBytes)`, { limit: opts.limits.maxFileBytes });
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
          throw new SandboxError('capability.denied', `knack.writeFile("${p.path}"): a skill's own folder is read-only`);
        }
        const data = p.encoding === 'base64' ? Buffer.from(p.content, 'base64') : Buffer.from(p.content, 'utf8');
        if (data.length > opts.limits.maxFileBytes) {
          throw new SandboxError('limit.file_size', `knack.writeFile("${p.path}"): ${data.length} bytes is over the ${opts.limits.maxFileBytes}-byte limit (maxFileBytes)`, { limit: opts.limits.maxFileBytes });
        }
        const t = confine(op, p.path, p.from, ctx);
        await authorize(opts, { tool: 'write_file', args: { path: t.real }, access: { write: [t.real] } }, actor, `knack.writeFile("${p.path}")`, run);
        // The shared writer (tools/safe-fs.ts): through a verified folder handle, never a swapped symlink or a hard link.
        try {
          writeReal(t.real, data, { mkdirs: true });
        } catch (e) {
          if (e instanceof PathChangedError || e instanceof HardLinkError || (e as NodeJS.ErrnoException).code === 'ELOOP') {
            throw new SandboxError('capability.denied', `knack.writeFile("${p.path}"): ${(e as Error).message}`);
          }
          throw e;
        }
        return { path: p.path, bytes: data.length };
      }
      case 'listDir': {
        const p = parsePayload('listDir', payload);
        const t = confine(op, p.path, p.from, ctx);
        await authorize(opts, { tool: 'list_dir', args: { path: t.real }, access: { read: [t.real] } }, actor, `knack.listDir("${p.path}")`, run);
        const entries = await readdir(t.real, { withFileTypes: true }).catch((e: NodeJS.ErrnoException) => {
          throw new SandboxError(e.code === 'ENOENT' ? 'capability.not_found' : 'capability.failed', `knack.listDir("${p.path}"): ${e.code === 'ENOENT' ? 'no such folder' : e.message}`);
        });
        const list = entries
          .map((e) => ({ name: e.name, type: e.isDirectory() ? 'dir' : e.isFile() ? 'file' : e.isSymbolicLink() ? 'symlink' : 'other' }))
          .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
        return { entries: list.slice(0, opts.limits.maxListEntries), truncated: list.length > opts.limits.maxListEntries };
      }
      case 'callTool': {
        const p = parsePayload('callTool', payload);
        const label = `knack.callTool("${p.name}")`;
        if (NOT_CALLABLE.has(p.name)) throw new SandboxError('capability.denied', `${label}: scripts cannot start other scripts`);
        // The tool is cancelled when the run ends (deadline, limit, crash).
        const toolCtx: ToolContext = { workspace: ctx.workspace, actor, signal: ctx.signal ? AbortSignal.any([ctx.signal, run.signal]) : run.signal };
        if (opts.executor && !opts.tools) {
          const result = await opts.executor.execute(p.name, p.args, toolCtx);
          if (result.ok) return result.content;
          const code = result.error.code.startsWith('tool.') ? result.error.code : `tool.${result.error.code}`;
          throw new SandboxError(code.slice(0, 100), `${label}: ${result.error.message}`, result.error.details);
        }
        const tool = await opts.tools?.get(p.name);
        if (!tool) throw new SandboxError('capability.unknown_tool', `${label}: no tool of that name`);
        const problem = await opts.tools?.problems?.(p.name, p.args);
        if (problem) throw new SandboxError('capability.bad_arguments', `${label}: ${problem}`);
        let access;
        try {
          access = tool.access(p.args, toolCtx);
        } catch (e) {
          throw new SandboxError('capability.bad_arguments', `${label}: ${(e as Error).message}`);
        }
        const decision = await authorize(opts, { tool: p.name, args: p.args, access }, actor, label, run);
        const result = await tool.handler(p.args, withGrants(toolCtx, opts.gate, p.name, p.args, decision));
        if (result.ok) return result.content;
        const code = result.error.code.startsWith('tool.') ? result.error.code : `tool.${result.error.code}`;
        throw new SandboxError(code.slice(0, 100), `${label}: ${result.error.message}`, result.error.details);
      }
    }
  };
}
