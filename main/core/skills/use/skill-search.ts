// SkillSearch: ranks the whole enabled catalog for a free-text request, in either language, on the shared
// RankedIndex: name, title, triggers and description, plus related words (WordNet, Chinese round trip) and the
// SKILL.md body.
import { closeSync, openSync, readSync } from 'node:fs';
import { RankedIndex, type Expander, type RankedIndexOptions } from '../../search/index.js';
import { crossLanguageExpander, type CrossLanguageOptions } from '../../search/index.js';
import { sharedSynonymTable, wordnetExpander } from '../../search/index.js';
import { bilingualStamp, sharedBilingualMap, translateTerm } from '../../search/index.js';
import { terms } from '../../search/index.js';
import type { QueryNormalization } from '../../search/index.js';
import { skillSynonyms, type MatchableSkill } from './matcher.js';
import { indexCacheKey, readIndexCache, writeIndexCache } from './skill-search-cache.js';
import type { Tier } from '../format/index.js';
import { setAside } from '../../base/index.js';

export interface SkillSearchHit {
  name: string;
  /** The skill's description (summary). */
  summary: string;
  tier: Tier;
  score: number;
  /** Which fields the request's words (or their translations) matched. */
  matched: Record<string, string[]>;
}

export interface RelatedWords {
  /** WordNet synonyms and derivations per word of the skill (0 = none). */
  wordnet: number;
  /** English glosses of each word's Chinese translation (0 = none): translate → 翻译 → interpret, render. */
  pivot: number;
  /** Field weight. */
  boost: number;
}

export interface SkillBody {
  boost: number;
  /** Characters of the body indexed (the start: purpose, when to use, examples). */
  maxChars: number;
  /** Reads a skill's body; default: the start of its SKILL.md after the frontmatter. */
  read?: (e: MatchableSkill, maxChars: number) => string | undefined;
}

export interface SkillSearchOptions extends CrossLanguageOptions {
  /** Replace the expander entirely (tests, or a caller with its own). */
  expander?: Expander;
  /** Query side: English synonyms from WordNet, how many per word and at what weight (default WORDNET; false = off). */
  wordnet?: { perTerm: number; weight: number } | false;
  /** Document side: a `related` field of each skill's words' synonyms (default RELATED; false = off). */
  related?: RelatedWords | false;
  /** Document side: the SKILL.md body as a low-weight `body` field (default BODY; false = off). */
  body?: SkillBody | false;
  /** How requests are read (fillers, numbers, literal values); false reads every word at full weight. */
  normalize?: QueryNormalization | false;
  /**
   * A file to keep the index in between runs (skill-search-cache.ts): loaded when it was made from the same skills
   * the same way, else built and written. Not used with a custom body reader (its text has no key).
   */
  indexCache?: string;
}

/*
 * Defaults measured on test/fixtures/skill-search-devset.json (both languages; the odd requests held out) together
 * with the latency bench: WordNet on the request side (×1.5 CPU at p50) and WordNet words in the `related` field
 * (2–3× the index build) bought almost no recall over the Chinese round-trip glosses alone, so both are off by
 * default and can be turned back on here. test/bench/matching.bench.ts prints both halves beside BM25.
 */
const WORDNET: { perTerm: number; weight: number } | false = false;
const RELATED: RelatedWords = { wordnet: 0, pivot: 2, boost: 0.5 };
const BODY: SkillBody = { boost: 0.15, maxChars: 3000 };
/** Plain BM25 idf; coordination: score × (share of the request's words a skill matches)^COVERAGE. */
const IDF_POWER = 1;
const COVERAGE = 0.5;

/** One read buffer for every body (an index build reads thousands): only grows. */
let bodyBuffer = Buffer.allocUnsafe(0);

