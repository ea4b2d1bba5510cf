// CLI: `knack skills list|show|lint|index|enable|disable` over the catalog (discovery, tiers, shadowing, toggles).
// Output for people by default, `--json` for scripts; errors are one line each and lint exits non-zero on errors.
import { relative } from 'node:path';
import { loadSettings } from '../core/config/index.js';
import { withCatalog, withWorkspace } from './workspace.js';
import { buildPromptCatalog } from '../core/skills/use/index.js';
import { lintCatalog, lintPaths, type LintReport } from '../core/skills/catalog/index.js';
import { formatDiagnostic } from '../core/base/index.js';
import type { CatalogEntry } from '../core/skills/format/index.js';
import type { Diagnostic } from '../core/base/index.js';
import { CliError, printJson, type Command, type CommandContext } from './command.js';

/** A UTF-16 surrogate: a string without one has as many code points as code units. */
const SURROGATE = /[\uD800-\uDFFF]/;

/**
 * Code points in `s`. Most names and descriptions hold none outside the BMP: their length, without splitting them into
 * an array of characters (a table of 5,000 skills did that ~20,000 times: 40–90 ms of a warm `skills list`).
 */
function codePoints(s: string): number {
  return SURROGATE.test(s) ? [...s].length : s.length;
}

function oneLine(s: string, max: number): string {
  const flat = s.replace(/\s+/g, ' ').trim();
  if (codePoints(flat) <= max) return flat;
  return (SURROGATE.test(flat) ? [...flat].slice(0, max - 1).join('') : flat.slice(0, max - 1)) + '…';
}

const HOLD = { refused: 'refused (P0)', pending: 'pending trust', checking: 'checking' } as const;

function state(e: CatalogEntry): string {
  if (e.shadowedBy) return `shadowed by ${e.shadowedBy.tier}`;
  if (e.trust)
    return `${HOLD[e.trust]}${e.wouldShadow ? ` — would shadow ${e.wouldShadow.tier} ${e.wouldShadow.name}` : ''}`;
  return e.enabled ? 'on' : 'off';
}

function entryJson(e: CatalogEntry) {
  return {
    name: e.manifest.name,
    description: e.manifest.description,
    tier: e.tier,
    source: e.source,
    path: e.file,
    dir: e.dir,
    realDir: e.realDir,
    enabled: e.enabled,
    ...(e.disabledReason ? { disabledReason: e.disabledReason } : {}),
    ...(e.shadowedBy ? { shadowedBy: e.shadowedBy } : {}),
    ...(e.trust ? { trust: e.trust } : {}),
    ...(e.wouldShadow ? { wouldShadow: e.wouldShadow } : {}),
    diagnostics: e.diagnostics,
  };
}

function pad(s: string, n: number): string {
  const len = codePoints(s);
  return len >= n ? s : s + ' '.repeat(n - len);
}

