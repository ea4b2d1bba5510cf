// CLI: `knack skills add|sync|update` and `knack skills marketplace add|remove|list`, `knack skills browse` — skills from
// git repositories, GitHub and marketplaces, through the same audit and approval as `knack skills install`.
import { displaySafe } from '../core/policy/index.js';
import { addCandidate, type AddResult } from '../core/skills/sources/index.js';
import { lockPathFor } from '../core/skills/sources/index.js';
import {
  addMarketplace,
  listMarketplaces,
  marketplaceEntries,
  marketplaceSettingsFile,
  removeMarketplace,
  searchEntries,
  type MarketEntry,
} from '../core/skills/sources/index.js';
import { openSource, type Candidate, type OpenedSource } from '../core/skills/sources/index.js';
import { parseSource } from '../core/skills/sources/index.js';
import { applyUpdate, checkUpdates, syncLock, type UpdateCheck } from '../core/skills/sources/index.js';
import {
  approvePendingInstall,
  heldSourceProblem,
  installSkill,
  type InstallResult,
} from '../core/skills/trust/index.js';
import { english } from '../core/base/index.js';
import { settleStaged } from '../core/skills/sources/index.js';
import { CliError, printJson, stringFlag, type Command, type CommandContext } from './command.js';
import { confirm, printInstall, printReport, tierRootFor } from './trust.js';
import { openStore } from './store.js';
import { openSourceWall } from '../core/source-wall.js';

/**
 * The workspace's wall for this command's git calls (started on the first one; the caller closes it): git writes only
 * its temporary clone and reaches only the source's host. Running outside it (sandbox off, or unavailable in mode
 * auto) is said on stderr.
 */
function gitWall(ctx: CommandContext) {
  return openSourceWall(ctx.paths, ctx.workspace, (why) => ctx.io.err(displaySafe(why)));
}

const scopeOf = (ctx: CommandContext): 'user' | 'project' => {
  const s = stringFlag(ctx, 'scope') ?? 'user';
  if (s !== 'user' && s !== 'project') throw new CliError(`--scope must be user or project, not "${s}"`);
  return s;
};

const list = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : typeof v === 'string' ? [v] : []);

function candidateLine(c: Candidate): string {
  const from = c.plugin ? ` [plugin ${displaySafe(c.plugin)}]` : '';
  const why = c.problem ? ` — cannot be installed: ${displaySafe(english(c.problem))}` : '';
  return `  ${c.level}  ${displaySafe(c.name)}${from}: ${displaySafe(c.description).slice(0, 120)}${why}`;
}

function candidateJson(c: Candidate) {
  return {
    name: c.name,
    description: c.description,
    level: c.level,
    contentHash: c.contentHash,
    findings: c.findings,
    problem: c.problem ?? null,
    plugin: c.plugin ?? null,
    source: c.record ?? null,
  };
}

function resultJson(r: AddResult) {
  return {
    skill: r.candidate.name,
    status: r.status,
    reason: 'reason' in r ? r.reason : null,
    words: 'words' in r && r.words ? r.words : null,
    ...(r.status === 'pending' ? { approvalId: r.approval.id } : {}),
    ...(r.status === 'installed' ? { dest: r.dest } : {}),
    source: r.candidate.record ?? null,
  };
}

/** Open a source (a failure is a SourceError: one line naming the source, exit 2). */
async function open(
  ctx: CommandContext,
  text: string,
  want: string[],
  wall: ReturnType<typeof gitWall>,
): Promise<OpenedSource> {
  let spec = parseSource(text, process.cwd());
  const ref = stringFlag(ctx, 'ref');
  if (ref && spec.kind === 'git') spec = parseSource(`${spec.url}#${ref}${spec.path ? `:${spec.path}` : ''}`);
  return await openSource(spec, {
    want,
    dataDir: ctx.paths.dataDir,
    wall: wall.wall,
    onProgress: (stage, detail) => {
      if (!ctx.json) ctx.io.err(`${stage} ${displaySafe(detail)}…`);
    },
  });
}

/**
 * A held install (P1, or an update that widens), its report already printed: ask on the terminal, and on yes approve
 * it at the reviewed hash and settle its staged copy (recorded in the lock). The result as it is after the answer.
 */