/** The start of a SKILL.md body (frontmatter skipped), read without loading a huge file whole. */
export function readSkillBody(file: string | undefined, maxChars: number): string | undefined {
  if (!file) return undefined;
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const size = maxChars * 3 + 16_384;
    if (bodyBuffer.length < size) bodyBuffer = Buffer.allocUnsafe(size);
    const buf = bodyBuffer;
    const n = readSync(fd, buf, 0, size, 0);
    const text = buf.subarray(0, n).toString('utf8');
    const m = /^\uFEFF?---\r?\n[\s\S]*?\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
    return (m ? text.slice(m[0].length) : text).slice(0, maxChars);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The related words of a text: WordNet synonyms and Chinese round-trip glosses of its English words. */
export function relatedText(
  text: string,
  rel: Pick<RelatedWords, 'wordnet' | 'pivot'>,
  cacheDir?: string,
  memo: Map<string, string[]> = new Map(),
): string {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const t of terms(text)) {
    if (seen.has(t) || !/^[a-z]{3,}$/.test(t)) continue;
    seen.add(t);
    let words = memo.get(t);
    if (!words) {
      words = [];
      if (rel.wordnet > 0) words.push(...(sharedSynonymTable(cacheDir).table.get(t) ?? []).slice(0, rel.wordnet));
      if (rel.pivot > 0) {
        const bi = sharedBilingualMap(cacheDir).map;
        for (const zh of translateTerm(bi, t, { perEn: 1 })) words.push(...translateTerm(bi, zh, { perZh: rel.pivot }));
      }
      memo.set(t, words);
    }
    out.push(...words);
  }
  return out.join(' ');
}

/** The fields of a skill, as SkillSearch indexes them (weight, BM25 b): name 3, triggers 2, title 2, description 1. */
const FIELDS = { name: 3, title: 2, triggers: 2, description: 1 } as const;
const SKILL_B = 0.7;

/** How SkillSearch reads the given skills: fields, weights, expansions (also for benchmarking other engines). */
function skillIndexOptions(
  opts: SkillSearchOptions = {},
  own: MatchableSkill[] = [],
): { index: RankedIndexOptions; fields: (e: MatchableSkill) => Record<string, string> } {
  const wordnet = opts.wordnet ?? WORDNET;
  const related = opts.related ?? RELATED;
  const body = opts.body ?? BODY;
  // Skills share most of their words: each word's related words are looked up once per index build.
  const memo = new Map<string, string[]>();
  const readBody = body ? (body.read ?? ((e: MatchableSkill, max: number) => readSkillBody(e.file, max))) : undefined;
  const weights: Record<string, number> = {
    ...FIELDS,
    ...(related ? { related: related.boost } : {}),
    ...(body ? { body: body.boost } : {}),
  };
  return {
    index: {
      fields: Object.fromEntries(Object.entries(weights).map(([f, weight]) => [f, { weight, b: SKILL_B }])),
      idfPower: IDF_POWER,
      coverage: COVERAGE,
      expand:
        opts.expander ??
        crossLanguageExpander({
          ...opts,
          synonyms: [...(opts.synonyms ?? []), ...own.flatMap((e) => skillSynonyms(e))],
        }),
      normalize: opts.normalize ?? {},
      ...(wordnet
        ? {
            moreExpansions: [
              {
                expand: wordnetExpander(() => sharedSynonymTable(opts.cacheDir).table, wordnet.perTerm),
                weight: wordnet.weight,
              },
            ],
          }
        : {}),
    },
    fields: (e) => {
      const f: Record<string, string> = {
        name: e.manifest.name,
        title: e.manifest.title ?? '',
        triggers: e.manifest.readWhen.join(' ; '),
        description: e.manifest.description,
      };
      if (related)
        f.related = relatedText(`${f.name} ${f.title} ${f.triggers} ${f.description}`, related, opts.cacheDir, memo);
      if (body && readBody) f.body = (readBody(e, body.maxChars) ?? '').slice(0, body.maxChars);
      return f;
    },
  };
}

