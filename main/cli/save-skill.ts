// `/save-skill` in `knack chat`: the window's Save as skill on the terminal. The model drafts the last task as a
// SKILL.md (permissions from the task's own calls), the draft and its audit are shown, and it installs as any
// `knack skills install` does (P0 refused, P1 asked), marked `agent_created: true`. A draft not installed is kept.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { draftSkill, NoStepsError, type ChatSession } from '../core/agent/index.js';
import { displaySafeLines } from '../core/policy/index.js';
import { approvePendingInstall, auditSkill, installSkill } from '../core/skills/trust/index.js';
import { withAgentCreated } from '../core/skills/use/index.js';
import type { KnackWorkspace } from '../core/workspace.js';
import type { CommandContext } from './command.js';
import { printInstall, printReport, tierRootFor } from './trust.js';

/** Ask one line on the terminal (undefined: the terminal closed or there is none). */
export type AskLine = (prompt: string) => Promise<string | undefined>;

/** The draft on disk, where the audit and the install read it: <dataDir>/drafts/<random>/<name>/SKILL.md. */
function writeDraft(dataDir: string, name: string, text: string): string {
  const root = join(dataDir, 'drafts');
  mkdirSync(root, { recursive: true, mode: 0o700 });
  const dir = join(mkdtempSync(join(root, 'draft-')), name);
  mkdirSync(dir);
  writeFileSync(join(dir, 'SKILL.md'), text, { mode: 0o600, flag: 'wx' });
  return dir;
}

const nameOf = (text: string) => /^name:\s*(\S+)\s*$/m.exec(text)?.[1] ?? 'skill';

async function scopeOf(arg: string, ask: AskLine): Promise<'user' | 'project' | undefined> {
  let a = arg.trim().toLowerCase();
  for (;;) {
    if (a === 'user' || a === 'u') return 'user';
    if (a === 'project' || a === 'p') return 'project';
    if (a === 'no' || a === 'n') return undefined;
    const got = await ask('  install it for [u]ser (every folder), [p]roject (this folder), or [n]o?');
    if (got === undefined) return undefined;
    a = got.trim().toLowerCase() || 'n';
  }
}

/**
 * Draft, show, audit and (asked) install the conversation's last task as a skill. `arg` may name the scope (user or
 * project) to skip that question. Returns the installed skill's name, or undefined.
 */
export async function saveSkill(
  ctx: CommandContext,
  ws: KnackWorkspace,
  chat: ChatSession,
  arg: string,
  ask: AskLine,
): Promise<string | undefined> {
  const provider = chat.provider;
  if (!provider) {
    ctx.io.err('cannot save as a skill: no model is set up to draft it with');
    return undefined;
  }
  ctx.io.err('· drafting the skill…');
  let draft;
  try {
    draft = await draftSkill(provider, chat.messages(), ws.workspace);
  } catch (e) {
    ctx.io.err(
      e instanceof NoStepsError
        ? `cannot save as a skill: ${e.message}`
        : `cannot save as a skill: the skill could not be drafted: ${(e as Error).message}`,
    );
    return undefined;
  }
  const text = withAgentCreated(draft.text);
  const dir = writeDraft(ctx.paths.dataDir, nameOf(text), text);
  const file = join(dir, 'SKILL.md');
  // The model wrote it: every line is escaped before it reaches the terminal.
  ctx.io.out(`draft from ${draft.calls} tool call${draft.calls === 1 ? '' : 's'} (${file}):`);
  ctx.io.out(displaySafeLines(text).replace(/^/gm, '  | '));
  const report = auditSkill(dir);
  printReport(ctx, report);
  const keep = (why: string) =>
    ctx.io.err(`${why}; the draft is kept at ${file}: edit it and install it with \`knack skills install ${dir}\``);
  if (report.level === 'P0') {
    keep('not installed: the audit refuses it (P0)');
    return undefined;
  }
  const scope = await scopeOf(arg, ask);
  if (!scope) {
    keep('not installed');
    return undefined;
  }
  const store = ws.store!;
  let r = installSkill({ source: dir, tierRoot: tierRootFor(ctx, scope), tier: scope, store });
  if (r.status === 'pending') {
    const yes = (await ask(`  install ${r.report.skill} despite the P1 findings above? [y/N]`))?.trim().toLowerCase();
    if (yes === 'y' || yes === 'yes') r = approvePendingInstall(store, r.approval.id);
  }
  printInstall(ctx, r, true);
  if (r.status !== 'installed') {
    keep('not installed');
    return undefined;
  }
  rmSync(join(dir, '..'), { recursive: true, force: true });
  await ws.catalog.refresh();
  return r.skill;
}
