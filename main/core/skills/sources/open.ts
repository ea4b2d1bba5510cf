// Open a skill source and list what it offers: each skill folder with its name, description and audit level, ready to
// pick. A repository may hold one skill, many, or a marketplace whose plugins live here or in other repositories.
import { existsSync, lstatSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, join, relative, sep } from 'node:path';
import { isInside, say, type Said } from '../../base/index.js';
import { parseFoundSkill } from '../format/index.js';
import { auditSkill, heldSourceProblem } from '../trust/index.js';
import {
  fetchJsonText,
  fetchRepo,
  JSON_LIMITS,
  jsonOptions,
  sizeText,
  type FetchedRepo,
  type FetchOptions,
} from './fetch.js';
import {
  MARKETPLACE_FILE,
  parseMarketplace,
  pluginReachProblem,
  type Marketplace,
  type MarketplacePlugin,
} from './marketplace.js';
import { formatSource, SourceError, type SourceSpec } from './spec.js';

/** Where an installed skill came from: what skills.lock.json records for it. */
export interface SourceRecord {
  url: string;
  ref?: string;
  commit: string;
  /** Folder of the skill inside the repository ("" = its top). */
  path: string;
  /** The marketplace it was picked from (as the user gave it) and the plugin that lists it. */
  marketplace?: string;
  plugin?: string;
}

export interface Candidate {
  name: string;
  description: string;
  /** The skill's folder in the fetched tree (temporary). */
  dir: string;
  level: 'P0' | 'P1' | 'P2';
  contentHash: string;
  findings: number;
  /** Why it cannot be installed as it is (a link out of its folder), in words, when it cannot. */
  problem?: Said;
  /** Undefined for a local folder (nothing to record). */
  record?: SourceRecord;
  plugin?: string;
}

export interface PluginEntry {
  name: string;
  description: string;
  category?: string;
  tags: string[];
  /** Its skills are listed in `candidates` (its repository was fetched). */
  fetched: boolean;
  /** Where its files are, as one line. */
  from: string;
}

export interface OpenedSource {
  display: string;
  kind: 'local' | 'repository' | 'marketplace';
  marketplace?: { name: string; description: string; plugins: PluginEntry[] };
  candidates: Candidate[];
  /** Remove every temporary folder. */
  dispose(): void;
}

export interface OpenOptions extends FetchOptions {
  /** Plugins of a marketplace to fetch from other repositories (by plugin or skill name); others are only listed. */
  want?: string[];
  /** Fetch every plugin of a marketplace, wherever it lives. */
  allPlugins?: boolean;
  /**
   * Knack's data folder: a local source in or above its held copies is refused (trust/held.ts). A local source is
   * refused without it.
   */
  dataDir?: string;
}

const MAX_FOLDERS = 5_000;
const MAX_DEPTH = 6;

const hasSkillMd = (dir: string) => existsSync(join(dir, 'SKILL.md')) || existsSync(join(dir, 'skill.md'));

/** Skill folders under `root` (a folder holding SKILL.md is not looked into), without following links. */
export function findSkillFolders(root: string): string[] {
  if (hasSkillMd(root)) return [root];
  const out: string[] = [];
  let visited = 0;
  const walk = (dir: string, depth: number) => {
    if (depth > MAX_DEPTH || ++visited > MAX_FOLDERS) return;
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (!e.isDirectory() || e.name === '.git' || e.name === 'node_modules') continue;
      const p = join(dir, e.name);
      if (hasSkillMd(p)) out.push(p);
      else walk(p, depth + 1);
    }
  };
  walk(root, 0);
  return out;
}

/** The first link inside `dir` that is broken or leads out of it, in words; undefined when there is none. */
function linkOutOf(dir: string): Said | undefined {
  const real = realpathSync(dir);
  const stack = [dir];
  while (stack.length) {
    const d = stack.pop()!;
    for (const n of readdirSync(d)) {
      const p = join(d, n);
      const st = lstatSync(p);
      if (st.isSymbolicLink()) {
        let target: string;
        try {
          target = realpathSync(p);
        } catch {
          return say('copy.linkBroken', { link: relative(dir, p) });
        }
        if (!isInside(target, real)) return say('source.linkOutside', { link: relative(dir, p) });
      } else if (st.isDirectory()) stack.push(p);
    }
  }
  return undefined;
}

/**
 * A skill folder of a fetched tree as a candidate: audited and described. A folder holding a link that is broken or
 * leads out of it is only named, never read: its SKILL.md could lead to any file of the user's (or /dev/zero).
 */