const list: Command = {
  path: ['skills', 'list'],
  summary: 'List skills of every tier (built-in, user, project) with shadowing and on/off state.',
  usage: '[--all] [--workspace DIR] [--json]',
  maxPositionals: 0,
  options: { all: { type: 'boolean', short: 'a' } },
  async run(ctx) {
    return withCatalog(ctx, (catalog) => {
      const all = ctx.values.all === true;
      const entries = catalog.entries();
      const broken = catalog.broken();
      if (ctx.json) {
        printJson(ctx.io, { workspace: ctx.workspace, skills: entries.map(entryJson), ...(all ? { broken } : {}) });
        return 0;
      }
      if (entries.length === 0 && broken.length === 0) {
        ctx.io.out(
          `No skills found. Put a skill folder (with SKILL.md) in ${relative(process.cwd(), ctx.workspace) || '.'}/.workbuddy/skills or ~/.workbuddy/skills.`,
        );
        return 0;
      }
      const nameW = Math.min(32, Math.max(4, ...entries.map((e) => codePoints(e.manifest.name))));
      const stateW = Math.max(5, ...entries.map((e) => state(e).length));
      const width = Math.max(100, process.stdout.columns ?? 100);
      // One write for the whole table: thousands of skills are thousands of lines, and each write is a system call.
      const lines = [`${pad('TIER', 8)} ${pad('NAME', nameW)} ${pad('STATE', stateW)} DESCRIPTION`];
      for (const e of entries) {
        const head = `${pad(e.tier, 8)} ${pad(e.manifest.name, nameW)} ${pad(state(e), stateW)} `;
        lines.push(head + oneLine(e.manifest.description, Math.max(20, width - codePoints(head))));
      }
      if (all) {
        for (const b of broken) {
          const first = b.diagnostics.find((d) => d.severity === 'error') ?? b.diagnostics[0];
          lines.push(
            `${pad(b.tier, 8)} ${pad('(broken)', nameW)} ${pad('error', stateW)} ${first ? formatDiagnostic(first) : b.file}`,
          );
        }
      }
      ctx.io.out(lines.join('\n'));
      const winners = entries.filter((e) => !e.shadowedBy);
      const summary = [
        `${winners.length} skill${winners.length === 1 ? '' : 's'}`,
        `${winners.filter((e) => e.enabled).length} on`,
      ];
      const shadowed = entries.length - winners.length;
      if (shadowed) summary.push(`${shadowed} shadowed`);
      ctx.io.out(`\n${summary.join(', ')}.`);
      if (broken.length && !all)
        ctx.io.out(
          `${broken.length} skill${broken.length === 1 ? '' : 's'} could not be read: see \`knack skills list --all\` or \`knack skills lint\`.`,
        );
      for (const d of catalog.discoveryDiagnostics().filter((x) => x.severity !== 'info'))
        ctx.io.err(`warning: ${formatDiagnostic(d)}`);
      return 0;
    });
  },
};

const show: Command = {
  path: ['skills', 'show'],
  summary: 'Show one skill: manifest, path, tier, diagnostics and shadowing.',
  usage: 'NAME [--workspace DIR] [--json]',
  maxPositionals: 1,
  async run(ctx) {
    const name = ctx.positionals[0];
    if (!name) throw new CliError('missing skill NAME (usage: knack skills show NAME)');
    return withCatalog(ctx, (catalog) => {
      const win = catalog.get(name);
      if (!win) {
        const broken = catalog.broken().filter((b) => b.dir.split(/[\\/]/).pop() === name);
        if (broken.length) {
          if (ctx.json) printJson(ctx.io, { name, broken });
          else for (const b of broken) for (const d of b.diagnostics) ctx.io.out(formatDiagnostic(d));
          throw new CliError(`skill "${name}" could not be read (see above)`, 1);
        }
        throw new CliError(`no skill named "${name}" (try: knack skills list)`);
      }
      const same = catalog.entries().filter((e) => e.manifest.name.toLowerCase() === win.manifest.name.toLowerCase());
      // Skills of this name held for trust above the one that acts (pending trust — would shadow builtin git-commit).
      const held = same.filter((e) => e.wouldShadow);
      if (ctx.json) {
        printJson(ctx.io, {
          ...entryJson(win),
          manifest: win.manifest,
          shadows: same.filter((e) => e !== win).map(entryJson),
        });
        return 0;
      }
      const m = win.manifest;
      const lines = [
        `${m.name}${m.title && m.title !== m.name ? ` (${m.title})` : ''}`,
        `  tier:        ${win.tier} (${win.source === 'agents' ? '.agents/skills' : '.workbuddy/skills'})`,
        `  path:        ${win.file}`,
        ...(win.realDir !== win.dir ? [`  real folder: ${win.realDir}`] : []),
        `  state:       ${win.enabled ? 'on' : `off${win.disabledReason ? ` (${win.disabledReason})` : ''}`}`,
        ...held.map((h) => `  held:        ${h.tier} ${h.file}: ${h.disabledReason ?? HOLD[h.trust!]}`),
        `  description: ${m.description.replace(/\n/g, '\n               ')}`,
        ...(m.license ? [`  license:     ${m.license}`] : []),
        ...(m.compatibility ? [`  compatible:  ${m.compatibility}`] : []),
        ...(m.allowedTools.length ? [`  tools:       ${m.allowedTools.join(', ')}`] : []),
        ...(m.readWhen.length ? [`  read when:   ${m.readWhen.join(' | ')}`] : []),
        ...(m.dependsOn.length ? [`  depends on:  ${m.dependsOn.join(', ')}`] : []),
        ...(m.agentCreated ? ['  created by:  the agent'] : []),
        ...(m.permissions ? [`  permissions: ${JSON.stringify(m.permissions.raw)} (not reviewed yet)`] : []),
        ...Object.entries(m.metadata).map(([k, v]) => `  metadata.${k}: ${v}`),
      ];
      for (const s of same.filter((e) => e !== win && !e.wouldShadow)) lines.push(`  shadows:     ${s.tier} ${s.file}`);
      if (win.diagnostics.length) {
        lines.push('  diagnostics:');
        for (const d of win.diagnostics) lines.push(`    ${formatDiagnostic(d)}`);
      }
      ctx.io.out(lines.join('\n'));
      return 0;
    });
  },
};

