// Trigger matching: which enabled skills a user message auto-loads — `read_when` phrases and the skill's name read as
// words (synonyms included), skills named as `/name` or `$name`; a higher tier wins words two tiers match. One
// Aho-Corasick automaton over all triggers, built once per catalog at its first message (a one-shot match loops over
// the triggers instead).
import { normalize, splitIdentifiers } from '../../search/index.js';
import { BUILTIN_SYNONYMS, parseSynonymGroups, type SynonymGroup } from '../../search/index.js';
import {
  onBoundaries,
  PhraseAutomaton,
  phraseTokens,
  preparedTokens,
  SynonymCanon,
  type PhraseToken,
} from '../../search/index.js';
import { english, say, type Said, type WordCode } from '../../base/index.js';
import { TIER_RANK, type CatalogEntry } from '../format/index.js';

/** What the matcher needs of a catalog entry. */
export type MatchableSkill = Pick<CatalogEntry, 'manifest' | 'tier' | 'enabled'> &
  Partial<Pick<CatalogEntry, 'shadowedBy' | 'file'>>;

export type MatchReason =
  | { kind: 'named'; /** `/git-commit` or `$git-commit` as typed. */ text: string }
  | {
      kind: 'trigger';
      /** The `read_when` phrase as written. */
      trigger: string;
      /** The words of the message that matched it. */
      matched: string;
      /** exact: same words; synonym: via the built-in table; skill-synonym: via the skill's own `synonyms`. */
      via: 'exact' | 'synonym' | 'skill-synonym';
      /** The trigger is the skill's name read as words (`git-commit` → "git commit"), not a `read_when` phrase. */
      fromName?: true;
    };

/** A lower-tier skill the same words also matched: not auto-loaded (it stays findable with SkillSearch and loadable). */
export interface PassedOver {
  name: string;
  tier: CatalogEntry['tier'];
}

export interface SkillMatch {
  name: string;
  tier: CatalogEntry['tier'];
  score: number;
  reasons: MatchReason[];
  /** Lower-tier skills matched only by words this one matched too: this one won them (see Found.ranked). */
  over?: PassedOver[];
}

/** One reason a skill matched, as words (`knack skills match` prints each on its own line, the window in its language). */
function reasonWords(r: MatchReason): Said {
  if (r.kind === 'named') return say('loadNamed', { text: r.text });
  const base = r.fromName ? 'loadName' : 'loadTrigger';
  const via = r.via === 'exact' ? '' : r.via === 'synonym' ? 'Synonym' : 'SkillSynonym';
  return say(`${base}${via}` as WordCode, { trigger: r.trigger, matched: r.matched });
}

export function describeReason(r: MatchReason): string {
  return english(reasonWords(r));
}

const TIER_WORD = { builtin: 'tierBuiltin', user: 'tierUser', project: 'tierProject' } as const;

/** Why a skill was auto-loaded, as words: its first reason, and the lower-tier skills it won the same words from. */
export function matchWords(m: Pick<SkillMatch, 'reasons' | 'over' | 'tier'>): Said {
  const why = m.reasons[0] ? reasonWords(m.reasons[0]) : say('loadMatched');
  if (!m.over?.length) return why;
  const over = m.over.map((o) => `"${o.name}"`).join(', ');
  return say('loadOver', { why, over, overTier: say(TIER_WORD[m.over[0]!.tier]), tier: say(TIER_WORD[m.tier]) });
}

/** The lower-tier skills a match won its words from, in words; undefined when it passed none over. */
export function describeOver(m: Pick<SkillMatch, 'over' | 'tier'>): string | undefined {
  if (!m.over?.length) return undefined;
  return `chosen over ${m.over.map((o) => `${o.tier} skill "${o.name}"`).join(', ')}, matched by the same words (a ${m.tier} skill wins them)`;
}

interface TriggerInfo {
  skill: number;
  phrase: string;
  /** Keys before synonym canonicalisation, to tell an exact match from a synonym one. */
  rawKeys: string;
  length: number;
  skillSynonym: boolean;
  fromName: boolean;
}

export interface MatcherOptions {
  /** Extra synonym groups on top of the built-in table (apply to every skill). */
  synonyms?: readonly SynonymGroup[];
  /** Most variants generated per trigger from a skill's own synonyms (default 16). */
  maxVariants?: number;
}

