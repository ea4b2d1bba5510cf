// `knack skills match|search|load`: which skills a message triggers (with reasons), cross-language SkillSearch, and
// what loading a skill would put into the context.
// The matcher, SkillSearch and loader are the workspace's own (the ones the agent uses), not built here.
import { CliError, printJson, type Command, type CommandContext } from './command.js';
import { withWorkspace } from './workspace.js';
import { describeOver, describeReason } from '../core/skills/use/index.js';
import { listResources } from '../core/skills/use/index.js';

function text(ctx: CommandContext, what: string): string {
  const t = ctx.positionals.join(' ').trim();
  if (!t) throw new CliError(`missing ${what}`);
  return t;
}

const match: Command = {
  path: ['skills', 'match'],
  summary: 'Show which skills a message would auto-load, ranked, with the reason for each.',
  usage: '"MESSAGE" [--workspace DIR] [--json]',
  async run(ctx) {
    const message = text(ctx, 'MESSAGE (the user message to match)');
    return withWorkspace(
      ctx,
      (ws) => {
        const t0 = performance.now();
        const matcher = ws.matcher();
        const t1 = performance.now();
        // One message: checked trigger by trigger, the same answer as the automaton without building it (at 5,000
        // skills the build costs more than the loop).
        const matches = matcher.matchNaive(message);
        const t2 = performance.now();
        if (ctx.json) {
          printJson(ctx.io, {
            message,
            matches,
            skills: matcher.skillCount,
            triggers: matcher.triggerCount,
            timings: { buildMs: t1 - t0, matchMs: t2 - t1 },
          });
          return 0;
        }
        if (matches.length === 0) {
          ctx.io.out(
            `no skill triggered (${matcher.skillCount} enabled skills, ${matcher.triggerCount} triggers). Try: knack skills search "${message}"`,
          );
          return 0;
        }
        for (const m of matches) {
          ctx.io.out(`${m.name}  [${m.tier}]  score ${m.score}`);
          for (const r of m.reasons) ctx.io.out(`    ${describeReason(r)}`);
          const over = describeOver(m);
          if (over) ctx.io.out(`    ${over}; knack skills search still finds ${m.over?.length === 1 ? 'it' : 'them'}`);
        }
        return 0;
      },
      { requireStore: true },
    );
  },
};

const search: Command = {
  path: ['skills', 'search'],
  summary: 'Search the enabled skills (name, description, triggers) in English or Chinese.',
  usage: '"QUERY" [--limit N] [--workspace DIR] [--json]',
  options: { limit: { type: 'string', short: 'n' } },
  async run(ctx) {
    const query = text(ctx, 'QUERY');
    const rawLimit = ctx.values.limit;
    const limit = rawLimit === undefined ? 10 : Number(rawLimit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
      throw new CliError(`--limit: expected a whole number from 1 to 1000, got "${String(rawLimit)}"`);
    return withWorkspace(
      ctx,
      (ws) => {
        const t0 = performance.now();
        const s = ws.skillSearch();
        const hits = s.search(query, { limit });
        const ms = performance.now() - t0;
        if (ctx.json) {
          printJson(ctx.io, { query, terms: s.explain(query), results: hits, timings: { totalMs: ms } });
          return 0;
        }
        if (hits.length === 0) {
          ctx.io.out(`no skill found for "${query}" among ${s.size} enabled skills`);
          return 0;
        }
        const width = Math.max(...hits.map((h) => h.name.length));
        for (const h of hits) {
          const summary = h.summary.length > 110 ? h.summary.slice(0, 107) + '...' : h.summary;
          ctx.io.out(`${h.name.padEnd(width)}  [${h.tier}]  ${summary}`);
        }
        return 0;
      },
      { requireStore: true },
    );
  },
};

const load: Command = {
  path: ['skills', 'load'],
  summary: 'Show what loading a skill puts into the context: dependencies first, bodies, tokens.',
  usage: 'NAME [--workspace DIR] [--json]',
  async run(ctx) {
    const name = text(ctx, 'NAME');
    return withWorkspace(
      ctx,
      (ws) => {
        const { catalog } = ws;
        const loader = ws.newLoader();
        const r = loader.load(name, 'user');
        if (!r.ok) {
          if (ctx.json) printJson(ctx.io, { ok: false, error: r.error });
          else ctx.io.err(`knack skills load: ${r.error.message}`);
          return 1;
        }
        const withResources = r.value.map((s) => ({
          ...s,
          resources: listResources(catalog.get(s.name)?.realDir ?? s.dir),
        }));
        const total = r.value.reduce((a, s) => a + s.tokens, 0);
        if (ctx.json) {
          printJson(ctx.io, { ok: true, skills: withResources, totalTokens: total, projection: loader.projection() });
          return 0;
        }
        ctx.io.out(`load order: ${r.value.map((s) => s.name).join(' → ')}   (${total} tokens in total)`);
        for (const s of withResources) {
          ctx.io.out('');
          ctx.io.out(
            `── ${s.name} [${s.tier}] ${s.reason}${s.requiredBy ? ` of ${s.requiredBy}` : ''} · version ${s.version} · ${s.tokens} tokens · ${s.file}`,
          );
          if (s.resources.length) ctx.io.out(`   resources: ${s.resources.join(', ')}`);
          ctx.io.out('');
          ctx.io.out(s.body);
        }
        return 0;
      },
      { requireStore: true },
    );
  },
};

export const skillsMatchCommands: Command[] = [match, search, load];