async function approveOnTerminal(
  ctx: CommandContext,
  base: { store: ReturnType<typeof openStore>; dataDir: string },
  held: InstallResult & { status: 'pending' },
  question: string,
): Promise<InstallResult> {
  if (!(await confirm(ctx, question))) return held;
  const staged = base.store.policy.approval(held.approval.id)!.source;
  const done = approvePendingInstall(base.store, held.approval.id);
  settleStaged(base.dataDir, staged, done);
  return done;
}

/** Install one candidate, asking about a name clash (update or keep) and P1 findings on the terminal. */
async function addOne(ctx: CommandContext, c: Candidate, base: Parameters<typeof addCandidate>[1]): Promise<AddResult> {
  let r = addCandidate(c, base);
  if (r.status === 'exists' && !ctx.json) {
    printReport(ctx, r.report);
    if (await confirm(ctx, `${r.reason}. Update it to this version (no keeps the installed one)?`))
      r = addCandidate(c, { ...base, replace: true });
  }
  if (r.status === 'pending' && !ctx.json && !base.approveP1) {
    printReport(ctx, r.report);
    r = {
      ...(await approveOnTerminal(ctx, base, r, `Install ${r.report.skill} despite the P1 findings above?`)),
      candidate: c,
    };
  }
  return r;
}

const add: Command = {
  path: ['skills', 'add'],
  summary:
    'Install skills from a git URL (#ref, :path), owner/repo, a marketplace, or a folder/.zip: lists what it holds with audit levels; --skill picks. Recorded in skills.lock.json.',
  usage: 'SOURCE [--skill NAME...] [--all] [--scope user|project] [--ref REF] [--yes] [--json]',
  options: {
    skill: { type: 'string', multiple: true },
    all: { type: 'boolean' },
    scope: { type: 'string' },
    ref: { type: 'string' },
    yes: { type: 'boolean', short: 'y' },
  },
  maxPositionals: 1,
  async run(ctx) {
    const text = ctx.positionals[0];
    if (!text) throw new CliError('missing SOURCE (a git URL, owner/repo, a marketplace, or a folder or .zip)');
    const scope = scopeOf(ctx);
    const tierRoot = tierRootFor(ctx, scope);
    // A .zip installs as before: one skill, no source to record; never a copy Knack holds (trust/held.ts).
    if (/\.zip$/i.test(text) && parseSource(text).kind === 'local') {
      const held = heldSourceProblem(ctx.paths.dataDir, text);
      if (held) {
        printInstall(ctx, { status: 'refused', reason: english(held), words: held });
        return 2;
      }
      const store = openStore(ctx);
      try {
        const r = installSkill({ source: text, tierRoot, tier: scope, store, approveP1: ctx.values.yes === true });
        printInstall(ctx, r);
        return r.status === 'installed' ? 0 : r.status === 'refused' ? 2 : 1;
      } finally {
        store.close();
      }
    }
    const picked = list(ctx.values.skill);
    const wall = gitWall(ctx);
    let opened: OpenedSource;
    try {
      opened = await open(ctx, text, picked, wall);
    } finally {
      // Every git call is done once the source is open: nothing fetched runs after this.
      await wall.close();
    }
    try {
      const all = opened.candidates;
      let chosen: Candidate[];
      if (picked.length) {
        const missing = picked.filter((n) => !all.some((c) => c.name === n || c.plugin === n));
        if (missing.length)
          throw new CliError(
            `${opened.display}: no skill or plugin named ${missing.map((m) => `"${displaySafe(m)}"`).join(', ')} (it has: ${all.map((c) => c.name).join(', ') || 'none fetched'})`,
          );
        chosen = all.filter((c) => picked.includes(c.name) || (c.plugin !== undefined && picked.includes(c.plugin)));
      } else if (all.length === 1 || ctx.values.all === true) chosen = all;
      else chosen = [];
      if (!chosen.length) {
        // Many skills (or a marketplace): list them and let the user pick.
        if (ctx.json)
          printJson(ctx.io, {
            source: opened.display,
            kind: opened.kind,
            marketplace: opened.marketplace ?? null,
            skills: all.map(candidateJson),
          });
        else {
          ctx.io.out(`${displaySafe(opened.display)} holds ${all.length} skill${all.length === 1 ? '' : 's'}:`);
          for (const c of all) ctx.io.out(candidateLine(c));
          for (const p of opened.marketplace?.plugins.filter((x) => !x.fetched) ?? [])
            ctx.io.out(
              `  plugin ${displaySafe(p.name)} (from ${displaySafe(p.from)}): ${displaySafe(p.description).slice(0, 120)}`,
            );
          ctx.io.out(`pick with --skill NAME (repeatable; a plugin's name picks all its skills), or --all`);
        }
        return 1;
      }
      const store = openStore(ctx);
      const results: AddResult[] = [];
      try {
        const base = { tierRoot, tier: scope, store, dataDir: ctx.paths.dataDir, approveP1: ctx.values.yes === true };
        for (const c of chosen) results.push(await addOne(ctx, c, base));
      } finally {
        store.close();
      }
      if (ctx.json) printJson(ctx.io, { source: opened.display, results: results.map(resultJson) });
      else for (const r of results) printInstall(ctx, r, r.status !== 'installed');
      return results.every((r) => r.status === 'installed') ? 0 : results.some((r) => r.status === 'refused') ? 2 : 1;
    } finally {
      opened.dispose();
    }
  },
};