export function candidateAt(dir: string, record: SourceRecord | undefined, plugin?: string): Candidate {
  const problem = linkOutOf(dir);
  if (problem)
    return {
      name: basename(dir),
      description: '',
      dir,
      level: 'P0',
      contentHash: '',
      findings: 0,
      problem,
      ...(record ? { record } : {}),
      ...(plugin ? { plugin } : {}),
    };
  const report = auditSkill(dir);
  const parsed = parseFoundSkill(existsSync(join(dir, 'SKILL.md')) ? join(dir, 'SKILL.md') : join(dir, 'skill.md'));
  return {
    name: report.skill,
    description: parsed.manifest?.description ?? '',
    dir,
    level: report.level,
    contentHash: report.contentHash,
    findings: report.findings.length,
    ...(record ? { record } : {}),
    ...(plugin ? { plugin } : {}),
  };
}

/**
 * The text of the file `rel` of the fetched tree `root`, read by main: refused when a link leads it out of the tree
 * (never read: it could be any file of the user's, or /dev/zero), when it is not a plain file, or past `max` bytes.
 */
export function readTreeFile(root: string, rel: string, shown: string, max = JSON_LIMITS.maxBytes): string {
  const real = realpathSync(join(root, ...rel.split('/')));
  if (!isInside(real, realpathSync(root))) throw new SourceError(say('source.treeLink', { source: shown }));
  const st = statSync(real);
  if (!st.isFile()) throw new SourceError(say('source.notFile', { source: shown }));
  if (st.size > max) throw new SourceError(say('source.fileTooLarge', { source: shown, limit: sizeText(max) }));
  return readFileSync(real, 'utf8');
}

/** `rel` inside the checked-out `root`, refusing a path that is missing or leaves the tree through a link. */
function inside(root: string, rel: string, display: string, at: string): string {
  const p = rel ? join(root, ...rel.split('/')) : root;
  if (!existsSync(p)) throw new SourceError(say('source.noPath', { source: display, path: rel, at }));
  if (!isInside(realpathSync(p), realpathSync(root)))
    throw new SourceError(say('source.pathLink', { source: display, path: rel }));
  if (!statSync(p).isDirectory()) throw new SourceError(say('source.pathNotFolder', { source: display, path: rel }));
  return p;
}

const relPath = (root: string, dir: string) => relative(root, dir).split(sep).join('/');

/** The skill folders of one plugin, whose files are at `root` in a tree rooted at `repo`. */
function pluginSkills(repo: string, root: string, plugin: MarketplacePlugin, display: string): string[] {
  if (plugin.skills) {
    return plugin.skills.map((s) => {
      const dir = inside(root, s, display, `plugin ${plugin.name}`);
      if (!hasSkillMd(dir))
        throw new SourceError(say('source.pluginNoSkill', { source: display, plugin: plugin.name, path: s }));
      return dir;
    });
  }
  const skillsDir = join(root, 'skills');
  const found = findSkillFolders(existsSync(skillsDir) && isInside(realpathSync(skillsDir), repo) ? skillsDir : root);
  return found;
}

function describeGit(s: { url: string; ref?: string; sha?: string; path?: string }): string {
  return formatSource({
    url: s.url,
    ...((s.sha ?? s.ref) ? { ref: (s.sha ?? s.ref)! } : {}),
    ...(s.path ? { path: s.path } : {}),
  });
}

