// `/save-skill` in `knack chat`: the window's Save as skill on the terminal. The model drafts the last task as a
// SKILL.md (permissions from the task's own calls), the draft and its audit are shown, and it installs as any
// `knack skills install` does (P0 refused, P1 asked), marked `agent_created: true`. The install reads a held copy of
// the draft (skills/trust/drafts.ts), exactly as the window's Save as skill: a P1 left waiting keeps it until
// approved or rejected. A draft neither installed nor waiting is kept in <data>/drafts for the user to edit.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { draftSkill, NoStepsError, type ChatSession } from '../core/agent/index.js';
import { displaySafeLines } from '../core/policy/index.js';
import {
  approvePendingInstall,
  auditSkill,
  dropHeld,
  installSkill,
  settleHeld,
  stageDraft,
} from '../core/skills/trust/index.js';
import type { InstallResult } from '../core/skills/trust/index.js';
import { withAgentCreated } from '../core/skills/use/index.js';
import type { KnackWorkspace } from '../core/workspace.js';
import type { CommandContext } from './command.js';
import { printInstall, printReport, tierRootFor } from './trust.js';

/** Ask one line on the terminal (undefined: the terminal closed or there is none). */
export type AskLine = (prompt: string) => Promise<string | undefined>;

/**
 * A draft kept for the user to edit and install by hand: <dataDir>/drafts/<random>/<name>/SKILL.md. Never a held copy:
 * no approval waits for it and Knack never removes it.
 */
function keepDraft(dataDir: string, name: string, text: string): string {
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
  const dataDir = ctx.paths.dataDir;
  // The model wrote it: every line is escaped before it reaches the terminal.
  ctx.io.out(`draft from ${draft.calls} tool call${draft.calls === 1 ? '' : 's'}:`);
  ctx.io.out(displaySafeLines(text).replace(/^/gm, '  | '));
  const keep = (why: string) => {
    const dir = keepDraft(dataDir, nameOf(text), text);
    ctx.io.err(
      `${why}; the draft is kept at ${join(dir, 'SKILL.md')}: edit it and install it with \`knack skills install ${dir}\``,
    );
  };
  // The held copy the audit and the install read; from here on only a pending approval keeps it (held.ts).
  let held = stageDraft(dataDir, text);
  let r: InstallResult | undefined;
  try {
    const report = auditSkill(held);
    printReport(ctx, report);
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
    r = installSkill({ source: held, tierRoot: tierRootFor(ctx, scope), tier: scope, store });
    if (r.status === 'pending') {
      // The same draft already waiting is that approval, with its own copy: this one goes.
      settleHeld(dataDir, held, r);
      held = r.approval.source;
      const yes = (await ask(`  install ${r.report.skill} despite the P1 findings above? [y/N]`))?.trim().toLowerCase();
      if (yes === 'y' || yes === 'yes') r = approvePendingInstall(store, r.approval.id);
    }
  } finally {
    // Nothing answered (P0, no scope, a closed terminal, a throw): the copy goes, the kept draft stays.
    if (!r) dropHeld(dataDir, held);
  }
  settleHeld(dataDir, held, r);
  if (r.status === 'pending') {
    const id = r.approval.id;
    ctx.io.err(
      `held for approval ${id}: ${r.reason}. Approve it with \`knack skills approve ${id}\` or reject it with \`knack skills reject ${id}\`; its draft waits in Knack's data folder until then`,
    );
    return undefined;
  }
  printInstall(ctx, r, true);
  if (r.status !== 'installed') {
    keep('not installed');
    return undefined;
  }
  await ws.catalog.refresh();
  return r.skill;
}
