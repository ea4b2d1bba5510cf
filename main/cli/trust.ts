// CLI: `knack skills audit|install|trust|approvals|approve|reject` and `knack policy check|rules` over the trust layer.
// Audit exits by level (0 = P2, 1 = P1, 2 = P0; 3 = could not run); install asks on the terminal, `--yes` accepts P1, never P0.
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { projectSkillDirs, userSkillDirs } from '../core/config/index.js';
import { auditSkill, formatFinding, type AuditReport } from '../core/skills/trust/index.js';
import { installSkill, approvePendingInstall, type InstallResult } from '../core/skills/trust/index.js';
import { auditCached, trustSkill } from '../core/skills/trust/index.js';
import { applyBulkTrust, reviewBulkTrust, type BulkTrustReview } from '../core/skills/trust/index.js';
import { describePermissions } from '../core/policy/index.js';
import { settleStaged } from '../core/skills/sources/index.js';
import { heldSourceProblem, rejectHeldInstall, toPending } from '../core/skills/trust/index.js';
import { accessForArgs } from '../core/policy/index.js';
import { CATEGORIES, describeRule, parseSkillScope, skillScopeKey } from '../core/policy/index.js';
import type { Effect, NewRule } from '../core/store/index.js';
import { addRule } from '../core/policy/index.js';
import { displaySafe } from '../core/policy/index.js';
import { english, realRoot } from '../core/base/index.js';
import type { Access, Actor, ToolCall } from '../core/policy/index.js';
import type { KnackWorkspace } from '../core/workspace.js';
import { TIER_RANK } from '../core/skills/format/index.js';
import { confirmOf, openWorkspaceFor, withCatalog } from './workspace.js';
import { openStore } from './store.js';
import { CliError, jsonFlag, printJson, stringFlag, type Command, type CommandContext } from './command.js';

const LEVEL_EXIT = { P2: 0, P1: 1, P0: 2 } as const;
const LEVEL_WORD = { P0: 'P0 — refused', P1: 'P1 — needs your approval', P2: 'P2 — nothing found' } as const;

/** Ask on the terminal (or the test's io.confirm); without a terminal the answer is no. */
export function confirm(ctx: CommandContext, question: string): Promise<boolean> {
  return confirmOf(ctx)?.(question) ?? Promise.resolve(false);
}

export function printReport(ctx: CommandContext, r: AuditReport): void {
  const n = r.findings.length;
  ctx.io.out(
    `${r.skill}: ${LEVEL_WORD[r.level]}  (${n} finding${n === 1 ? '' : 's'}, ${r.files} files, content ${r.contentHash.slice(0, 12)})`,
  );
  if (r.level !== 'P2') ctx.io.out(`  manifest ${r.verdicts.manifest} · content ${r.verdicts.content}`);
  for (const f of r.findings) ctx.io.out(`  ${formatFinding(f).replace('\n', '\n  ')}`);
  for (const d of r.manifestDiagnostics.filter((x) => x.severity === 'warning'))
    ctx.io.out(`  warning ${d.file}:${d.line ?? 1} ${d.field ?? ''}: ${d.message}`);
  if (r.permissions)
    ctx.io.out(
      `permissions (${r.permissions.declared === 'none' ? 'none declared: scripts get no tools, no network, read their own folder' : `from ${r.permissions.declared}`}): ${describePermissions(r.permissions)}`,
    );
  if (r.diff)
    ctx.io.out(
      r.diff.lines.length
        ? `permission diff vs previous:\n${r.diff.lines.map((l) => `  ${l}`).join('\n')}`
        : 'permission diff vs previous: no change',
    );
}

function reportJson(r: AuditReport) {
  return {
    skill: r.skill,
    dir: r.dir,
    level: r.level,
    contentHash: r.contentHash,
    files: r.files,
    bytes: r.bytes,
    findings: r.findings,
    verdicts: r.verdicts,
    permissions: r.permissions ?? null,
    manifestDiagnostics: r.manifestDiagnostics,
    diff: r.diff ?? null,
  };
}

