// The composer's @-mention list (`workspace.files`): the open folder's files by workspace-relative path, ranked by a
// fuzzy query, without the names the user's rules deny the model to read. Only names: the mention attaches nothing, the model reads a named file with read_file and the gate
// decides that read as any other. The listing is the tools' own walk (.gitignore, .git, node_modules skipped; a
// symlinked folder never followed, a symlinked file only when it stays inside), in this process, never a program
// (every program Knack starts runs inside the OS sandbox). It is bounded in files and in time, and kept a moment per
// folder so each keystroke does not walk the tree again, while a file made since shows up within seconds.
import { agentMayRead } from '../policy/index.js';
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

/** What a letter earns where it matches: the start of a path segment, of a word in a name, a camelCase hump. */
const SEGMENT_START = 8;
const WORD_START = 6;
const CAMEL_HUMP = 2;
/** A letter right after the previous one's match (`chat` in `Chat.tsx`). */
const RUN = 7;
/** A letter in the file name rather than a folder's. */
const IN_NAME = 1;

function startBonus(path: string, lower: string, i: number): number {
  const prev = path[i - 1];
  if (prev === undefined || prev === '/') return SEGMENT_START;
  if (prev === '-' || prev === '_' || prev === '.' || prev === ' ') return WORD_START;
  const c = path[i]!;
  return c !== lower[i] && prev === lower[i - 1] && prev !== prev.toUpperCase() ? CAMEL_HUMP : 0;
}

/**
 * How well `query` matches `path` as a subsequence (case-insensitive), or undefined when it does not: the best of
 * every way the letters can match, as VS Code's quick open scores it, not the first way. A letter earns at the start
 * of a path segment, of a word (after `-`, `_`, `.`, a space) or at a camelCase hump, more right after the letter
 * before it, a little in the file name; a longer path costs a little. So `sct` finds `src/components/Chat.tsx`
 * (segment, segment, word) above `src/app.ts` (whose `c` and `t` start nothing). Dynamic programming over query ×
 * path: a few thousand steps for a usual path; no ranking library is among the dependencies (picomatch matches
 * globs, core/search ranks words, not letters).
 */
export function fuzzyScore(query: string, path: string): number | undefined {
  const q = query.toLowerCase();
  const lower = path.toLowerCase();
  const n = lower.length;
  if (!isSubsequence(q, lower)) return undefined;
  const nameStart = lower.lastIndexOf('/') + 1;
  // best[i]: the best score with the query's letters so far matched, the last one at i. Two rows reused across
  // calls: a keystroke scores every path of the folder (20,000 at most), each allocation a cost.
  if (rows[0].length < n) rows = [new Float64Array(n * 2), new Float64Array(n * 2)];
  let [best, next] = rows;
  best.fill(-Infinity, 0, n);
  for (let k = 0; k < q.length; k++) {
    next.fill(-Infinity, 0, n);
    let before = -Infinity; // the best of best[0 .. i - 2]: a gap before the letter at i
    for (let i = k; i < n; i++) {
      if (k > 0 && i >= 2) before = Math.max(before, best[i - 2]!);
      if (lower[i] !== q[k]) continue;
      const own = 1 + startBonus(path, lower, i) + (i >= nameStart ? IN_NAME : 0);
      const from = k === 0 ? 0 : Math.max(before, best[i - 1]! + RUN);
      if (from !== -Infinity) next[i] = from + own;
    }
    [best, next] = [next, best];
  }
  let top = -Infinity;
  for (let i = 0; i < n; i++) if (best[i]! > top) top = best[i]!;
  return top === -Infinity ? undefined : top - n / 100;
}

let rows: [Float64Array, Float64Array] = [new Float64Array(256), new Float64Array(256)];

/** Whether `q`'s letters appear in `lower` in order: most paths fail this, before any scoring. */
function isSubsequence(q: string, lower: string): boolean {
  let at = 0;
  for (const c of q) {
    at = lower.indexOf(c, at);
    if (at === -1) return false;
    at += c.length;
  }
  return true;
}

const depth = (p: string) => p.split('/').length;

/**
 * The best `limit` paths for `query` that `shown` keeps: by score, or (no query) the shallowest first, then by name.
 * `shown` is asked in rank order only until `limit` are kept, so a costly check runs a few times per query.
 */
function rank(paths: readonly string[], query: string, limit: number, shown: (path: string) => boolean): string[] {
  let ranked: string[];
  if (!query) {
    ranked = [...paths].sort((a, b) => depth(a) - depth(b) || (a.toLowerCase() < b.toLowerCase() ? -1 : 1));
  } else {
    const hits: { path: string; score: number }[] = [];
    for (const path of paths) {
      const score = fuzzyScore(query, path);
      if (score !== undefined) hits.push({ path, score });
    }
    hits.sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : 1));
    ranked = hits.map((h) => h.path);
  }
  const out: string[] = [];
  for (const path of ranked) {
    if (out.length >= limit) break;
    if (shown(path)) out.push(path);
  }
  return out;
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

  /** `shown`: whether a path (relative to `root`) may be listed; every one when left out. */
  async list(
    root: string,
    query: string,
    limit: number,
    shown: (path: string) => boolean = () => true,
  ): Promise<Listing> {
    const listing = await this.listing(root);
    return { paths: rank(listing.paths, query.trim(), limit, shown), truncated: listing.truncated };
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

/**
 * Whether the model may read `rel` in the open folder: the live gate's answer for a read_file of it by the agent. A
 * name the user's rules deny is left out of the list (the read would be refused anyway, and the name alone can say
 * what the user keeps private); an ask stays listed, the read asks when it happens.
 */

export function fileHandlers(ctx: ServiceContext) {
  const lister = new FileLister();
  return {
    'workspace.files': async ({
      query,
      limit,
    }: MethodArgs<'workspace.files'>): Promise<MethodOutput<'workspace.files'>> => {
      const ws = ctx.workspace();
      return lister.list(ws.workspace, query, limit, agentMayRead(ws.gate, ws.workspace));
    },
  };
}
