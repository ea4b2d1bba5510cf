// The model's deferred tool over the configured marketplaces: search them (the same bilingual search as `knack skills
// browse`) and propose an install to the user. A proposal is only shown: the window's card opens the install dialog,
// the CLI prints the `knack skills add` line; the model never installs, and can propose only what a marketplace lists.
import { z } from 'zod';
import { defineTool, type AnyTool, type ToolResult } from '../../tools/index.js';
import { displaySafe, TOOL, TOOLS } from '../../policy/index.js';
import {
  listMarketplaces,
  marketplaceEntries,
  searchEntries,
  type FetchOptions,
  type MarketEntry,
} from '../sources/index.js';

export interface MarketplaceToolDeps {
  dataDir: string;
  workspace: string;
  /** The wall git runs in while a marketplace is read. */
  wall?: FetchOptions['wall'];
}

/**
 * What the user is shown for a proposal (every string escaped for display): the `installProposal` of the tool's
 * result. The window reads it from the tool card (preload/contract.ts InstallProposal) and the CLI from the result.
 */
export interface InstallProposal {
  marketplace: string;
  marketplaceName: string;
  plugin: string;
  skill?: string;
  description: string;
  level?: 'P0' | 'P1' | 'P2';
  /** The command that opens the same review in a terminal. */
  command: string;
}

/** Distinct proposals one open workspace shows at most: a model calling in a loop cannot bury the user in cards. */
const MAX_PROPOSALS = 5;

/** The proposal in a tool result's text (this tool's, run directly or through DeferExecuteTool), if it holds one. */
export function proposalIn(content: string): InstallProposal | undefined {
  let v: unknown;
  try {
    v = JSON.parse(content);
  } catch {
    return undefined;
  }
  const p = (v as { installProposal?: Partial<InstallProposal> } | null)?.installProposal;
  return p && typeof p.marketplace === 'string' && typeof p.plugin === 'string' && typeof p.command === 'string'
    ? (p as InstallProposal)
    : undefined;
}

const fail = (code: string, message: string): ToolResult => ({ ok: false, error: { code, message } });

/** One word for a POSIX shell, quoted unless it holds only characters a shell leaves alone. */
function shellWord(word: string): string {
  return /^[A-Za-z0-9_./:@#+=,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

export function createMarketplaceTool(deps: MarketplaceToolDeps): AnyTool {
  const proposed = new Set<string>();
  const entries = async (sources: string[]): Promise<{ entries: MarketEntry[]; problems: string[] }> => {
    const all: MarketEntry[] = [];
    const problems: string[] = [];
    for (const source of sources) {
      try {
        all.push(
          ...(await marketplaceEntries(source, {
            dataDir: deps.dataDir,
            cwd: deps.workspace,
            ...(deps.wall ? { wall: deps.wall } : {}),
          })),
        );
      } catch (e) {
        problems.push((e as Error).message);
      }
    }
    return { entries: all, problems };
  };

  return defineTool({
    name: TOOL.skill_marketplace,
    summary: 'Search the configured skill marketplaces, and propose a skill for the user to review and install.',
    description:
      'Search the skill marketplaces the user configured (English or Chinese query), then optionally propose one hit to ' +
      'the user: pass `propose` with the `marketplace` and `name` of a search result. A proposal only shows the user a ' +
      '"Review install" card; the user reviews the audit and decides. Nothing is installed by this tool, and only ' +
      'entries the configured marketplaces list can be proposed.',
    input: z.strictObject({
      query: z.string().max(500).describe('What the skill should do.').optional(),
      limit: z.number().int().min(1).max(20).optional(),
      propose: z
        .strictObject({
          marketplace: z.string().describe('The `marketplace` of a search result.'),
          name: z.string().describe('The `name` of a search result (a skill or a plugin).'),
        })
        .optional(),
    }),
    deferLoading: true,
    risk: TOOLS.skill_marketplace.access,
    access: () => ({}),
    handler: async (args) => {
      let sources: string[];
      try {
        sources = listMarketplaces(deps.dataDir, deps.workspace).map((m) => m.source);
      } catch (e) {
        return fail('marketplace.settings', (e as Error).message);
      }
      if (!sources.length)
        return fail(
          'marketplace.none',
          'no marketplaces are configured; the user adds them (knack skills marketplace add)',
        );
      const read = await entries(sources);
      if (args.propose) {
        const { marketplace: market, name } = args.propose;
        // Only what a configured marketplace lists: a source string of the model's own is never proposed.
        const e = read.entries.find((x) => x.marketplace === market && (x.skill ?? x.plugin) === name);
        if (!e)
          return fail(
            'marketplace.not_listed',
            `no entry named ${JSON.stringify(name)} in a configured marketplace ${JSON.stringify(market)}; search first`,
          );
        const key = `${e.marketplace}\0${e.plugin}\0${e.skill ?? ''}`;
        if (proposed.has(key))
          return fail('marketplace.already_proposed', 'already proposed to the user; wait for them');
        if (proposed.size >= MAX_PROPOSALS)
          return fail('marketplace.too_many', `${MAX_PROPOSALS} proposals were shown already; let the user decide`);
        proposed.add(key);
        const proposal: InstallProposal = {
          marketplace: displaySafe(e.marketplace),
          marketplaceName: displaySafe(e.marketplaceName),
          plugin: displaySafe(e.plugin),
          ...(e.skill ? { skill: displaySafe(e.skill) } : {}),
          description: displaySafe(e.description).slice(0, 500),
          ...(e.level ? { level: e.level } : {}),
          command: displaySafe(
            `knack skills add ${shellWord(e.marketplace)} --skill ${shellWord(e.skill ?? e.plugin)}`,
          ),
        };
        return {
          ok: true,
          content: {
            installProposal: proposal,
            note: 'Shown to the user with a "Review install" button. Nothing is installed unless they review and approve it.',
          },
        };
      }
      const query = args.query ?? '';
      const limit = args.limit ?? 8;
      const hits = searchEntries(read.entries, query, limit, `${deps.dataDir}/cache`);
      return {
        ok: true,
        content: {
          results: hits.map((h) => ({
            marketplace: h.marketplace,
            name: h.skill ?? h.plugin,
            plugin: h.plugin,
            description: h.description.slice(0, 300),
            ...(h.level ? { level: h.level } : {}),
          })),
          ...(hits.length ? {} : { note: 'nothing matched; try other words' }),
          ...(read.problems.length ? { unreadable: read.problems } : {}),
        },
      };
    },
  });
}