const audit: Command = {
  path: ['skills', 'audit'],
  summary:
    'Audit a skill folder: P0 (refuse) / P1 (ask) / P2 (clean), findings with file:line, permissions and their diff. Exit 0/1/2 by level, 3 on error.',
  usage: 'PATH [--previous PATH] [--json]',
  options: { previous: { type: 'string' } },
  async run(ctx) {
    const path = ctx.positionals[0];
    if (!path) throw new CliError('missing PATH (a skill folder)', 3);
    const dir = resolve(path);
    if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new CliError(`${path} is not a folder`, 3);
    const prev = stringFlag(ctx, 'previous');
    if (prev !== undefined && (!existsSync(resolve(prev)) || !statSync(resolve(prev)).isDirectory()))
      throw new CliError(`--previous ${prev} is not a folder`, 3);
    const report = auditSkill(dir, prev !== undefined ? { previous: resolve(prev) } : {});
    if (ctx.json) printJson(ctx.io, reportJson(report));
    else printReport(ctx, report);
    return LEVEL_EXIT[report.level];
  },
};

export function tierRootFor(ctx: CommandContext, scope: string): string {
  if (scope === 'user') return userSkillDirs(ctx.paths.home).workbuddy;
  if (scope === 'project') return projectSkillDirs(ctx.workspace).workbuddy;
  throw new CliError(`--scope must be user or project, not "${scope}"`);
}

export function printInstall(ctx: CommandContext, r: InstallResult, reportShown = false): void {
  if (ctx.json) {
    const base = { status: r.status, reason: 'reason' in r ? r.reason : undefined };
    const report = 'report' in r && r.report ? reportJson(r.report) : null;
    printJson(ctx.io, {
      ...base,
      ...(r.status === 'installed' ? { skill: r.skill, dest: r.dest, replaced: r.replaced } : {}),
      ...(r.status === 'pending' ? { approvalId: r.approval.id } : {}),
      ...(r.status === 'exists' ? { dest: r.dest } : {}),
      report,
    });
    return;
  }
  if ('report' in r && r.report && !reportShown) printReport(ctx, r.report);
  switch (r.status) {
    case 'installed':
      ctx.io.out(`${r.replaced ? 'updated' : 'installed'} ${r.skill} → ${r.dest}`);
      break;
    case 'refused':
      ctx.io.err(`refused: ${r.reason}`);
      break;
    case 'exists':
      ctx.io.err(`not installed: ${r.reason}`);
      break;
    case 'pending':
      ctx.io.err(
        `held for approval ${r.approval.id}: ${r.reason}. Approve with \`knack skills approve ${r.approval.id}\` or re-run with --yes`,
      );
      break;
  }
}

const install: Command = {
  path: ['skills', 'install'],
  summary:
    'Install a skill from a folder or .zip: audited first; P0 refused, P1 asked (or --yes), P2 installed. --update replaces an installed one.',
  usage: 'PATH [--scope user|project] [--yes] [--update] [--json]',
  options: { scope: { type: 'string' }, yes: { type: 'boolean', short: 'y' }, update: { type: 'boolean' } },
  async run(ctx) {
    const path = ctx.positionals[0];
    if (!path) throw new CliError('missing PATH (a skill folder or .zip)');
    const tierRoot = tierRootFor(ctx, stringFlag(ctx, 'scope') ?? 'user');
    const scope = (stringFlag(ctx, 'scope') ?? 'user') as 'user' | 'project';
    // A copy Knack holds for another install is never installed by its path (held.ts).
    const held = heldSourceProblem(ctx.paths.dataDir, path);
    if (held) {
      printInstall(ctx, { status: 'refused', reason: english(held), words: held });
      return 2;
    }
    const store = openStore(ctx);
    try {
      const opts = {
        source: path,
        tierRoot,
        tier: scope,
        store,
        approveP1: ctx.values.yes === true,
        replace: ctx.values.update === true,
      };
      let r = installSkill(opts);
      let shown = false;
      if (r.status === 'exists' && !ctx.json) {
        printReport(ctx, r.report);
        shown = true;
        if (await confirm(ctx, `${r.reason}. Replace it?`)) r = installSkill({ ...opts, replace: true });
      }
      if (r.status === 'pending' && !ctx.json && !opts.approveP1) {
        if (!shown) printReport(ctx, r.report);
        shown = true;
        if (await confirm(ctx, `Install ${r.report.skill} despite the P1 findings above?`)) {
          r = approvePendingInstall(store, r.approval.id);
        }
      }
      printInstall(ctx, r, shown && r.status !== 'installed');
      return r.status === 'installed' ? 0 : r.status === 'refused' ? 2 : 1;
    } finally {
      store.close();
    }
  },
};

