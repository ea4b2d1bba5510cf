// The marketplaces a user reads skills from: `skills.marketplaces` in the user's and the workspace's settings.json
// (none by default), edited in place with jsonc-parser so the rest of the file keeps its form; and search over their
// entries with the same index and bilingual expansion SkillSearch uses.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { applyEdits, getNodeValue, modify } from 'jsonc-parser';
import { say, writeFileAtomic } from '../../base/index.js';
import { userSettingsPath, workspaceSettingsPath } from '../../config/index.js';
import { RankedIndex } from '../../search/index.js';
import { crossLanguageExpander } from '../../search/index.js';
import { openSource, type OpenOptions } from './open.js';
import { parseSource, SourceError } from './spec.js';
import { MARKETPLACE_FILE } from './marketplace.js';
import { readJsonFile, type JsonFile } from './json-file.js';

export interface ConfiguredMarketplace {
  source: string;
  scope: 'user' | 'workspace';
  file: string;
}

export function marketplaceSettingsFile(scope: 'user' | 'workspace', dataDir: string, workspace: string): string {
  return scope === 'user' ? userSettingsPath(dataDir) : workspaceSettingsPath(workspace);
}

/** The marketplaces a settings file lists; what is wrong with it names file, line and field, in words (json-file.ts). */
function listIn(file: string): string[] {
  if (!existsSync(file)) return [];
  const f: JsonFile = readJsonFile(readFileSync(file, 'utf8'), file);
  if (f.tree.type !== 'object') f.fail([], say('json.mustBe', { what: say('json.what.object') }));
  const skills: unknown = (getNodeValue(f.tree) as Record<string, unknown>).skills;
  const list = typeof skills === 'object' && skills !== null ? (skills as { marketplaces?: unknown }).marketplaces : [];
  if (list === undefined) return [];
  const at = ['skills', 'marketplaces'];
  if (!Array.isArray(list)) return f.fail(at, say('json.mustBe', { what: say('settings.what.strings') }));
  const bad = list.findIndex((x) => typeof x !== 'string');
  if (bad >= 0) f.fail([...at, bad], say('json.mustBe', { what: say('json.what.string') }));
  return list as string[];
}

/** Every configured marketplace: the user's, then the workspace's (each once). */
export function listMarketplaces(dataDir: string, workspace: string | undefined): ConfiguredMarketplace[] {
  const out: ConfiguredMarketplace[] = [];
  const seen = new Set<string>();
  const scopes: ('user' | 'workspace')[] = workspace ? ['user', 'workspace'] : ['user'];
  for (const scope of scopes) {
    const file = marketplaceSettingsFile(scope, dataDir, workspace ?? '');
    for (const source of listIn(file)) {
      if (seen.has(source)) continue;
      seen.add(source);
      out.push({ source, scope, file });
    }
  }
  return out;
}

function writeList(file: string, list: string[]): void {
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '{}\n';
  const edits = modify(text, ['skills', 'marketplaces'], list, {
    formattingOptions: { insertSpaces: true, tabSize: 2 },
  });
  writeFileAtomic(file, applyEdits(text, edits));
}

/** Add a marketplace to a scope's settings (checked to be a readable source first). Returns false when already there. */
export function addMarketplace(file: string, source: string, cwd: string): boolean {
  parseSource(source, cwd);
  const list = listIn(file);
  if (list.includes(source)) return false;
  writeList(file, [...list, source]);
  return true;
}

export function removeMarketplace(file: string, source: string): boolean {
  const list = listIn(file);
  if (!list.includes(source)) return false;
  writeList(
    file,
    list.filter((s) => s !== source),
  );
  return true;
}

/** One thing a marketplace offers: a skill (its repository was read) or a plugin whose skills live elsewhere. */
export interface MarketEntry {
  marketplace: string;
  marketplaceName: string;
  plugin: string;
  /** The skill's name; undefined for a plugin not fetched yet. */
  skill?: string;
  description: string;
  category?: string;
  tags: string[];
  /** Audit level of a listed skill. */
  level?: 'P0' | 'P1' | 'P2';
}

const CACHE_MS = 60 * 60 * 1000;

function cacheFile(dataDir: string, source: string): string {
  return join(
    dataDir,
    'cache',
    'marketplaces',
    `${createHash('sha256').update(source).digest('hex').slice(0, 24)}.json`,
  );
}

/** A marketplace's entries: fetched and read (cached for an hour in the data folder unless `refresh`). */
export async function marketplaceEntries(
  source: string,
  opts: { dataDir: string; cwd: string; refresh?: boolean } & OpenOptions,
): Promise<MarketEntry[]> {
  const cache = cacheFile(opts.dataDir, source);
  if (!opts.refresh && existsSync(cache) && Date.now() - statSync(cache).mtimeMs < CACHE_MS) {
    try {
      return JSON.parse(readFileSync(cache, 'utf8')) as MarketEntry[];
    } catch {
      // read again below
    }
  }
  const opened = await openSource(parseSource(source, opts.cwd), opts);
  try {
    if (opened.kind !== 'marketplace' || !opened.marketplace)
      throw new SourceError(say('source.noMarketplace', { source, file: MARKETPLACE_FILE }));
    const m = opened.marketplace;
    const entries: MarketEntry[] = [];
    for (const p of m.plugins) {
      const base = {
        marketplace: source,
        marketplaceName: m.name,
        plugin: p.name,
        ...(p.category ? { category: p.category } : {}),
        tags: p.tags,
      };
      const skills = opened.candidates.filter((c) => c.plugin === p.name);
      if (!skills.length) entries.push({ ...base, description: p.description });
      for (const c of skills)
        entries.push({ ...base, skill: c.name, description: c.description || p.description, level: c.level });
    }
    writeFileAtomic(cache, JSON.stringify(entries));
    return entries;
  } finally {
    opened.dispose();
  }
}

export interface BrowseHit extends MarketEntry {
  score: number;
  /** What to give `knack skills add` to install it. */
  install: string;
}

/** Rank marketplace entries for a query in either language (name 3, tags 2, plugin 2, description 1). */
export function searchEntries(entries: MarketEntry[], query: string, limit = 20, cacheDir?: string): BrowseHit[] {
  const idOf = (e: MarketEntry) => `${e.marketplace}\0${e.plugin}\0${e.skill ?? ''}`;
  const field = (weight: number) => ({ weight, b: 0.7 });
  const index = new RankedIndex({
    fields: { name: field(3), plugin: field(2), tags: field(2), description: field(1) },
    idfPower: 1,
    coverage: 1,
    expand: crossLanguageExpander(cacheDir ? { cacheDir } : {}),
  });
  for (const e of entries)
    index.add(idOf(e), {
      name: e.skill ?? e.plugin,
      plugin: e.plugin,
      tags: [...e.tags, e.category ?? ''].join(' '),
      description: e.description,
    });
  const byId = new Map(entries.map((e) => [idOf(e), e]));
  const hits = query.trim()
    ? index.search(query, limit)
    : entries.slice(0, limit).map((e) => ({ id: idOf(e), score: 0 }));
  return hits.map((h) => {
    const e = byId.get(h.id)!;
    return { ...e, score: h.score, install: `${e.marketplace} --skill ${e.skill ?? e.plugin}` };
  });
}