/** The skills SkillSearch indexes: enabled and not shadowed. */
function searchableSkills(entries: Iterable<MatchableSkill>): MatchableSkill[] {
  return [...entries].filter((e) => e.enabled && !e.shadowedBy);
}

/** What a skill is indexed from: when this changes, the skill is indexed again. */
function indexKey(e: MatchableSkill): string {
  const m = e.manifest;
  const stat = e as { mtimeMs?: number; size?: number };
  return JSON.stringify([
    e.file,
    stat.mtimeMs,
    stat.size,
    e.tier,
    m.title ?? '',
    m.description,
    m.readWhen,
    m.metadata,
    m.extra['synonyms'],
  ]);
}

/**
 * What an indexed skill was indexed from: the entry's parts (the catalog keeps an unchanged skill's manifest object
 * from one build to the next, so a look at these settles most skills) and, worked out when they differ, indexKey.
 */
interface Indexed {
  manifest: MatchableSkill['manifest'];
  file: string | undefined;
  mtimeMs: number | undefined;
  size: number | undefined;
  tier: MatchableSkill['tier'];
  key: string;
}

function indexedOf(e: MatchableSkill): Indexed {
  const stat = e as { mtimeMs?: number; size?: number };
  return { manifest: e.manifest, file: e.file, mtimeMs: stat.mtimeMs, size: stat.size, tier: e.tier, key: indexKey(e) };
}

function sameAsIndexed(e: MatchableSkill, was: Indexed): boolean {
  const stat = e as { mtimeMs?: number; size?: number };
  if (
    e.manifest === was.manifest &&
    e.file === was.file &&
    stat.mtimeMs === was.mtimeMs &&
    stat.size === was.size &&
    e.tier === was.tier
  )
    return true;
  return indexKey(e) === was.key;
}

/** The skills' own synonym groups in catalog order, as one text (skills without any add nothing to it). */
function synonymsKeyOf(list: MatchableSkill[]): string {
  const out: [string, string[][]][] = [];
  for (const e of list) {
    const groups = skillSynonyms(e);
    if (groups.length) out.push([e.manifest.name, groups]);
  }
  return JSON.stringify(out);
}

/** What the index's documents are made from besides the skills: keyed with them (skill-search-cache.ts). */
function documentConfig(opts: SkillSearchOptions): unknown {
  const body = opts.body ?? BODY;
  let dictionary = '';
  try {
    dictionary = bilingualStamp();
  } catch {
    // no dictionary installed: the related words are made without it, and so is the key
  }
  return {
    fields: FIELDS,
    b: SKILL_B,
    related: opts.related ?? RELATED,
    body: body ? { boost: body.boost, maxChars: body.maxChars } : false,
    cacheDir: opts.cacheDir ?? '',
    dictionary,
  };
}

export class SkillSearch {
  private readonly index: RankedIndex;
  /**
   * Where the index came from: loaded from `indexCache`, or built (tokenised now); `cacheProblem` says why a kept
   * index was not used or could not be kept (damaged and moved aside, not written), when one was asked for.
   */
  readonly source: 'cache' | 'built';
  readonly cacheProblem: string | undefined;
  private readonly fields: (e: MatchableSkill) => Record<string, string>;
  private readonly opts: SkillSearchOptions;
  private readonly keys = new Map<string, Indexed>();
  /** The request expander; rebuilt by update() when the skills' own synonyms change. */
  private expand: Expander;
  private synonymsKey: string;

  /** Index the enabled, unshadowed entries; disabled skills are never returned. */
  constructor(entries: Iterable<MatchableSkill>, opts: SkillSearchOptions = {}) {
    this.opts = opts;
    const list = searchableSkills(entries);
    const { index, fields } = skillIndexOptions(opts, list);
    this.expand = index.expand!;
    this.fields = fields;
    this.synonymsKey = synonymsKeyOf(list);
    this.index = new RankedIndex({ ...index, expand: (t) => this.expand(t) });
    const file = opts.body && opts.body.read ? undefined : opts.indexCache;
    const got = file ? this.load(file, list) : undefined;
    if (!file) this.addAll(list);
    this.source = got?.loaded ? 'cache' : 'built';
    this.cacheProblem = got?.problem;
    // Postings are built here and after each update, not on the request that follows.
    this.index.compile();
  }