/** A skill's own synonym groups: `synonyms:` in the frontmatter, or `metadata.synonyms` (`a=b; c=d`). */
export function skillSynonyms(skill: MatchableSkill): string[][] {
  const raw = skill.manifest.extra['synonyms'] ?? skill.manifest.metadata['synonyms'];
  return parseSynonymGroups(raw).groups;
}

function indexOfSeq(hay: readonly string[], needle: readonly string[]): number {
  outer: for (let i = 0; i + needle.length <= hay.length; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

/**
 * The accumulator both matchers share: one entry per skill, reasons merged, a small bonus per extra reason; the words
 * (token spans) each skill's triggers matched, for the tier rule in ranked().
 */
class Found {
  private map: Map<number, SkillMatch> | undefined;
  /** Per skill, the token spans its triggers matched, flat: start, end, start, end … */
  private spans: Map<number, number[]> | undefined;
  private named: Set<number> | undefined;

  constructor(private readonly skills: readonly MatchableSkill[]) {}

  add(si: number, score: number, reason: MatchReason, start = -1, end = -1): void {
    const s = this.skills[si]!;
    if (start >= 0) {
      const list = (this.spans ??= new Map()).get(si);
      if (list) list.push(start, end);
      else this.spans.set(si, [start, end]);
      // `/git-commit` also says the name's words: the invocation is the reason, not the name trigger as well.
      if (this.named?.has(si) && reason.kind === 'trigger' && reason.fromName) return;
    } else (this.named ??= new Set()).add(si);
    const m = (this.map ??= new Map<number, SkillMatch>()).get(si);
    if (!m) {
      this.map.set(si, { name: s.manifest.name, tier: s.tier, score, reasons: [reason] });
      return;
    }
    const dup = m.reasons.some((r) => JSON.stringify(r) === JSON.stringify(reason));
    if (!dup) m.reasons.push(reason);
    m.score = Math.max(m.score, score) + (dup ? 0 : 0.25);
  }

  /**
   * The matches to auto-load, best first. The tier rule: a skill none of whose matched words is its own — each of its
   * spans overlaps a span of a higher-tier match — is passed over (a project's `commit` wins "commit my changes" from
   * the built-in `git-commit`); the winners list it in `over`. A skill named as /name is never passed over.
   */
  ranked(): SkillMatch[] {
    if (!this.map) return [];
    const passed = this.map.size > 1 && this.spans ? this.passOver() : undefined;
    const out = passed ? [...this.map.values()].filter((m) => !passed.has(m)) : [...this.map.values()];
    return out.sort((a, b) => b.score - a.score || a.name.localeCompare(b.name));
  }

  /**
   * The matches the tier rule passes over; each winner that took their words lists them in `over`. Tier by tier from
   * the top, the message tokens the winners so far matched are marked: a lower-tier match all of whose spans touch a
   * marked token is passed over (a skill passed over does not pass over others in turn). Linear in the matched spans.
   */
  private passOver(): Set<SkillMatch> | undefined {
    const spans = this.spans!;
    const byRank: [number, SkillMatch][][] = [[], [], []];
    let len = 0;
    for (const [si, m] of this.map!) {
      byRank[TIER_RANK[m.tier]]!.push([si, m]);
      const sp = spans.get(si);
      if (sp) for (let i = 1; i < sp.length; i += 2) if (sp[i]! >= len) len = sp[i]! + 1;
    }
    if ((byRank[0]!.length ? 1 : 0) + (byRank[1]!.length ? 1 : 0) + (byRank[2]!.length ? 1 : 0) < 2) return undefined; // one tier
    const cover = new Uint8Array(len);
    /** Every span of `sp` touches a token a winner matched. */
    const allCovered = (sp: number[]): boolean => {
      outer: for (let i = 0; i < sp.length; i += 2) {
        for (let t = sp[i]!; t <= sp[i + 1]!; t++) if (cover[t]) continue outer;
        return false;
      }
      return true;
    };
    const overlap = (a: number[], b: number[]): boolean => {
      for (let i = 0; i < a.length; i += 2)
        for (let j = 0; j < b.length; j += 2) if (a[i]! <= b[j + 1]! && b[j]! <= a[i + 1]!) return true;
      return false;
    };
    let passed: Set<SkillMatch> | undefined;
    const winners: [number[], SkillMatch][] = [];
    for (let rank = byRank.length - 1; rank >= 0; rank--) {
      const kept: [number[], SkillMatch][] = [];
      for (const [si, m] of byRank[rank]!) {
        const mine = spans.get(si);
        if (!mine) continue;
        if (winners.length && !this.named?.has(si) && allCovered(mine)) {
          (passed ??= new Set()).add(m);
          for (const [theirs, h] of winners)
            if (overlap(mine, theirs)) (h.over ??= []).push({ name: m.name, tier: m.tier });
        } else kept.push([mine, m]);
      }
      // Marked once the tier is settled: skills of one tier never pass each other over.
      for (const k of kept) {
        winners.push(k);
        const sp = k[0];
        for (let i = 0; i < sp.length; i += 2) cover.fill(1, sp[i]!, sp[i + 1]! + 1);
      }
    }
    return passed;
  }
}

/** Trigger variants from a skill's own synonym groups: each group phrase found in the trigger swapped for the others. */
function variants(raw: readonly PhraseToken[], groups: readonly string[][], max: number): PhraseToken[][] {
  const out: PhraseToken[][] = [];
  const keys = raw.map((t) => t.key);
  for (const g of groups) {
    const phrases = g.map((p) => phraseTokens(p));
    for (const p of phrases) {
      const at = p.length
        ? indexOfSeq(
            keys,
            p.map((t) => t.key),
          )
        : -1;
      if (at < 0) continue;
      for (const q of phrases) {
        if (q === p || q.length === 0) continue;
        out.push([...raw.slice(0, at), ...q, ...raw.slice(at + p.length)]);
        if (out.length >= max) return out;
      }
    }
  }
  return out;
}

export class SkillMatcher {
  private readonly skills: MatchableSkill[] = [];
  private readonly byName = new Map<string, number>();
  private readonly triggers: TriggerInfo[] = [];
  private readonly triggerKeys: string[][] = [];
  /** Built from triggerKeys at the first match(): one message (matchNaive) is answered sooner without it. */
  private automaton: PhraseAutomaton | undefined;
  readonly canon: SynonymCanon;

  /** Index the enabled, unshadowed skills of a catalog. Disabled or shadowed entries are never matched. */
  constructor(entries: Iterable<MatchableSkill>, opts: MatcherOptions = {}) {
    this.canon = new SynonymCanon([...BUILTIN_SYNONYMS, ...(opts.synonyms ?? [])]);
    const maxVariants = opts.maxVariants ?? 16;
    for (const e of entries) {
      if (!e.enabled || e.shadowedBy) continue;
      const si = this.skills.length;
      this.skills.push(e);
      this.byName.set(normalize(e.manifest.name), si);
      const own = skillSynonyms(e);
      const seen = new Set<string>();
      // The skill's name read as words is a trigger too (after its own phrases: one that says the same wins), so a
      // skill without `read_when` — the open standard has none — still loads when the message says what it is called.
      const phrases = [
        ...e.manifest.readWhen.map((p) => ({ phrase: p, fromName: false })),
        { phrase: e.manifest.name, fromName: true },
      ];
      for (const { phrase, fromName } of phrases) {
        const raw = phraseTokens(phrase);
        if (raw.length === 0) continue;
        const forms: { toks: PhraseToken[]; skillSynonym: boolean }[] = [{ toks: raw, skillSynonym: false }];
        for (const v of variants(raw, own, maxVariants)) forms.push({ toks: v, skillSynonym: true });
        for (const f of forms) {
          const keys = this.canon.apply(f.toks).map((t) => t.key);
          const sig = keys.join(' ');
          if (seen.has(sig)) continue;
          seen.add(sig);
          this.triggers.push({
            skill: si,
            phrase,
            rawKeys: f.toks.map((t) => t.key).join(' '),
            length: keys.length,
            skillSynonym: f.skillSynonym,
            fromName,
          });
          this.triggerKeys.push(keys);
        }
      }
    }
  }

  private scanner(): PhraseAutomaton {
    if (!this.automaton) {
      const a = new PhraseAutomaton();
      this.triggerKeys.forEach((keys, id) => a.add(keys, id));
      a.build();
      this.automaton = a;
    }
    return this.automaton;
  }

  get skillCount(): number {
    return this.skills.length;
  }

  get triggerCount(): number {
    return this.triggers.length;
  }

  /**
   * Canonical tokens of a message (phraseTokens, synonyms canonicalised; exposed for the reference matcher and
   * diagnostics). `normalized`, when the caller has it, is normalize(message): reused when splitting identifiers
   * leaves the message as it is (most messages).
   */
  messageTokens(message: string, normalized?: string): PhraseToken[] {
    const split = splitIdentifiers(message);
    return this.canon.apply(
      preparedTokens(split === message && normalized !== undefined ? normalized : normalize(split)),
    );
  }

  /**
   * Ranked skills the message triggers, each with its reasons. Explicit `/name` / `$name` rank first. The first call
   * builds the automaton over every trigger; every later message is a scan of its own words.
   */
  match(message: string): SkillMatch[] {
    const scanner = this.scanner();
    const found = new Found(this.skills);
    // The message is normalised once for both rules.
    const normalized = normalize(message);
    for (const n of this.namedSkills(normalized)) found.add(n.skill, 100, { kind: 'named', text: n.text });
    const tokens = this.messageTokens(message, normalized);
    if (tokens.length) {
      const keys = tokens.map((t) => t.key);
      for (const hit of scanner.scan(keys)) this.acceptTrigger(tokens, hit.id, hit.start, hit.end, found);
    }
    return found.ranked();
  }

  /**
   * The same answer as match(), the rules checked trigger by trigger (a loop over every trigger): for one message (`knack
   * skills match`) cheaper than building the automaton, and the reference the tests prove the automaton against.
   */
  matchNaive(message: string): SkillMatch[] {
    const found = new Found(this.skills);
    for (const n of this.namedSkills(normalize(message))) found.add(n.skill, 100, { kind: 'named', text: n.text });
    const tokens = this.messageTokens(message);
    const keys = tokens.map((t) => t.key);
    // Occurrences in message order (end position, then shorter first), as the automaton reports them.
    const hits: { id: number; start: number; end: number }[] = [];
    this.triggerKeys.forEach((tk, id) => {
      for (let s = 0; s + tk.length <= keys.length; s++) {
        let ok = true;
        for (let j = 0; j < tk.length && ok; j++) ok = keys[s + j] === tk[j];
        if (ok) hits.push({ id, start: s, end: s + tk.length - 1 });
      }
    });
    hits.sort((a, b) => a.end - b.end || a.start - b.start || a.id - b.id);
    for (const h of hits) this.acceptTrigger(tokens, h.id, h.start, h.end, found);
    return found.ranked();
  }

  private acceptTrigger(tokens: readonly PhraseToken[], id: number, start: number, end: number, found: Found): void {
    if (!onBoundaries(tokens, start, end)) return;
    const t = this.triggers[id]!;
    const span = tokens.slice(start, end + 1);
    const matched = span
      .map((x) => x.surface)
      .join(span.every((x) => x.han || /\p{Script=Han}/u.test(x.surface)) ? '' : ' ');
    const surfaceKeys = span.flatMap((x) => x.raw ?? [x.key]).join(' ');
    const via = t.skillSynonym ? 'skill-synonym' : surfaceKeys === t.rawKeys ? 'exact' : 'synonym';
    // Longer triggers are more specific; exact wording beats a synonym.
    const score = 10 + Math.min(t.length, 8) + (via === 'exact' ? 1 : 0);
    const reason: MatchReason = { kind: 'trigger', trigger: t.phrase, matched, via };
    if (t.fromName) reason.fromName = true;
    found.add(t.skill, score, reason, start, end);
  }

  /** Skills the user named as `/name` or `$name` (at the start or after a space or bracket). */
  private namedSkills(text: string): { skill: number; text: string }[] {
    const out: { skill: number; text: string }[] = [];
    if (!text.includes('/') && !text.includes('$')) return out; // most messages name no skill
    for (const m of text.matchAll(/(?:^|[\s([{（「"'“‘,，。:：;；])([/$])([\p{L}\p{N}][\p{L}\p{N}_.:-]*)/gu)) {
      let name = m[2]!.replace(/[.:-]+$/, '');
      let si = this.byName.get(name);
      if (si === undefined) {
        // `/git-commit帮我提交`: the name ends where Chinese text begins.
        name = name.replace(/\p{Script=Han}.*$/u, '').replace(/[.:-]+$/, '');
        si = this.byName.get(name);
      }
      if (si !== undefined && !out.some((o) => o.skill === si)) out.push({ skill: si, text: `${m[1]}${name}` });
    }
    return out;
  }
}