const sync: Command = {
  path: ['skills', 'sync'],
  summary:
    "Install exactly what the scope's skills.lock.json names, each at its locked commit (audited; P1 asked or --yes). Content that differs from the lock is refused as tampered.",
  usage: '[--scope user|project] [--yes] [--workspace DIR] [--json]',
  options: { scope: { type: 'string' }, yes: { type: 'boolean', short: 'y' } },
  maxPositionals: 0,
  async run(ctx) {
    const scope = scopeOf(ctx);
    const tierRoot = tierRootFor(ctx, scope);
    const store = openStore(ctx);
    const wall = gitWall(ctx);
    try {
      let items;
      try {
        items = await syncLock({
          tierRoot,
          tier: scope,
          store,
          dataDir: ctx.paths.dataDir,
          approveP1: ctx.values.yes === true,
          wall: wall.wall,
        });
      } finally {
        await wall.close();
      }
      const out = [];
      for (let it of items) {
        if ('candidate' in it && it.status === 'pending' && !ctx.json && ctx.values.yes !== true) {
          printReport(ctx, it.report);
          const question = `Install ${it.report.skill} despite the P1 findings above?`;
          const after = await approveOnTerminal(ctx, { store, dataDir: ctx.paths.dataDir }, it, question);
          it = { ...after, candidate: it.candidate, name: it.name };
        }
        out.push(it);
      }
      if (ctx.json)
        printJson(ctx.io, {
          lock: lockPathFor(tierRoot),
          items: out.map((i) => ('candidate' in i ? { name: i.name, ...resultJson(i) } : i)),
        });
      else {
        if (!out.length) ctx.io.out(`${lockPathFor(tierRoot)} names no skills`);
        for (const i of out) {
          if (i.status === 'present') ctx.io.out(`${i.name}: already installed as locked`);
          else if (!('candidate' in i)) ctx.io.err(`refused: ${i.reason}`);
          else printInstall(ctx, i, i.status !== 'installed');
        }
      }
      return out.every((i) => i.status === 'present' || i.status === 'installed')
        ? 0
        : out.some((i) => i.status === 'refused')
          ? 2
          : 1;
    } finally {
      store.close();
    }
  },
};

function printCheck(ctx: CommandContext, c: UpdateCheck): void {
  if (c.status === 'up-to-date') return ctx.io.out(`${c.name}: up to date (${c.commit?.slice(0, 12)})`);
  if (c.status === 'error') return ctx.io.err(`${c.name}: cannot check: ${c.reason}`);
  ctx.io.out(
    `${c.name}: update available ${c.entry.commit.slice(0, 12)} → ${c.commit?.slice(0, 12)} (${c.candidate!.level})`,
  );
  const f = c.files!;
  for (const [word, names] of [
    ['added', f.added],
    ['changed', f.changed],
    ['removed', f.removed],
  ] as const)
    if (names.length) ctx.io.out(`  files ${word}: ${names.map(displaySafe).join(', ')}`);
  ctx.io.out(
    c.diff?.lines.length
      ? `  permission diff${c.diff.widened ? ' (widens: needs approval)' : ''}:\n${c.diff.lines.map((l) => `    ${displaySafe(l)}`).join('\n')}`
      : '  permission diff: no change',
  );
}