function printLint(ctx: CommandContext, report: LintReport, strict: boolean): number {
  if (ctx.json) {
    printJson(ctx.io, { strict, ...report });
    return report.errors ? 1 : 0;
  }
  const lines: string[] = [];
  const all: Diagnostic[] = [...report.diagnostics, ...report.skills.flatMap((s) => s.diagnostics)];
  for (const d of all) if (d.severity !== 'info') lines.push(formatDiagnostic(d));
  const bad = report.skills.filter((s) => !s.ok).length;
  lines.push(
    `${report.skills.length} skill${report.skills.length === 1 ? '' : 's'} checked${strict ? ' (strict: Agent Skills reference rules)' : ''}: ` +
      `${report.errors} error${report.errors === 1 ? '' : 's'}, ${report.warnings} warning${report.warnings === 1 ? '' : 's'}` +
      (bad ? `; ${bad} ${strict ? 'not valid' : 'left out of the catalog'}` : ''),
  );
  ctx.io.out(lines.join('\n'));
  return report.errors ? 1 : 0;
}

const lint: Command = {
  path: ['skills', 'lint'],
  summary: 'Check skills: a skill folder, a folder of skills, or (no PATH) every discovered skill. Exits 1 on errors.',
  usage: '[PATH...] [--strict] [--workspace DIR] [--json]',
  options: { strict: { type: 'boolean' } },
  async run(ctx) {
    const strict = ctx.values.strict === true;
    if (ctx.positionals.length) {
      const { settings } = loadSettings(ctx.paths.dataDir, ctx.workspace);
      return printLint(ctx, lintPaths(ctx.positionals, { strict, settings }), strict);
    }
    return withCatalog(ctx, (catalog) => {
      return printLint(ctx, lintCatalog(catalog, { strict }), strict);
    });
  },
};

