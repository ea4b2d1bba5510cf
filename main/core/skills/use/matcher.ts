// Trigger matching: which enabled skills a user message auto-loads — `read_when` phrases (synonyms included) and
// skills named as `/name` or `$name`. One Aho-Corasick automaton over all triggers, built once per catalog.
import { normalize, splitIdentifiers } from '../../search/tokenize.js';
import { BUILTIN_SYNONYMS, parseSynonymGroups, type SynonymGroup } from '../../search/synonyms.js';
import { onBoundaries, PhraseAutomaton, phraseTokens, preparedTokens, SynonymCanon, type PhraseToken } from '../../search/phrases.js';
import type { CatalogEntry } from '../format/types.js';

/** What the matcher needs of a catalog entry. */
export type MatchableSkill = Pick<CatalogEntry, 'manifest' | 'tier' | 'enabled'> & Partial<Pick<CatalogEntry, 'shadowedBy' | 'file'>>;

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
    };

export interface SkillMatch {
  name: string;
  tier: CatalogEntry['tier'];
  score: number;
  reasons: MatchReason[];
}

interface TriggerInfo {
  skill: number;
  phrase: string;
  /** Keys before synonym canonicalisation, to tell an exact match from a synonym one. */
  rawKeys: string;
  length: number;
  skillSynonym: boolean;
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

/** The accumulator both matchers share: one entry per skill, reasons merged, a small bonus per extra reason. */
class Found {
  private map: Map<number, SkillMatch> | undefined;

  constructor(private readonly skills: readonly MatchableSkill[]) {}

  add(si: number, score: number, reason: MatchReason): void {
    const s = this.skills[si]!;
    const m = (this.map ??= new Map<number, SkillMatch>()).get(si);
    if (!m) {
      this.map.set(si, { name: s.manifest.name, tier: s.tier, score, reasons: [reason] });
      return;
    }
    const dup = m.reasons.some((r) => JSON.stringify(r) === JSON.stringify(reason));
    if (!dup) m.reasons.push(reason);
    m.score = Math.max(m.score, score) + (dup ? 0 : 0.25);
  }

  ranked(): SkillMatch[] {
    if (!this.map) return [];
    return [...this.map.values()].sort((a, b) => b.score - a.score || a.name.localeCompare(b.name));
  }
}

/** Trigger variants from a skill's own synonym groups: each group phrase found in the trigger swapped for the others. */
function variants(raw: readonly PhraseToken[], groups: readonly string[][], max: number): PhraseToken[][] {
  const out: PhraseToken[][] = [];
  const keys = raw.map((t) => t.key);
  for (const g of groups) {
    const phrases = g.map((p) => phraseTokens(p));
    for (const p of phrases) {
      const at = p.length ? indexOfSeq(keys, p.map((t) => t.key)) : -1;
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
  private readonly automaton = new PhraseAutomaton();
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
      for (const phrase of e.manifest.readWhen) {
        const raw = phraseTokens(phrase);
        if (raw.length === 0) continue;
        const forms: { toks: PhraseToken[]; skillSynonym: boolean }[] = [{ toks: raw, skillSynonym: false }];
        for (const v of variants(raw, own, maxVariants)) forms.push({ toks: v, skillSynonym: true });
        for (const f of forms) {
          const keys = this.canon.apply(f.toks).map((t) => t.key);
          const sig = keys.join(' ');
          if (seen.has(sig)) continue;
          seen.add(sig);
          const id = this.triggers.length;
          this.triggers.push({ skill: si, phrase, rawKeys: f.toks.map((t) => t.key).join(' '), length: keys.length, skillSynonym: f.skillSynonym });
          this.triggerKeys.push(keys);
          this.automaton.add(keys, id);
        }
      }
    }
    this.automaton.build();
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
    return this.canon.apply(preparedTokens(split === message && normalized !== undefined ? normalized : normalize(split)));
  }

  /** Ranked skills the message triggers, each with its reasons. Explicit `/name` / `$name` rank first. */
  match(message: string): SkillMatch[] {
    const found = new Found(this.skills);
    // The message is normalised once for both rules.
    const normalized = normalize(message);
    for (const n of this.namedSkills(normalized)) found.add(n.skill, 100, { kind: 'named', text: n.text });
    const tokens = this.messageTokens(message, normalized);
    if (tokens.length) {
      const keys = tokens.map((t) => t.key);
      for (const hit of this.automaton.scan(keys)) this.acceptTrigger(tokens, hit.id, hit.start, hit.end, found);
    }
    return found.ranked();
  }

  /**
   * Reference implementation: the same rules checked trigger by trigger (a loop over every trigger).
   * Used by tests to prove the automaton equivalent and by the benchmark as the naive baseline.
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

  private acceptTrigger(
    tokens: readonly PhraseToken[],
    id: number,
    start: number,
    end: number,
    found: Found,
  ): void {
    if (!onBoundaries(tokens, start, end)) return;
    const t = this.triggers[id]!;
    const span = tokens.slice(start, end + 1);
    const matched = span.map((x) => x.surface).join(span.every((x) => x.han || /\p{Script=Han}/u.test(x.surface)) ? '' : ' ');
    const surfaceKeys = span.flatMap((x) => x.raw ?? [x.key]).join(' ');
    const via = t.skillSynonym ? 'skill-synonym' : surfaceKeys === t.rawKeys ? 'exact' : 'synonym';
    // Longer triggers are more specific; exact wording beats a synonym.
    const score = 10 + Math.min(t.length, 8) + (via === 'exact' ? 1 : 0);
    found.add(t.skill, score, { kind: 'trigger', trigger: t.phrase, matched, via });
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
