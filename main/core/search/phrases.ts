// Phrase matching inside free text: normalised tokens (Latin words stemmed, Chinese per character with
// Intl.Segmenter word boundaries), synonym canonicalisation, and an Aho-Corasick automaton over token sequences.
import { hasHan, normalize, splitIdentifiers, stem } from './tokenize.js';
import type { SynonymGroup } from './synonyms.js';

const segmenter = new Intl.Segmenter('zh', { granularity: 'word' });
const HAN_CHAR = /\p{Script=Han}/u;

/** One unit of a phrase or message. Chinese text is one token per character; Latin text one per word. */
export interface PhraseToken {
  /** Comparison key: stemmed word, a Han character, or `~group` after synonym canonicalisation. */
  key: string;
  /** The original words it stands for (normalised). */
  surface: string;
  /** For a canonical synonym token: the keys it replaced. */
  raw?: string[];
  /** True for Han characters: they must line up with word boundaries to count as a match. */
  han: boolean;
  /** A word boundary sits before / after this token. Always true for Latin words. */
  startB: boolean;
  endB: boolean;
}

/**
 * Filler words skipped when matching phrases: articles, pronouns, politeness and particles only. Content words
 * (verbs like "look", 看看, "make") stay, so a trigger never shrinks to one generic word.
 */
const PHRASE_FILLERS = new Set(
  (
    'a an the my your our their his her its this that these those some please me us it i we you ' +
    '的 了 吗 呢 吧 啊 呀 嘛 我 你 您 我们 你们 请 请问 帮 帮我 帮忙 麻烦 一下 把 这个 那个 这 那 一个'
  ).split(' '),
);

/** Tokenise text for phrase matching. Fillers (articles, 帮我, 一下 …) are dropped. */
export function phraseTokens(text: string): PhraseToken[] {
  return preparedTokens(normalize(splitIdentifiers(text)));
}

/** phraseTokens of text already split and normalised (`normalize(splitIdentifiers(text))`): the matcher shares it. */
export function preparedTokens(prepared: string): PhraseToken[] {
  return PLAIN_WORDS.test(prepared) ? plainTokens(prepared) : segmentedTokens(prepared);
}

/**
 * Lowercase ASCII words separated by ASCII white space, each optionally followed by , ! ? or ; — text that ICU's word
 * boundaries split exactly at the spaces and punctuation (no apostrophe, no comma inside a number). Most short
 * English messages are such text; splitting it without the segmenter skips cloning ICU's break iterator, the
 * larger part of matching a short message. (`.`, `:`, `/`, `-` and `_` are spaces already: splitIdentifiers.)
 */
const PLAIN_WORDS = /^[ \t\n\r]*(?:[a-z0-9]+[,!?;]*(?:[ \t\n\r]+|$))*$/;

function plainTokens(prepared: string): PhraseToken[] {
  const out: PhraseToken[] = [];
  // The runs of [a-z0-9] (a loop over char codes: no RegExp clone or match objects for a short message).
  const n = prepared.length;
  for (let i = 0; i < n;) {
    if (!isWordCode(prepared.charCodeAt(i))) {
      i++;
      continue;
    }
    let j = i + 1;
    while (j < n && isWordCode(prepared.charCodeAt(j))) j++;
    const seg = prepared.slice(i, j);
    i = j;
    if (PHRASE_FILLERS.has(seg)) continue;
    out.push({ key: stem(seg), surface: seg, han: false, startB: true, endB: true });
  }
  return out;
}

/** a-z or 0-9. */
function isWordCode(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 48 && c <= 57);
}

/** The general path: Intl.Segmenter word boundaries (Chinese, apostrophes, numbers with separators, any script). */
export function segmentedTokens(prepared: string): PhraseToken[] {
  const out: PhraseToken[] = [];
  for (const s of segmenter.segment(prepared)) {
    if (!s.isWordLike) continue;
    const seg = s.segment;
    if (PHRASE_FILLERS.has(seg)) continue;
    if (!hasHan(seg)) {
      out.push({ key: stem(seg), surface: seg, han: false, startB: true, endB: true });
      continue;
    }
    // Mixed or Chinese segment: Han characters one by one, other runs as words.
    const parts = seg.match(/\p{Script=Han}|[^\p{Script=Han}]+/gu) ?? [];
    parts.forEach((p, i) => {
      const han = HAN_CHAR.test(p);
      out.push({
        key: han ? p : stem(p),
        surface: p,
        han,
        startB: i === 0 || !han,
        endB: i === parts.length - 1 || !han,
      });
    });
  }
  return out;
}

/** A node-per-token trie with failure links (Aho-Corasick) mapping token sequences to payload ids. */
export class PhraseAutomaton {
  private readonly next: Map<string, number>[] = [new Map()];
  private readonly fail: number[] = [0];
  /** Nearest node on the failure chain that ends a phrase (or -1). */
  private readonly dict: number[] = [-1];
  private readonly out: (number[] | undefined)[] = [undefined];
  private readonly depth: number[] = [0];
  private built = false;