const trust: Command = {
  path: ['skills', 'trust'],
  summary:
    'Trust a discovered P1 skill (project or user tier) as it is now, or every skill waiting for trust (--all: one summary, one question). A later change needs trust again; P0 is never trusted.',
  usage: 'NAME | --all [--tier project|user] [--yes] [--workspace DIR] [--json]',
  options: { all: { type: 'boolean' }, tier: { type: 'string' }, yes: { type: 'boolean', short: 'y' } },
  async run(ctx) {
    if (ctx.values.all === true) return trustAll(ctx);
    const name = ctx.positionals[0];
    if (!name) throw new CliError('missing NAME (or --all)');
    // The workspace's own catalog (trust-reviewed, audits settled) and store: one composition root for every command.
    const ws = await openWorkspaceFor(ctx, { requireStore: true });
    try {
      const store = ws.store!;
      const catalog = ws.catalog;
      // The skill held for trust (it acts as nobody, so get() names the one it would shadow), else the one that acts.
      const entry = catalog.held(name) ?? catalog.get(name);
      if (!entry) throw new CliError(`no skill named "${name}" in ${ctx.workspace} or the user tier`);
      if (entry.tier === 'builtin') {
        ctx.io.out(`${entry.manifest.name} is built in and trusted`);
        return 0;
      }
      const r = trustSkill(entry.realDir, store, entry.manifest);
      if (ctx.json)
        printJson(ctx.io, {
          ok: r.ok,
          ...(r.ok ? {} : { reason: r.reason }),
          report: r.report ? reportJson(r.report) : null,
        });
      else if (r.ok)
        ctx.io.out(
          `trusted ${r.report.skill} (${r.report.level}, content ${r.report.contentHash.slice(0, 12)}); a change to its files needs trust again`,
        );
      else ctx.io.err(`not trusted: ${r.reason}`);
      return r.ok ? 0 : 2;
    } finally {
      await ws.close();
    }
  },
};

function printBulkReview(ctx: CommandContext, review: BulkTrustReview): void {
  const n = review.candidates.length;
  ctx.io.out(
    `${n} skill${n === 1 ? '' : 's'} waiting for trust${review.refused.length ? `; ${review.refused.length} refused (P0, never trusted)` : ''}`,
  );
  if (review.groups.length) ctx.io.out('findings by rule:');
  for (const g of review.groups) {
    const names =
      g.skills.length > 6 ? `${g.skills.slice(0, 6).join(', ')}, +${g.skills.length - 6} more` : g.skills.join(', ');
    ctx.io.out(
      `  ${String(g.skills.length).padStart(4)} skill${g.skills.length === 1 ? ' ' : 's'} ${g.rule} (${g.count} finding${g.count === 1 ? '' : 's'}): ${g.message}\n         ${names}`,
    );
  }
  const w = review.widest;
  ctx.io.out(
    `widest permissions asked: tools ${w.tools.join(', ') || '—'}${w.anyCommand.length ? ` (any command: ${w.anyCommand.join(', ')})` : ''}; network ${w.network ? 'on' : 'off'}; read ${w.read.join(', ') || '—'}; write ${w.write.join(', ') || '—'}` +
      (w.undeclared ? `; ${w.undeclared} declare none (scripts get least privilege)` : ''),
  );
  for (const r of review.refused) ctx.io.out(`  refused ${r.tier} ${r.name}: ${r.reason}`);
}

