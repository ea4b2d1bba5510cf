// CLI for skill scripts: `knack skills run NAME SCRIPT` (a catalog skill's script) and `knack sandbox run FILE.js`
// (any script file, with the permissions of --skill's manifest or none). Both use the real sandbox and the real gate.
// `knack sandbox status`: whether commands run inside the OS sandbox (core/contain) here, and the fix when not.
import { existsSync, realpathSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { CliError, jsonFlag, printJson, stringFlag, type Command, type CommandContext, type Io } from './command.js';
import { approvalQuestion } from './approval.js';
import { confirmOf, openWorkspaceFor } from './workspace.js';
import type { Catalog } from '../core/skills/catalog/index.js';
import { parseSkillFile } from '../core/skills/format/index.js';
import { formatDiagnostic, hasErrors } from '../core/base/index.js';
import { skillFileIn } from '../core/skills/format/index.js';
import type { CatalogEntry } from '../core/skills/format/index.js';
import { rejectedPermissions } from '../core/skills/format/index.js';
import type { ScriptRunner } from '../core/sandbox/index.js';
import type { ScriptResult } from '../core/sandbox/index.js';
import type { ScriptSkill } from '../core/sandbox/index.js';
import type { Approver } from '../core/tools/index.js';
import { policyFromEntry, policyFromManifest } from '../core/sandbox/index.js';
import { SandboxError } from '../core/sandbox/index.js';
import { describeWall } from '../core/contain/index.js';

const NO_SKILL = '(no skill)';

const RUN_OPTIONS = {
  args: { type: 'string' as const },
  timeout: { type: 'string' as const },
};

interface Session {
  catalog: Catalog;
  /** A runner over the real gate and the registered tools; `extra` is an ad-hoc skill that is not in the catalog. */
  runnerFor(extra?: AdHocSkill): Promise<ScriptRunner>;
  close(): Promise<void>;
}

async function openSession(ctx: CommandContext): Promise<Session> {
  const confirm = confirmOf(ctx);
  // While the question is open the run's wall clock is held (see capabilities.ts).
  const approve: Approver | undefined = confirm
    ? async (req) => ((await confirm(approvalQuestion(req))) ? 'once' : 'deny')
    : undefined;
  // MCP connectors are not started for a CLI script run: knack.callTool reaches the built-in and skill tools.
  const ws = await openWorkspaceFor(ctx, { ...(approve ? { approveScript: approve } : {}) });
  return {
    catalog: ws.catalog,
    async runnerFor(extra) {
      // An ad-hoc skill (`sandbox run --skill DIR`) binds its own name first: the real gate (policy/setup.ts),
      // settings ceiling ∩ its manifest, with the stored rules.
      return extra ? ws.newScriptRunner(ws.gateWith([extra])) : ws.scriptRunner();
    },
    close: () => ws.close(),
  };
}

function timeoutFlag(ctx: CommandContext): number | undefined {
  const t = stringFlag(ctx, 'timeout');
  if (t === undefined) return undefined;
  const n = Number(t);
  if (!Number.isInteger(n) || n <= 0) throw new CliError(`--timeout: "${t}" is not a whole number of milliseconds`);
  return n;
}

function argsFlag(ctx: CommandContext): Record<string, unknown> {
  const a = jsonFlag(ctx, 'args');
  if (a === undefined) return {};
  if (typeof a !== 'object' || a === null || Array.isArray(a))
    throw new CliError('--args must be a JSON object, e.g. --args \'{"path": "notes.md"}\'');
  return a as Record<string, unknown>;
}

/** Print the outcome: logs went to stderr as they came; the value (or the error, one line) follows. */
function report(io: Io, json: boolean, label: string, r: ScriptResult): number {
  if (json) {
    printJson(io, r);
    return r.ok ? 0 : 1;
  }
  if (r.ok) {
    io.out(typeof r.value === 'string' ? r.value : JSON.stringify(r.value, null, 2));
    return 0;
  }
  io.err(`${label}: ${r.error.code}: ${r.error.message}`);
  return 1;
}

async function runWith(
  ctx: CommandContext,
  label: string,
  go: (onLog: (l: string) => void, timeoutMs?: number) => Promise<ScriptResult>,
): Promise<number> {
  const timeoutMs = timeoutFlag(ctx);
  const onLog = (line: string): void => {
    if (!ctx.json) ctx.io.err(`[${label}] ${line}`);
  };
  return report(ctx.io, ctx.json, label, await go(onLog, timeoutMs));
}

const skillsRun: Command = {
  path: ['skills', 'run'],
  summary:
    "Run a skill's JavaScript script in the sandbox (no network; bounded time, memory and output; file and tool access through the policy gate).",
  usage: 'NAME SCRIPT [--args JSON] [--timeout MS] [--json]',
  options: RUN_OPTIONS,
  async run(ctx) {
    const [name, script, ...rest] = ctx.positionals;
    if (!name || !script || rest.length) throw new CliError(`usage: knack skills run ${this.usage}`);
    const args = argsFlag(ctx);
    const session = await openSession(ctx);
    try {
      const entry = session.catalog.get(name);
      if (!entry) throw new CliError(`no skill named "${name}" in this workspace (see: knack skills list)`);
      if (!entry.enabled)
        throw new CliError(
          `skill "${entry.manifest.name}" is disabled${entry.disabledReason ? `: ${entry.disabledReason}` : ''}`,
        );
      try {
        policyFromEntry(entry);
      } catch (e) {
        throw new CliError((e as Error).message);
      }
      const skill: ScriptSkill = { name: entry.manifest.name, dir: entry.realDir, tier: entry.tier };
      const runner = await session.runnerFor();
      return await runWith(ctx, `${skill.name}/${script}`, (onLog, timeoutMs) =>
        runner.runSkillScript(skill, script, { args, onLog, ...(timeoutMs ? { limits: { timeoutMs } } : {}) }),
      );
    } finally {
      await session.close();
    }
  },
};

/** A skill given by folder (or none), shaped like a catalog entry for the gate. */
type AdHocSkill = Pick<CatalogEntry, 'file' | 'realDir' | 'manifest'>;

/** The skill a `sandbox run` acts as: --skill DIR's manifest, or a skill with no permissions at all. */
function adHocSkill(ctx: CommandContext): AdHocSkill {
  const dirFlag = stringFlag(ctx, 'skill');
  if (dirFlag === undefined) {
    // No SKILL.md behind it: the gate gives it no tools and no paths. Its "own folder" does not exist.
    const realDir = join(realpathSync(tmpdir()), `knack-no-skill-${process.pid}`);
    return {
      file: join(realDir, 'SKILL.md'),
      realDir,
      manifest: {
        name: NO_SKILL,
        description: '',
        metadata: {},
        allowedTools: [],
        readWhen: [],
        agentCreated: false,
        dependsOn: [],
        extra: {},
        requested: { permissions: rejectedPermissions(), diagnostics: [] },
      },
    };
  }
  const dir = resolve(dirFlag);
  const file = existsSync(dir) ? skillFileIn(dir) : undefined;
  if (!file) throw new CliError(`--skill ${dirFlag}: no SKILL.md in that folder`);
  const parsed = parseSkillFile(file, { folderName: null });
  if (!parsed.manifest || hasErrors(parsed.diagnostics)) {
    throw new CliError(
      `--skill ${dirFlag}: the skill does not parse:\n  ${parsed.diagnostics.map(formatDiagnostic).join('\n  ')}`,
    );
  }
  const realDir = realpathSync(dir);
  try {
    policyFromManifest(parsed.manifest.name, realDir, parsed.manifest);
  } catch (e) {
    throw new CliError(e instanceof SandboxError ? e.message : String(e));
  }
  return { file, realDir, manifest: parsed.manifest };
}

const sandboxRun: Command = {
  path: ['sandbox', 'run'],
  summary:
    "Run a JavaScript file in the sandbox with the permissions of --skill's manifest (none without it); installs nothing.",
  usage: 'FILE.js [--skill DIR] [--args JSON] [--timeout MS] [--json]',
  options: { ...RUN_OPTIONS, skill: { type: 'string' } },
  async run(ctx) {
    const [file, ...rest] = ctx.positionals;
    if (!file || rest.length) throw new CliError(`usage: knack sandbox run ${this.usage}`);
    const args = argsFlag(ctx);
    const adHoc = adHocSkill(ctx);
    const session = await openSession(ctx);
    try {
      const runner = await session.runnerFor(adHoc);
      const skill: ScriptSkill = { name: adHoc.manifest.name, dir: adHoc.realDir };
      return await runWith(ctx, basename(file), (onLog, timeoutMs) =>
        runner.runFile(resolve(file), skill, { args, onLog, ...(timeoutMs ? { limits: { timeoutMs } } : {}) }),
      );
    } finally {
      await session.close();
    }
  },
};

const sandboxStatus: Command = {
  path: ['sandbox', 'status'],
  summary:
    'Whether commands run inside the OS sandbox here: available, the backend, why not and the one-line fix. Exit 0 available, 1 not.',
  usage: '[--json]',
  maxPositionals: 0,
  async run(ctx) {
    const ws = await openWorkspaceFor(ctx);
    try {
      // Started as a tool call would start it: available only when a command really ran inside it.
      const wall = await ws.wall();
      const s = wall.status();
      if (ctx.json) printJson(ctx.io, s);
      else ctx.io.out(describeWall(s));
      return s.available ? 0 : 1;
    } finally {
      await ws.close();
    }
  },
};

export const sandboxCommands: Command[] = [skillsRun, sandboxRun, sandboxStatus];
