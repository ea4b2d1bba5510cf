// The tool registry's shared types: a tool's definition and the context its handler runs with.
import type { Access, Actor, Decision } from '../policy/index.js';
import type { AccessClass } from '../policy/index.js';
import type { ProcessGroupRecord } from './process-group.js';
import type { z } from 'zod';
import type { Said } from '../base/index.js';

export type JsonSchema = Record<string, unknown>;

/** What a call does (the tool table's access class): the gate's plan mode and listings read it. */
export type RiskClass = AccessClass;

export interface ToolContext {
  workspace: string;
  actor: Actor;
  signal?: AbortSignal;
  /** The gate's decision for this call (with the real paths it checked); the file tools open exactly those. */
  decision?: Decision;
  /**
   * For tools that return files other than the ones named in their call (grep, glob, list_dir): may the caller
   * read this absolute path under the same grants? Set by whoever authorized the call (see policy/read-check.ts).
   */
  mayRead?: (path: string) => boolean;
  /**
   * A tool that starts processes tells their group here as soon as it has started it (the agent stores it with the
   * call, so a group left by a crash is ended at recovery).
   */
  onProcess?: (g: ProcessGroupRecord) => void;
}

/** What a tool returns to the model: content on success, a structured error otherwise. */
/**
 * A tool's answer. A failure the window words (a refusal by the gate or the user) also carries `said`: its message as
 * words the window says in its language. The model reads `error` only.
 */
export type ToolResult =
  | { ok: true; content: unknown }
  | { ok: false; error: { code: string; message: string; details?: unknown }; said?: Said };

export interface ToolDefinition<A = Record<string, unknown>> {
  /** Unique; connector tools are `mcp__<server>__<tool>`. */
  name: string;
  /** One line, for search results and the deferred catalog. */
  summary: string;
  /** Full description, sent with the schema. */
  description: string;
  /** The arguments' JSON Schema, as the model reads it (derived from `input` for Knack's own tools: define.ts). */
  inputSchema: JsonSchema;
  /** Knack's own tools: the zod schema each call is validated with. Without it, `inputSchema` is checked (Ajv). */
  input?: z.ZodType;
  /** Kept out of the prompt until found with ToolSearch. */
  deferLoading: boolean;
  risk: RiskClass;
  /** What the call would touch, for the gate. Pure: no I/O. */
  access(args: A, ctx: ToolContext): Access;
  /**
   * Awaited before the gate decides a call: what the decision depends on that is still starting (bash: the sandbox,
   * for a bounded time; past it the gate decides as if it were not there). Never rejects.
   */
  ready?(): Promise<void>;
  handler(args: A, ctx: ToolContext): Promise<ToolResult>;
}

export type { Access, Actor, Decision };