/** `knack skills trust --all`: the core's bulk review, one question, then each skill trusted at its reviewed hash. */
async function trustAll(ctx: CommandContext): Promise<number> {
  if (ctx.positionals.length) throw new CliError('--all takes no NAME');
  const tier = stringFlag(ctx, 'tier');
  if (tier !== undefined && tier !== 'project' && tier !== 'user')
    throw new CliError(`--tier must be project or user, not "${tier}"`);
  const ws = await openWorkspaceFor(ctx, { requireStore: true });
  try {
    const store = ws.store!;
    const review = reviewBulkTrust(ws.catalog.entries(), store, tier ? { tier } : {});
    if (!ctx.json) printBulkReview(ctx, review);
    if (review.candidates.length === 0) {
      if (ctx.json) printJson(ctx.io, { review, result: null });
      else ctx.io.out('nothing to trust');
      return 0;
    }
    const yes =
      ctx.values.yes === true ||
      (!ctx.json && (await confirm(ctx, `Trust these ${review.candidates.length} skills as they are now?`)));
    if (!yes) {
      if (ctx.json) printJson(ctx.io, { review, result: null });
      else ctx.io.err('nothing trusted (answer yes, or pass --yes)');
      return 1;
    }
    const result = applyBulkTrust(review, store);
    if (ctx.json) printJson(ctx.io, { review, result });
    else {
      ctx.io.out(
        `trusted ${result.trusted.length} skill${result.trusted.length === 1 ? '' : 's'} at their current content; a change to a skill's files needs trust again`,
      );
      for (const s of result.skipped) ctx.io.err(`not trusted ${s.tier} ${s.name}: ${s.reason}`);
    }
    return result.skipped.length ? 1 : 0;
  } finally {
    await ws.close();
  }
}

const approvals: Command = {
  path: ['skills', 'approvals'],
  summary: 'List skill installs/updates waiting for approval, with findings and permission diff.',
  usage: '[--json]',
  async run(ctx) {
    const store = openStore(ctx);
    try {
      const pending = store.policy.approvals('pending').map(toPending);
      if (ctx.json) {
        printJson(ctx.io, pending);
        return 0;
      }
      if (!pending.length) ctx.io.out('no pending approvals');
      for (const p of pending) {
        ctx.io.out(`${p.id}  ${p.kind} ${p.skill} (${p.level}) → ${p.target}\n  from ${p.source}`);
        if (p.gone) {
          ctx.io.out(`  no longer available: ${p.source} is gone; dismiss it with \`knack skills reject ${p.id}\``);
          continue;
        }
        for (const f of p.findings) ctx.io.out(`  ${formatFinding(f).replace('\n', '\n  ')}`);
        if (p.diff?.lines.length) ctx.io.out(`  permission diff: ${p.diff.lines.join(', ')}`);
      }
      return 0;
    } finally {
      store.close();
    }
  },
};

const approve: Command = {
  path: ['skills', 'approve'],
  summary: 'Approve a pending install/update; it completes only if the files still match what was audited.',
  usage: 'ID [--json]',
  async run(ctx) {
    const id = ctx.positionals[0];
    if (!id) throw new CliError('missing ID (see knack skills approvals)');
    const store = openStore(ctx);
    try {
      const row = store.policy.approval(id);
      const r = approvePendingInstall(store, id);
      // A skill fetched from a source: record it in the lock and drop the staged copy once decided.
      if (row) settleStaged(ctx.paths.dataDir, row.source, r);
      printInstall(ctx, r);
      return r.status === 'installed' ? 0 : r.status === 'refused' ? 2 : 1;
    } finally {
      store.close();
    }
  },
};

const reject: Command = {
  path: ['skills', 'reject'],
  summary: 'Reject a pending install/update.',
  usage: 'ID [--json]',
  async run(ctx) {
    const id = ctx.positionals[0];
    if (!id) throw new CliError('missing ID');
    const store = openStore(ctx);
    try {
      // Its held copy goes with it (a fetched clone, an uploaded zip, a draft): the window's Reject, the same call.
      if (rejectHeldInstall(store, ctx.paths.dataDir, id).status !== 'rejected')
        throw new CliError(`no pending approval ${id}`);
      if (ctx.json) printJson(ctx.io, { rejected: id });
      else ctx.io.out(`rejected ${id}`);
      return 0;
    } finally {
      store.close();
    }
  },
};

