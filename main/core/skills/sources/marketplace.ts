// A marketplace file (.claude-plugin/marketplace.json) read in the shape the public ones have: plugins, each with a
// `source` that is a relative path or an object of kind github / url / git-subdir, and optionally its skill folders.
// zod checks the shape; json-file.ts finds the line of a bad field, so an error names file:line and field, in words.
import { z } from 'zod';
import { english, say, type Said } from '../../base/index.js';
import { internalKind } from '../../policy/index.js';
import { gitHost } from './git.js';
import { readJsonFile } from './json-file.js';
import { cleanRepoPath, parseSource, problemWords, refProblem } from './spec.js';

export const MARKETPLACE_FILE = '.claude-plugin/marketplace.json';

/** Where a plugin's files are: in the marketplace's own repository, or in another git repository. */
export type PluginSource =
  | { kind: 'relative'; path: string }
  | {
      kind: 'git';
      sourceKind: 'github' | 'url' | 'git-subdir';
      url: string;
      ref?: string;
      sha?: string;
      path?: string;
    };

export interface MarketplacePlugin {
  name: string;
  description: string;
  category?: string;
  tags: string[];
  source: PluginSource;
  /** Skill folders relative to the plugin's root, when the entry lists them. */
  skills?: string[];
}

export interface Marketplace {
  name: string;
  description: string;
  plugins: MarketplacePlugin[];
}

const SOURCE_KINDS = ['github', 'url', 'git-subdir'] as const;
const Opt = z.string().min(1).optional();
const Github = z.looseObject({
  source: z.literal('github'),
  repo: z.string().regex(/^[\w.-]+\/[\w.-]+$/),
  ref: Opt,
  sha: Opt,
});
const Url = z.looseObject({ source: z.literal('url'), url: z.string().min(1), ref: Opt, sha: Opt, path: Opt });
const GitSubdir = z.looseObject({
  source: z.literal('git-subdir'),
  url: z.string().min(1),
  path: z.string().min(1),
  ref: Opt,
  sha: Opt,
});
const Plugin = z.looseObject({
  name: z.string().min(1),
  description: z.string().optional(),
  category: z.string().optional(),
  tags: z.array(z.string()).optional(),
  keywords: z.array(z.string()).optional(),
  source: z.union([z.string().min(1), z.looseObject({ source: z.string() })]),
  skills: z.union([z.string(), z.array(z.string())]).optional(),
});
const File = z.looseObject({
  name: z.string().min(1),
  description: z.string().optional(),
  metadata: z.looseObject({ description: z.string().optional(), pluginRoot: z.string().optional() }).optional(),
  plugins: z.array(z.unknown()),
});

/** Why a source URL is on this computer or its network: `file` (file:// or a path), or an internal host's kind. */
export function localKind(url: string): string | undefined {
  const host = /^file:/i.test(url) ? undefined : gitHost(url);
  return host === undefined ? 'file' : internalKind(host);
}

/**
 * Why a marketplace read from `market` may not send git to `plugin`, or undefined when it may. A marketplace read from
 * this computer (file://) may name anything; one read from elsewhere may name public hosts and its own host, never a
 * folder here or another loopback, private or link-local address (a hostile marketplace aiming git at a service on
 * this computer or its network, or at a repository of the user's).
 */
export function pluginReachProblem(market: string, plugin: string): string | undefined {
  if (localKind(market) === 'file') return undefined;
  const kind = localKind(plugin);
  if (kind === undefined || (kind !== 'file' && gitHost(plugin) === gitHost(market))) return undefined;
  return kind;
}