/** Fetch and list a source. The caller must call dispose() on the result; on error nothing is left behind. */
export async function openSource(spec: SourceSpec, opts: OpenOptions = {}): Promise<OpenedSource> {
  const fetched: FetchedRepo[] = [];
  const dispose = () => {
    for (const f of fetched) f.dispose();
  };
  try {
    if (spec.kind === 'local') {
      if (opts.dataDir === undefined)
        throw new Error(`${spec.display}: a local source is opened knowing the data folder`);
      const held = heldSourceProblem(opts.dataDir, spec.path);
      if (held) throw new SourceError(held);
      if (!existsSync(spec.path)) throw new SourceError(say('install.notFound', { source: spec.display }));
      const dirs = statSync(spec.path).isDirectory() ? findSkillFolders(spec.path) : [];
      if (statSync(spec.path).isDirectory() && dirs.length === 0)
        throw new SourceError(say('source.noSkill', { source: spec.display }));
      opts.onProgress?.('auditing', spec.display);
      return { display: spec.display, kind: 'local', candidates: dirs.map((d) => candidateAt(d, undefined)), dispose };
    }
    let market: Marketplace;
    let marketRepo: FetchedRepo | undefined;
    let marketRef: string | undefined;
    if (spec.kind === 'json') {
      opts.onProgress?.('fetching', spec.display);
      market = parseMarketplace(await fetchJsonText(spec.url, jsonOptions(opts)), spec.url);
    } else {
      const repo = await fetchRepo(spec, opts);
      fetched.push(repo);
      const at = spec.ref ?? 'the default branch';
      const root = inside(repo.dir, spec.path ?? '', spec.display, at);
      const marketRel = [spec.path, MARKETPLACE_FILE].filter(Boolean).join('/');
      if (!hasSkillMd(root) && existsSync(join(repo.dir, ...marketRel.split('/')))) {
        opts.onProgress?.('reading', MARKETPLACE_FILE);
        const shown = `${spec.display}:${marketRel}`;
        market = parseMarketplace(readTreeFile(repo.dir, marketRel, shown), shown);
        marketRepo = { ...repo, dir: root };
        marketRef = spec.ref;
      } else {
        const dirs = findSkillFolders(root);
        if (dirs.length === 0)
          throw new SourceError(
            spec.path
              ? say('source.noSkillAt', { source: spec.display, path: spec.path })
              : say('source.noSkillInRepo', { source: spec.display }),
          );
        opts.onProgress?.('auditing', `${dirs.length} skill(s)`);
        const candidates = dirs.map((d) =>
          candidateAt(d, {
            url: spec.url,
            ...(spec.ref ? { ref: spec.ref } : {}),
            commit: repo.commit,
            path: relPath(repo.dir, d),
          }),
        );
        return { display: spec.display, kind: 'repository', candidates, dispose };
      }
    }
    return await openMarketplace(spec, market, marketRepo, marketRef, fetched, opts, dispose);
  } catch (e) {
    dispose();
    throw e;
  }
}

async function openMarketplace(
  spec: SourceSpec,
  market: Marketplace,
  repo: FetchedRepo | undefined,
  ref: string | undefined,
  fetched: FetchedRepo[],
  opts: OpenOptions,
  dispose: () => void,
): Promise<OpenedSource> {
  const want = new Set(opts.want ?? []);
  const candidates: Candidate[] = [];
  const plugins: PluginEntry[] = [];
  const repos = new Map<string, FetchedRepo>();
  for (const p of market.plugins) {
    const entry: PluginEntry = {
      name: p.name,
      description: p.description,
      ...(p.category ? { category: p.category } : {}),
      tags: p.tags,
      fetched: false,
      from: p.source.kind === 'relative' ? `./${p.source.path}` : describeGit(p.source),
    };
    plugins.push(entry);
    const base = { marketplace: spec.display, plugin: p.name };
    if (p.source.kind === 'relative') {
      if (!repo) {
        // A marketplace.json read over HTTP has no repository for "./" paths to be in.
        continue;
      }
      const repoRoot = realpathSync(repo.dir);
      const root = inside(repo.dir, p.source.path, spec.display, `plugin ${p.name}`);
      const topDir = fetched[0]!.dir;
      for (const d of pluginSkills(repoRoot, root, p, spec.display)) {
        candidates.push(
          candidateAt(
            d,
            {
              url: (spec as { url: string }).url,
              ...(ref ? { ref } : {}),
              commit: repo.commit,
              path: relPath(topDir, d),
              ...base,
            },
            p.name,
          ),
        );
      }
      entry.fetched = true;
      continue;
    }
    const src = p.source;
    if (!opts.allPlugins && !want.has(p.name)) continue;
    if (pluginReachProblem((spec as { url: string }).url, src.url))
      throw new SourceError(say('source.pluginLocal', { source: spec.display, plugin: p.name, url: src.url }));
    const key = `${src.url}\0${src.sha ?? src.ref ?? ''}`;
    let r = repos.get(key);
    if (!r) {
      r = await fetchRepo(
        {
          url: src.url,
          ...(src.ref ? { ref: src.ref } : {}),
          ...(src.sha ? { sha: src.sha } : {}),
          display: `${spec.display}: plugin ${p.name} (${src.url})`,
        },
        opts,
      );
      fetched.push(r);
      repos.set(key, r);
    }
    const root = inside(r.dir, src.path ?? '', `${spec.display}: plugin ${p.name}`, src.url);
    for (const d of pluginSkills(realpathSync(r.dir), root, p, `${spec.display}: plugin ${p.name}`)) {
      candidates.push(
        candidateAt(
          d,
          { url: src.url, ...(src.ref ? { ref: src.ref } : {}), commit: r.commit, path: relPath(r.dir, d), ...base },
          p.name,
        ),
      );
    }
    entry.fetched = true;
  }
  return {
    display: spec.display,
    kind: 'marketplace',
    marketplace: { name: market.name, description: market.description, plugins },
    candidates,
    dispose,
  };
}