/**
 * Access from the registered tool's access() in the workspace's tool box (as the agent loop asks), else from the
 * argument names the tool table gives (a tool this workspace does not offer, such as web_fetch with the network off).
 */
async function accessOf(
  ws: KnackWorkspace,
  tool: string,
  args: Record<string, unknown>,
  actor: Actor,
): Promise<Access> {
  // The gate's answer for a command depends on whether the sandbox is up: wait until that is known.
  const [box] = await Promise.all([ws.toolbox(), ws.wall()]);
  const def = box.registry.get(tool)?.def;
  if (def) {
    try {
      return def.access(args, { workspace: ws.workspace, actor });
    } catch {
      // fall back to the argument names below
    }
  }
  return accessForArgs(tool, args);
}

const check: Command = {
  path: ['policy', 'check'],
  summary: 'Explain what the gate decides for a tool call: allow / ask / deny and why. Exit 0 allow, 1 ask, 2 deny.',
  usage: '--tool NAME --args JSON [--skill NAME | --active a,b] [--workspace DIR] [--json]',
  options: {
    tool: { type: 'string' },
    args: { type: 'string' },
    skill: { type: 'string' },
    active: { type: 'string' },
  },
  async run(ctx) {
    const tool = stringFlag(ctx, 'tool', true)!;
    const args = jsonFlag(ctx, 'args') ?? {};
    if (typeof args !== 'object' || args === null || Array.isArray(args))
      throw new CliError('--args must be a JSON object');
    const ws = await openWorkspaceFor(ctx, { requireStore: true });
    try {
      const catalog = ws.catalog;
      const skill = stringFlag(ctx, 'skill');
      const active =
        stringFlag(ctx, 'active')
          ?.split(',')
          .map((s) => s.trim())
          .filter(Boolean) ?? [];
      for (const n of [...(skill ? [skill] : []), ...active]) {
        const e = catalog.get(n);
        if (!e) throw new CliError(`no skill named "${n}"`);
        if (!e.enabled) ctx.io.err(`note: skill ${n} is disabled${e.disabledReason ? ` (${e.disabledReason})` : ''}`);
      }
      // The workspace's live gate: settings ceiling (a workspace file may only narrow it), rules, manifests.
      const gate = ws.gate;
      const actor: Actor = skill ? { kind: 'skill', skill } : { kind: 'agent', activeSkills: active };
      const call: ToolCall = {
        tool,
        args: args as Record<string, unknown>,
        access: await accessOf(ws, tool, args as Record<string, unknown>, actor),
      };
      const d = gate.authorize(call, actor);
      if (ctx.json) printJson(ctx.io, { ...d, call: { tool, access: call.access }, actor });
      else {
        ctx.io.out(displaySafe(`${d.verdict}: ${d.reason}${d.ruleId ? ` [rule ${d.ruleId}]` : ''}`));
        if (d.rule) ctx.io.out(displaySafe(`  rule: ${d.rule}${d.scope ? ` (${d.scope})` : ''}`));
        if (d.skill)
          ctx.io.out(
            displaySafe(
              `  skill: ${d.skill.name} (${d.skill.tier ?? 'unknown tier'}, ${d.skill.dir}${d.skill.hash ? `, ${d.skill.hash.slice(0, 12)}` : ''})`,
            ),
          );
      }
      return d.verdict === 'allow' ? 0 : d.verdict === 'ask' ? 1 : 2;
    } finally {
      await ws.close();
    }
  },
};