/** One check for --json: the English reason, and beside it the words (code + parameters) the window says. */
function checkJson(c: UpdateCheck) {
  return {
    name: c.name,
    status: c.status,
    reason: c.reason ?? null,
    words: c.words ?? null,
    from: c.entry.commit,
    to: c.commit ?? null,
    level: c.candidate?.level ?? null,
    files: c.files ?? null,
    diff: c.diff ?? null,
  };
}

const update: Command = {
  path: ['skills', 'update'],
  summary:
    'Compare skills installed from a source with it: files changed and the permission diff. A widening waits for approval; a clean one updates after one confirmation (or --yes). --check only reports.',
  usage: '[NAME...] [--check] [--scope user|project] [--yes] [--workspace DIR] [--json]',
  options: { scope: { type: 'string' }, check: { type: 'boolean' }, yes: { type: 'boolean', short: 'y' } },
  async run(ctx) {
    const scope = scopeOf(ctx);
    const tierRoot = tierRootFor(ctx, scope);
    let checked;
    const wall = gitWall(ctx);
    try {
      checked = await checkUpdates(tierRoot, ctx.positionals.length ? ctx.positionals : undefined, {
        wall: wall.wall,
      });
    } finally {
      await wall.close();
    }
    try {
      const { checks } = checked;
      if (ctx.values.check === true || !checks.some((c) => c.status === 'available')) {
        if (ctx.json) printJson(ctx.io, { checks: checks.map(checkJson) });
        else {
          if (!checks.length) ctx.io.out(`${lockPathFor(tierRoot)} names no skills`);
          for (const c of checks) printCheck(ctx, c);
        }
        return checks.some((c) => c.status === 'error') ? 2 : checks.some((c) => c.status === 'available') ? 1 : 0;
      }
      const store = openStore(ctx);
      const results: { check: UpdateCheck; result?: AddResult }[] = [];
      try {
        for (const c of checks) {
          if (!ctx.json) printCheck(ctx, c);
          if (c.status !== 'available') {
            results.push({ check: c });
            continue;
          }
          const widens = c.diff?.widened === true || c.candidate!.level !== 'P2';
          // A clean update (same permissions, P2) still takes one yes; a widening or findings go to approval.
          if (!widens && ctx.values.yes !== true && !(await confirm(ctx, `Update ${c.name}?`))) {
            results.push({ check: c });
            if (!ctx.json) ctx.io.err(`${c.name}: kept the installed version (answer yes, or pass --yes)`);
            continue;
          }
          let r = applyUpdate(c, {
            tierRoot,
            tier: scope,
            store,
            dataDir: ctx.paths.dataDir,
            approveP1: ctx.values.yes === true,
          });
          if (r.status === 'pending' && !ctx.json && ctx.values.yes !== true) {
            const question = `Update ${c.name} with the permission diff and findings above?`;
            r = {
              ...(await approveOnTerminal(ctx, { store, dataDir: ctx.paths.dataDir }, r, question)),
              candidate: r.candidate,
            };
          }
          if (!ctx.json) printInstall(ctx, r, true);
          results.push({ check: c, result: r });
        }
      } finally {
        store.close();
      }
      if (ctx.json)
        printJson(ctx.io, {
          checks: results.map((x) => ({ ...checkJson(x.check), result: x.result ? resultJson(x.result) : null })),
        });
      const failed = results.filter((x) => x.check.status === 'available' && x.result?.status !== 'installed');
      return checks.some((c) => c.status === 'error') ? 2 : failed.length ? 1 : 0;
    } finally {
      await checked.dispose();
    }
  },
};

const scopeOfMarket = (ctx: CommandContext): 'user' | 'workspace' => {
  const s = stringFlag(ctx, 'scope') ?? 'user';
  if (s !== 'user' && s !== 'workspace') throw new CliError(`--scope must be user or workspace, not "${s}"`);
  return s;
};