/** Parse marketplace.json text; `file` names it in errors (`…/marketplace.json:12: plugins[3].source.source: …`). */
export function parseMarketplace(text: string, file: string): Marketplace {
  const f = readJsonFile(text, file);
  const fail = f.fail;
  const json: unknown = JSON.parse(text);
  const top = File.safeParse(json);
  if (!top.success) f.failIssue([], top.error.issues[0]!);
  const data = top.data!;
  const pluginRoot = data.metadata?.pluginRoot;
  const plugins: MarketplacePlugin[] = [];
  const names = new Set<string>();
  data.plugins.forEach((raw, i) => {
    const p = Plugin.safeParse(raw);
    if (!p.success) f.failIssue(['plugins', i], p.error.issues[0]!);
    const entry = p.data!;
    if (names.has(entry.name)) fail(['plugins', i, 'name'], say('marketplace.twice', { name: entry.name }));
    names.add(entry.name);
    let source: PluginSource;
    try {
      source = pluginSource(entry.source, pluginRoot);
    } catch (e) {
      if (e instanceof KindError) {
        if (e.issue) f.failIssue(['plugins', i, 'source'], e.issue);
        fail(['plugins', i, 'source', ...e.at], e.words);
      }
      fail(['plugins', i, 'source'], problemWords(e));
    }
    const skills = entry.skills === undefined ? undefined : Array.isArray(entry.skills) ? entry.skills : [entry.skills];
    if (skills)
      skills.forEach((s, k) => {
        try {
          cleanRepoPath(s, say('source.what.skillFolder'));
        } catch (e) {
          fail(['plugins', i, 'skills', k], problemWords(e));
        }
      });
    plugins.push({
      name: entry.name,
      description: entry.description ?? '',
      ...(entry.category ? { category: entry.category } : {}),
      tags: [...(entry.tags ?? []), ...(entry.keywords ?? [])],
      source: source!,
      ...(skills ? { skills: skills.map((s) => cleanRepoPath(s, say('source.what.skillFolder'))) } : {}),
    });
  });
  return { name: data.name, description: data.description ?? data.metadata?.description ?? '', plugins };
}

/** What is wrong with a plugin's source object, at a field below it: in words, or zod's problem. */
class KindError extends Error {
  constructor(
    readonly at: string[],
    readonly words: Said,
    readonly issue?: z.core.$ZodIssue,
  ) {
    super(english(words));
  }
}

function gitUrl(url: string): string {
  const spec = parseSource(url, '/');
  if (spec.kind !== 'git') throw new KindError(['url'], say('marketplace.notGit', { url }));
  return spec.url;
}

function pluginSource(src: string | { source: string }, pluginRoot: string | undefined): PluginSource {
  if (typeof src === 'string') {
    if (!src.startsWith('./') && src !== '.') throw new KindError([], say('marketplace.notRelative', { source: src }));
    const root = pluginRoot ? cleanRepoPath(pluginRoot, 'metadata.pluginRoot') : '';
    const path = cleanRepoPath(src, 'source');
    return { kind: 'relative', path: [root, path].filter(Boolean).join('/') };
  }
  const check = (o: { ref?: string | undefined; sha?: string | undefined }) => {
    const bad = o.ref ? refProblem(o.ref) : undefined;
    if (bad) throw new KindError(['ref'], bad);
    if (o.sha && !/^[0-9a-f]{7,64}$/i.test(o.sha))
      throw new KindError(['sha'], say('marketplace.notCommit', { sha: o.sha }));
  };
  const opt = (o: { ref?: string | undefined; sha?: string | undefined }) => ({
    ...(o.ref ? { ref: o.ref } : {}),
    ...(o.sha ? { sha: o.sha } : {}),
  });
  const parsed = (schema: z.ZodType, v: unknown) => {
    const r = schema.safeParse(v);
    if (!r.success) {
      const issue = r.error.issues[0]!;
      throw new KindError(issue.path.map(String), say('json.other', { error: issue.message }), issue);
    }
    return r.data;
  };
  switch (src.source) {
    case 'github': {
      const g = parsed(Github, src) as z.infer<typeof Github>;
      check(g);
      return { kind: 'git', sourceKind: 'github', url: `https://github.com/${g.repo}.git`, ...opt(g) };
    }
    case 'url': {
      const u = parsed(Url, src) as z.infer<typeof Url>;
      check(u);
      const path = u.path ? cleanRepoPath(u.path) : '';
      return { kind: 'git', sourceKind: 'url', url: gitUrl(u.url), ...opt(u), ...(path ? { path } : {}) };
    }
    case 'git-subdir': {
      const s = parsed(GitSubdir, src) as z.infer<typeof GitSubdir>;
      check(s);
      const path = cleanRepoPath(s.path);
      return { kind: 'git', sourceKind: 'git-subdir', url: gitUrl(s.url), ...opt(s), ...(path ? { path } : {}) };
    }
    default:
      throw new KindError(
        ['source'],
        say('marketplace.unknownKind', { kind: src.source, kinds: SOURCE_KINDS.join(', ') }),
      );
  }
}
