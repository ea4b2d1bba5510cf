// The composer's @-mention list (`workspace.files`): the open folder's files by workspace-relative path, ranked by a
// fuzzy query. Only names: the mention attaches nothing, the model reads a named file with read_file and the gate
// decides that read as any other. The listing is the tools' own walk (.gitignore, .git, node_modules skipped; a
// symlinked folder never followed, a symlinked file only when it stays inside), in this process, never a program
// (every program Knack starts runs inside the OS sandbox). It is bounded in files and in time, and kept a moment per
// folder so each keystroke does not walk the tree again, while a file made since shows up within seconds.
import { walkFiles } from '../tools/index.js';
import type { MethodArgs, MethodOutput } from '../../../preload/contract.js';
import type { ServiceContext } from './context.js';

/** Files one listing walks at most; past them it says `truncated`. */
const MAX_FILES = 20_000;
/** How long one listing may walk; past it, it says `truncated`. */
const MAX_WALK_MS = 1500;
/** How long a listing answers for its folder before the next call walks again. */
const TTL_MS = 2000;

export interface Listing {
  paths: string[];
  truncated: boolean;
}

const separator = (c: string | undefined) => c === undefined || c === '/' || c === '-' || c === '_' || c === '.';

/**
 * How well `query` matches `path` as a subsequence (case-insensitive), or undefined when it does not. A short
 * scorer of our own: no fuzzy-ranking library is among the dependencies (picomatch matches globs, it does not rank),
 * and this one is twenty lines. Earns for letters at the start of a segment (after `/`, `-`, `_`, `.`), for runs of
 * consecutive letters and for letters in the file name; a longer path costs a little.
 */
export function fuzzyScore(query: string, path: string): number | undefined {
  const q = query.toLowerCase();
  const p = path.toLowerCase();
  const nameStart = p.lastIndexOf('/') + 1;
  let score = 0;
  let at = -1;
  let run = 0;
  for (const ch of q) {
    const i = p.indexOf(ch, at + 1);
    if (i < 0) return undefined;
    run = i === at + 1 ? run + 1 : 0;
    score += 1 + run * 2 + (separator(p[i - 1]) ? 3 : 0) + (i >= nameStart ? 2 : 0);
    at = i;
  }
  return score - p.length / 100;
}

const depth = (p: string) => p.split('/').length;

/** The best `limit` paths for `query`: by score, or (no query) the shallowest first, then by name. */
function rank(paths: readonly string[], query: string, limit: number): string[] {
  if (!query) {
    return [...paths]
      .sort((a, b) => depth(a) - depth(b) || (a.toLowerCase() < b.toLowerCase() ? -1 : 1))
      .slice(0, limit);
  }
  const hits: { path: string; score: number }[] = [];
  for (const path of paths) {
    const score = fuzzyScore(query, path);
    if (score !== undefined) hits.push({ path, score });
  }
  hits.sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : 1));
  return hits.slice(0, limit).map((h) => h.path);
}

export interface ListerOptions {
  maxFiles?: number;
  maxWalkMs?: number;
  ttlMs?: number;
  now?: () => number;
}

/** One folder's listing at a time (the open workspace's), walked again once it is older than the TTL. */
export class FileLister {
  private cached: { root: string; at: number; listing: Promise<Listing> } | undefined;

  constructor(private readonly opts: ListerOptions = {}) {}

  async list(root: string, query: string, limit: number): Promise<Listing> {
    const listing = await this.listing(root);
    return { paths: rank(listing.paths, query.trim(), limit), truncated: listing.truncated };
  }

  private listing(root: string): Promise<Listing> {
    const now = (this.opts.now ?? Date.now)();
    const c = this.cached;
    if (c && c.root === root && now - c.at < (this.opts.ttlMs ?? TTL_MS)) return c.listing;
    const listing = this.walk(root);
    this.cached = { root, at: now, listing };
    // A failed walk is not kept: the next keystroke tries again.
    listing.catch(() => {
      if (this.cached?.listing === listing) this.cached = undefined;
    });
    return listing;
  }

  private async walk(root: string): Promise<Listing> {
    const signal = AbortSignal.timeout(this.opts.maxWalkMs ?? MAX_WALK_MS);
    let truncated = false;
    const paths: string[] = [];
    const walk = { maxFiles: this.opts.maxFiles ?? MAX_FILES, signal, onCapped: () => (truncated = true) };
    for await (const f of walkFiles(root, walk)) paths.push(f.rel);
    return { paths, truncated: truncated || signal.aborted };
  }
}

export function fileHandlers(ctx: ServiceContext) {
  const lister = new FileLister();
  return {
    'workspace.files': async ({
      query,
      limit,
    }: MethodArgs<'workspace.files'>): Promise<MethodOutput<'workspace.files'>> =>
      lister.list(ctx.workspace().workspace, query, limit),
  };
}