const index: Command = {
  path: ['skills', 'index'],
  summary: 'Build the catalog and report every skill with tier, path, shadowing, diagnostics and timings.',
  usage: '[--workspace DIR] [--json]',
  maxPositionals: 0,
  async run(ctx) {
    return withCatalog(ctx, (catalog) => {
      const t = catalog.timings;
      if (ctx.json) {
        printJson(ctx.io, {
          workspace: ctx.workspace,
          paths: ctx.paths,
          timings: t,
          skills: catalog.entries().map(entryJson),
          broken: catalog.broken(),
          diagnostics: catalog.discoveryDiagnostics(),
        });
        return 0;
      }
      const winners = catalog.entries().filter((e) => !e.shadowedBy).length;
      const held = catalog.entries().filter((e) => e.trust);
      ctx.io.out(
        `indexed ${winners} skills (${catalog.entries().length - winners} shadowed, ${held.length ? `${held.length} held for trust, ` : ''}${catalog.broken().length} broken) from ${t.files} files in ${t.totalMs.toFixed(1)} ms\n` +
          `  discover ${t.discoverMs.toFixed(1)} ms (${t.folders} folders) · parse ${t.parseMs.toFixed(1)} ms (${t.parsed} parsed, ${t.cached} from cache) · merge ${t.mergeMs.toFixed(1)} ms`,
      );
      for (const e of held) ctx.io.out(`${e.file}: ${state(e)}`);
      for (const d of catalog.diagnostics().filter((x) => x.severity !== 'info')) ctx.io.out(formatDiagnostic(d));
      return 0;
    });
  },
};

function toggle(on: boolean): Command {
  return {
    path: ['skills', on ? 'enable' : 'disable'],
    summary: on
      ? 'Turn a skill on in this workspace.'
      : 'Turn a skill off in this workspace (never in the prompt, never matched).',
    usage: 'NAME [--workspace DIR]',
    maxPositionals: 1,
    async run(ctx) {
      const name = ctx.positionals[0];
      if (!name) throw new CliError(`missing skill NAME (usage: knack skills ${on ? 'enable' : 'disable'} NAME)`);
      return withCatalog(
        ctx,
        (catalog) => {
          if (!catalog.get(name)) throw new CliError(`no skill named "${name}" (try: knack skills list)`);
          const e = catalog.setEnabled(name, on);
          if (ctx.json) printJson(ctx.io, entryJson(e));
          else {
            const note = on && !e.enabled && e.disabledReason ? ` (still off: ${e.disabledReason})` : '';
            ctx.io.out(`${e.manifest.name}: ${on ? 'on' : 'off'} in ${ctx.workspace}${note}`);
          }
          return 0;
        },
        { requireStore: true },
      );
    },
  };
}

const prompt: Command = {
  path: ['skills', 'prompt'],
  summary:
    'Show the skill catalog exactly as it goes into the prompt, within its token budget, and what was shortened or left out.',
  usage: '[--query TEXT] [--budget TOKENS] [--workspace DIR] [--json]',
  options: { query: { type: 'string' }, budget: { type: 'string' } },
  maxPositionals: 0,
  run(ctx) {
    const budgetFlag = typeof ctx.values.budget === 'string' ? Number(ctx.values.budget) : undefined;
    if (budgetFlag !== undefined && (!Number.isInteger(budgetFlag) || budgetFlag < 0)) {
      throw new CliError(`--budget: expected a whole number of tokens, got "${String(ctx.values.budget)}"`);
    }
    return withWorkspace(ctx, (ws) => {
      const r = buildPromptCatalog(ws.catalog.enabled(), {
        settings: ws.settings.catalog,
        ...(budgetFlag !== undefined ? { budgetTokens: budgetFlag } : {}),
        ...(typeof ctx.values.query === 'string' ? { query: ctx.values.query } : {}),
      });
      if (ctx.json) {
        printJson(ctx.io, r);
        return 0;
      }
      ctx.io.out(r.text);
      ctx.io.out(
        `\n${r.tokens} of ${r.budget} tokens; ${r.included.length} listed, ${r.shortened.length} shortened, ${r.dropped.length} left out (reachable with SkillSearch).`,
      );
      if (r.shortened.length) ctx.io.out(`shortened: ${r.shortened.join(', ')}`);
      if (r.dropped.length) ctx.io.out(`left out: ${r.dropped.join(', ')}`);
      return 0;
    });
  },
};

export const skillsCatalogCommands: Command[] = [list, show, lint, index, toggle(true), toggle(false), prompt];