  /** Add a phrase (token keys) with a payload id. Call build() after the last add. */
  add(keys: readonly string[], id: number): void {
    if (keys.length === 0) return;
    this.built = false;
    let node = 0;
    for (const k of keys) {
      let n = this.next[node]!.get(k);
      if (n === undefined) {
        n = this.next.length;
        this.next.push(new Map());
        this.fail.push(0);
        this.dict.push(-1);
        this.out.push(undefined);
        this.depth.push(this.depth[node]! + 1);
        this.next[node]!.set(k, n);
      }
      node = n;
    }
    (this.out[node] ??= []).push(id);
  }

  build(): void {
    const queue: number[] = [];
    for (const n of this.next[0]!.values()) {
      this.fail[n] = 0;
      queue.push(n);
    }
    for (let qi = 0; qi < queue.length; qi++) {
      const node = queue[qi]!;
      for (const [k, child] of this.next[node]!) {
        let f = this.fail[node]!;
        while (f !== 0 && !this.next[f]!.has(k)) f = this.fail[f]!;
        const target = this.next[f]!.get(k);
        this.fail[child] = target !== undefined && target !== child ? target : 0;
        const fc = this.fail[child]!;
        this.dict[child] = this.out[fc] ? fc : this.dict[fc]!;
        queue.push(child);
      }
    }
    this.built = true;
  }

  /** Every (id, start, end) occurrence in a key sequence; `end` is inclusive. */
  *scan(keys: readonly string[]): Generator<{ id: number; start: number; end: number }> {
    if (!this.built) this.build();
    let node = 0;
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!;
      while (node !== 0 && !this.next[node]!.has(k)) node = this.fail[node]!;
      node = this.next[node]!.get(k) ?? 0;
      for (let n = this.out[node] ? node : this.dict[node]!; n > 0; n = this.dict[n]!) {
        const len = this.depth[n]!;
        for (const id of this.out[n]!) yield { id, start: i - len + 1, end: i };
      }
    }
  }
}

/** True when a span of tokens starts and ends on word boundaries (the Chinese-in-a-sentence rule). */
export function onBoundaries(tokens: readonly PhraseToken[], start: number, end: number): boolean {
  const a = tokens[start];
  const b = tokens[end];
  return !!a && !!b && (!a.han || a.startB) && (!b.han || b.endB);
}

/** Rewrites synonym phrases to one canonical token per group (leftmost, longest, on word boundaries). */
export class SynonymCanon {
  private readonly trie = new PhraseAutomaton();
  private readonly canon: string[] = [];
  private readonly lengths: number[] = [];
  private readonly firstKeys = new Set<string>();

  constructor(groups: readonly SynonymGroup[]) {
    // Merge groups that share a phrase so a phrase maps to one canonical token.
    const phraseGroup = new Map<string, number>();
    const parent = groups.map((_, i) => i);
    const root = (i: number): number => (parent[i] === i ? i : (parent[i] = root(parent[i]!)));
    groups.forEach((g, gi) => {
      for (const p of g) {
        const key = phraseTokens(p)
          .map((t) => t.key)
          .join(' ');
        if (!key) continue;
        const other = phraseGroup.get(key);
        if (other !== undefined) parent[root(gi)] = root(other);
        else phraseGroup.set(key, gi);
      }
    });
    for (const [key, gi] of phraseGroup) {
      const keys = key.split(' ');
      const id = this.canon.length;
      const g = groups[root(gi)]!;
      this.canon.push(`~${normalize(g[0] ?? key)}`);
      this.lengths.push(keys.length);
      this.firstKeys.add(keys[0]!);
      this.trie.add(keys, id);
    }
    this.trie.build();
  }

  /** Canonical tokens for a token list; returns the input itself when nothing matched. */
  apply(tokens: readonly PhraseToken[]): PhraseToken[] {
    if (!tokens.some((t) => this.firstKeys.has(t.key))) return tokens as PhraseToken[];
    const keys = tokens.map((t) => t.key);
    // Best (longest) phrase starting at each position.
    const best = new Map<number, { end: number; id: number }>();
    for (const m of this.trie.scan(keys)) {
      if (!onBoundaries(tokens, m.start, m.end)) continue;
      const cur = best.get(m.start);
      if (!cur || m.end > cur.end) best.set(m.start, { end: m.end, id: m.id });
    }
    if (best.size === 0) return tokens as PhraseToken[];
    const out: PhraseToken[] = [];
    for (let i = 0; i < tokens.length; i++) {
      const b = best.get(i);
      if (!b) {
        out.push(tokens[i]!);
        continue;
      }
      const span = tokens.slice(i, b.end + 1);
      out.push({
        key: this.canon[b.id]!,
        surface: span.map((t) => t.surface).join(span[0]!.han ? '' : ' '),
        raw: span.map((t) => t.key),
        han: false,
        startB: true,
        endB: true,
      });
      i = b.end;
    }
    return out;
  }
}
