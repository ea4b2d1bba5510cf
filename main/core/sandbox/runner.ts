// The script runner the app, the agent tool and the CLI share: one sandbox client wired to the capability handler.
// Give it the gate and tool registry; ask it to run a skill's script (by name) or any JavaScript file for a skill.
import { SandboxClient, type ScriptResult } from './client.js';
import { createCapabilityHandler, type ScriptContext, type ScriptSkill, type ToolRunner } from './capabilities.js';
import type { Approver } from '../tools/index.js';
import type { PolicyRepo } from '../store/index.js';
import type { RunLimits, SandboxLimits } from '../config/index.js';
import type { SpawnHost } from './spawn.js';
import type { Gate } from '../policy/index.js';
import { findSkillScript, readScriptFile } from './script-file.js';
import { SandboxError } from './protocol.js';

export interface ScriptRunnerOptions {
  /** The policy gate: every capability call of a script is authorized here with actor = its skill. */
  gate: Gate;
  workspace: string;
  limits: SandboxLimits;
  /** For knack.callTool: a tool executor judged by the same gate (scripts' tool calls take the model's pipeline). */
  executor?: ToolRunner;
  /** Answers `ask` for the scripts' calls (once | always | deny); the run's clock is held while it asks. */
  approve?: Approver;
  /** Where an "always" is kept (the store's policy repository). */
  rules?: PolicyRepo;
  spawn?: SpawnHost;
}

export interface RunOptions {
  args?: unknown;
  limits?: Partial<RunLimits>;
  onLog?: (line: string) => void;
  signal?: AbortSignal;
}

export interface ScriptRunner {
  /** Run `<skill.dir>/scripts/<script>`. */
  runSkillScript(skill: ScriptSkill, script: string, opts?: RunOptions): Promise<ScriptResult>;
  /** Run any JavaScript file with the permissions of `skill` (for authors: `knack sandbox run`). */
  runFile(file: string, skill: ScriptSkill, opts?: RunOptions): Promise<ScriptResult>;
  readonly client: SandboxClient<ScriptContext>;
  close(): Promise<void>;
}

function errorResult(e: unknown): ScriptResult {
  if (e instanceof SandboxError) return { ok: false, error: e.toJSON(), logs: [] };
  return { ok: false, error: { code: 'script.error', message: (e as Error).message ?? String(e) }, logs: [] };
}

export function createScriptRunner(opts: ScriptRunnerOptions): ScriptRunner {
  const client = new SandboxClient<ScriptContext>({
    limits: opts.limits,
    capabilities: createCapabilityHandler({
      gate: opts.gate,
      limits: opts.limits,
      ...(opts.executor ? { executor: opts.executor } : {}),
      ...(opts.approve ? { approve: opts.approve } : {}),
      ...(opts.rules ? { rules: opts.rules } : {}),
    }),
    ...(opts.spawn ? { spawn: opts.spawn } : {}),
  });
  const go = (src: { source: string; filename: string }, skill: ScriptSkill, o: RunOptions): Promise<ScriptResult> =>
    client.run({
      source: src.source,
      filename: src.filename,
      args: o.args ?? {},
      context: { skill, workspace: opts.workspace, ...(o.signal ? { signal: o.signal } : {}) },
      ...(o.limits ? { limits: o.limits } : {}),
      ...(o.onLog ? { onLog: o.onLog } : {}),
      ...(o.signal ? { signal: o.signal } : {}),
    });
  return {
    client,
    async runSkillScript(skill, script, o = {}) {
      try {
        return await go(await findSkillScript(skill.name, skill.dir, script), skill, o);
      } catch (e) {
        return errorResult(e);
      }
    },
    async runFile(file, skill, o = {}) {
      try {
        return await go(await readScriptFile(file), skill, o);
      } catch (e) {
        return errorResult(e);
      }
    },
    close: () => client.close(),
  };
}