const rulesList: Command = {
  path: ['policy', 'rules', 'list'],
  summary: 'List your allow/ask/deny rules.',
  usage: '[--json]',
  async run(ctx) {
    const store = openStore(ctx);
    try {
      const rules = store.policy.rules();
      // The skill a rule is bound to, read back (name, tier, real folder, content hash), beside the stored scope.
      if (ctx.json) {
        printJson(
          ctx.io,
          rules.map((r) => (r.skill !== undefined ? { ...r, skillScope: parseSkillScope(r.skill) } : r)),
        );
        return 0;
      }
      if (!rules.length) ctx.io.out('no rules (defaults: reads allowed; writes, network and every bash command ask)');
      for (const r of rules) ctx.io.out(`${r.id}  ${describeRule(r)}${r.note ? `  # ${r.note}` : ''}`);
      return 0;
    } finally {
      store.close();
    }
  },
};

const rulesAdd: Command = {
  path: ['policy', 'rules', 'add'],
  summary:
    'Add a rule: allow|ask|deny for a tool (or @read @write @execute @network, or *), this workspace unless --global.',
  usage:
    "allow|ask|deny --tool NAME [--command PREFIX] [--path GLOB] [--host HOST] [--skill NAME (bound to that skill's tier and folder)] [--global] [--note TEXT]",
  options: {
    tool: { type: 'string' },
    command: { type: 'string' },
    path: { type: 'string' },
    host: { type: 'string' },
    skill: { type: 'string' },
    global: { type: 'boolean' },
    note: { type: 'string' },
  },
  async run(ctx) {
    const effect = ctx.positionals[0];
    if (effect !== 'allow' && effect !== 'ask' && effect !== 'deny')
      throw new CliError('first argument must be allow, ask or deny');
    const tool = stringFlag(ctx, 'tool', true)!;
    if (tool.startsWith('@') && !(CATEGORIES as readonly string[]).includes(tool))
      throw new CliError(`unknown category ${tool} (use ${CATEGORIES.join(', ')})`);
    const rule: NewRule = { effect: effect as Effect, tool };
    if (ctx.values.global !== true) rule.workspace = realRoot(ctx.workspace);
    for (const k of ['command', 'path', 'host', 'skill', 'note'] as const) {
      const v = stringFlag(ctx, k);
      if (v !== undefined) rule[k] = v;
    }
    let bound: { name: string; tier: string; dir: string } | undefined;
    if (rule.skill !== undefined) {
      // Bind to the skill's identity now (tier + real folder), never to the name: a look-alike elsewhere gets nothing.
      // The skill is looked up in the workspace's catalog (the one the gate judges by).
      const name = rule.skill;
      // Highest precedence whether or not it is trusted yet (a rule may be made before trusting the skill).
      const entry = await withCatalog(
        ctx,
        (catalog) =>
          [catalog.get(name), catalog.held(name)]
            .filter((e) => e !== undefined)
            .sort((x, y) => TIER_RANK[y.tier] - TIER_RANK[x.tier])[0],
        { requireStore: true },
      );
      if (!entry) throw new CliError(`no skill named "${name}" in ${ctx.workspace} or the user tier`);
      bound = { name: entry.manifest.name, tier: entry.tier, dir: entry.realDir };
      rule.skill = skillScopeKey(bound);
    }
    const store = openStore(ctx);
    try {
      // …and to its content now (the hash its review records): after an edit to the skill the rule no longer applies.
      if (bound) rule.skill = skillScopeKey({ ...bound, hash: auditCached(bound.dir, store).contentHash });
      const { rule: r, added } = addRule(store.policy, rule);
      if (ctx.json) printJson(ctx.io, { added, rule: r });
      else ctx.io.out(added ? `added ${r.id}  ${describeRule(r)}` : `already covered by ${r.id}  ${describeRule(r)}`);
      return 0;
    } finally {
      store.close();
    }
  },
};

const rulesRemove: Command = {
  path: ['policy', 'rules', 'remove'],
  summary: 'Remove a rule by id.',
  usage: 'ID [--json]',
  async run(ctx) {
    const id = ctx.positionals[0];
    if (!id) throw new CliError('missing ID (see knack policy rules list)');
    const store = openStore(ctx);
    try {
      if (!store.policy.removeRule(id)) throw new CliError(`no rule ${id}`);
      if (ctx.json) printJson(ctx.io, { removed: id });
      else ctx.io.out(`removed ${id}`);
      return 0;
    } finally {
      store.close();
    }
  },
};

export const trustCommands: Command[] = [
  audit,
  install,
  trust,
  approvals,
  approve,
  reject,
  check,
  rulesList,
  rulesAdd,
  rulesRemove,
];