const marketAdd: Command = {
  path: ['skills', 'marketplace', 'add'],
  summary:
    "Add a marketplace (a repository or URL holding .claude-plugin/marketplace.json) to the user's or workspace's settings.",
  usage: 'SOURCE [--scope user|workspace] [--workspace DIR] [--json]',
  options: { scope: { type: 'string' } },
  maxPositionals: 1,
  async run(ctx) {
    const source = ctx.positionals[0];
    if (!source) throw new CliError('missing SOURCE');
    const file = marketplaceSettingsFile(scopeOfMarket(ctx), ctx.paths.dataDir, ctx.workspace);
    const added = addMarketplace(file, source, process.cwd());
    if (ctx.json) printJson(ctx.io, { source, file, added });
    else
      ctx.io.out(
        added ? `added marketplace ${displaySafe(source)} to ${file}` : `${displaySafe(source)} is already in ${file}`,
      );
    return 0;
  },
};

const marketRemove: Command = {
  path: ['skills', 'marketplace', 'remove'],
  summary: "Remove a marketplace from the user's or workspace's settings.",
  usage: 'SOURCE [--scope user|workspace] [--workspace DIR] [--json]',
  options: { scope: { type: 'string' } },
  maxPositionals: 1,
  async run(ctx) {
    const source = ctx.positionals[0];
    if (!source) throw new CliError('missing SOURCE');
    const file = marketplaceSettingsFile(scopeOfMarket(ctx), ctx.paths.dataDir, ctx.workspace);
    const removed = removeMarketplace(file, source);
    if (ctx.json) printJson(ctx.io, { source, file, removed });
    else if (removed) ctx.io.out(`removed marketplace ${displaySafe(source)} from ${file}`);
    else ctx.io.err(`${displaySafe(source)} is not in ${file}`);
    return removed ? 0 : 1;
  },
};

const marketList: Command = {
  path: ['skills', 'marketplace', 'list'],
  summary: "List the marketplaces in the user's and the workspace's settings (none unless added).",
  usage: '[--workspace DIR] [--json]',
  maxPositionals: 0,
  async run(ctx) {
    const items = listMarketplaces(ctx.paths.dataDir, ctx.workspace);
    if (ctx.json) printJson(ctx.io, items);
    else if (!items.length) ctx.io.out('no marketplaces (add one with knack skills marketplace add SOURCE)');
    else for (const m of items) ctx.io.out(`${m.scope.padEnd(9)} ${displaySafe(m.source)}`);
    return 0;
  },
};

const browse: Command = {
  path: ['skills', 'browse'],
  summary: 'Search the configured marketplaces (English or Chinese) and print how to install each hit.',
  usage: '"QUERY" [--refresh] [--limit N] [--workspace DIR] [--json]',
  options: { refresh: { type: 'boolean' }, limit: { type: 'string' } },
  maxPositionals: 1,
  async run(ctx) {
    const query = ctx.positionals[0] ?? '';
    const limit = Number(stringFlag(ctx, 'limit') ?? 20);
    if (!Number.isInteger(limit) || limit < 1) throw new CliError('--limit must be a whole number, 1 or more');
    const markets = listMarketplaces(ctx.paths.dataDir, ctx.workspace);
    if (!markets.length)
      throw new CliError('no marketplaces configured (add one with knack skills marketplace add SOURCE)');
    const entries: MarketEntry[] = [];
    let failed = 0;
    const wall = gitWall(ctx);
    try {
      for (const m of markets) {
        try {
          entries.push(
            ...(await marketplaceEntries(m.source, {
              dataDir: ctx.paths.dataDir,
              cwd: ctx.workspace,
              refresh: ctx.values.refresh === true,
              wall: wall.wall,
            })),
          );
        } catch (e) {
          failed++;
          ctx.io.err(`cannot read marketplace: ${(e as Error).message}`);
        }
      }
    } finally {
      await wall.close();
    }
    const hits = searchEntries(entries, query, limit, `${ctx.paths.dataDir}/cache`);
    if (ctx.json) printJson(ctx.io, { query, hits });
    else {
      if (!hits.length) ctx.io.out(`nothing found for "${displaySafe(query)}"`);
      for (const h of hits)
        ctx.io.out(
          `${displaySafe(h.skill ?? h.plugin)}${h.level ? ` (${h.level})` : ''} — ${displaySafe(h.marketplaceName)}/${displaySafe(h.plugin)}: ${displaySafe(h.description).slice(0, 120)}\n  knack skills add ${displaySafe(h.install)}`,
        );
    }
    return failed && !hits.length ? 2 : 0;
  },
};

export const skillsSourceCommands: Command[] = [add, sync, update, marketAdd, marketRemove, marketList, browse];