  /**
   * Load the index kept in `file` when it was made from exactly these skills this way; else index them and keep the
   * result. A damaged file is moved aside, never read as an index: what a kept index can hold is only ever the
   * documents of the skills searchable now (their names are its key's, each restored document is given its entry).
   */
  private load(file: string, list: MatchableSkill[]): { loaded: boolean; problem?: string } {
    const indexed = list.map(indexedOf);
    const names = list.map((e) => e.manifest.name);
    const key = indexCacheKey(
      documentConfig(this.opts),
      names,
      indexed.map((x) => x.key),
    );
    const byName = new Map(list.map((e) => [e.manifest.name, e]));
    const found = readIndexCache(file, key, names);
    let problem: string | undefined;
    if (found.kind === 'hit') {
      try {
        this.index.restore(found.snapshot, (id) => byName.get(id));
        list.forEach((e, i) => this.keys.set(e.manifest.name, indexed[i]!));
        return { loaded: true };
      } catch (e) {
        problem = (e as Error).message;
      }
    } else if (found.kind === 'damaged') problem = found.reason;
    if (problem !== undefined) {
      const aside = setAside(file);
      problem = `${file}: ${problem}${aside ? `; moved aside as ${aside}` : ''}`;
    }
    this.addAll(list, indexed);
    try {
      writeIndexCache(file, key, this.index.snapshot());
    } catch (e) {
      problem = `${problem ? `${problem}; ` : ''}${file}: not kept: ${(e as Error).message}`;
    }
    return problem === undefined ? { loaded: false } : { loaded: false, problem };
  }

  private addAll(list: MatchableSkill[], indexed?: Indexed[]): void {
    list.forEach((e, i) => {
      this.index.add(e.manifest.name, this.fields(e), e);
      this.keys.set(e.manifest.name, indexed?.[i] ?? indexedOf(e));
    });
  }

  /**
   * Follow a changed catalog without indexing it all again: skills gone or changed (file, manifest) are removed,
   * new and changed ones added, and the index patches just those documents in (RankedIndex.compile). Rankings are
   * those of a fresh SkillSearch over the same entries.
   */
  update(entries: Iterable<MatchableSkill>): void {
    const list = searchableSkills(entries);
    const wanted = new Map(list.map((e) => [e.manifest.name, e]));
    for (const [name, was] of this.keys) {
      const e = wanted.get(name);
      if (!e || !sameAsIndexed(e, was)) {
        this.index.remove(name);
        this.keys.delete(name);
      }
    }
    this.addAll(list.filter((e) => !this.keys.has(e.manifest.name)));
    const synonymsKey = synonymsKeyOf(list);
    if (synonymsKey !== this.synonymsKey && !this.opts.expander) {
      this.synonymsKey = synonymsKey;
      this.expand = skillIndexOptions(this.opts, list).index.expand!;
    }
    this.index.compile();
  }

  get size(): number {
    return this.index.size;
  }

  search(query: string, opts: { limit?: number } = {}): SkillSearchHit[] {
    const hits = this.index.search(query, opts.limit ?? 10);
    const plan = hits.length ? this.index.queryPlan(query) : [];
    return hits.map((h) => {
      const e = this.index.get(h.id) as MatchableSkill;
      const matched = this.index.matched(h.id, plan);
      return { name: e.manifest.name, summary: e.manifest.description, tier: e.tier, score: h.score, matched };
    });
  }

  /** The index terms a request reaches (own words, prefixes, typos, expansions) and their weights (`--json`). */
  explain(query: string): Record<string, number> {
    return Object.fromEntries(this.index.queryPlan(query).map((p) => [p.term, p.weight]));
  }
}
