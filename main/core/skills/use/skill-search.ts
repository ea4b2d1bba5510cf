// SkillSearch: ranks the whole enabled catalog (name, description, triggers) for a free-text request, in either
// language, on the shared TextIndex with field boosts, prefix/fuzzy matching and cross-language query expansion.
import { TextIndex, type Expander } from '../../search/text-index.js';
import { crossLanguageExpander, type CrossLanguageOptions } from '../../search/expand.js';
import { skillSynonyms, type MatchableSkill } from './matcher.js';
import type { Tier } from '../format/types.js';

export interface SkillSearchHit {
  name: string;
  /** The skill's description (summary). */
  summary: string;
  tier: Tier;
  score: number;
  /** Which fields the request's words (or their translations) matched. */
  matched: Record<string, string[]>;
}

export interface SkillSearchOptions extends CrossLanguageOptions {
  /** Field weights (default name 3, triggers 2, title 2, description 1). */
  boosts?: Partial<Record<'name' | 'title' | 'description' | 'triggers', number>>;
  /** Replace the expander entirely (tests, or a caller with its own). */
  expander?: Expander;
  /** Typo tolerance as a fraction of word length (default 0.2; 0 = off). */
  fuzzy?: number;
}

export class SkillSearch {
  private readonly index: TextIndex<MatchableSkill>;

  /** Index the enabled, unshadowed entries; disabled skills are never returned. */
  constructor(entries: Iterable<MatchableSkill>, opts: SkillSearchOptions = {}) {
    const list = [...entries].filter((e) => e.enabled && !e.shadowedBy);
    const own = list.flatMap((e) => skillSynonyms(e));
    this.index = new TextIndex<MatchableSkill>({
      fields: { name: 3, title: 2, triggers: 2, description: 1, ...opts.boosts },
      idOf: (e) => e.manifest.name,
      extract: (e) => ({
        name: e.manifest.name,
        title: e.manifest.title ?? '',
        triggers: e.manifest.readWhen.join(' ; '),
        description: e.manifest.description,
      }),
      expand: opts.expander ?? crossLanguageExpander({ ...opts, synonyms: [...(opts.synonyms ?? []), ...own] }),
      ...(opts.fuzzy !== undefined ? { fuzzy: opts.fuzzy } : {}),
    });
    this.index.addAll(list);
  }

  get size(): number {
    return this.index.size;
  }

  search(query: string, opts: { limit?: number } = {}): SkillSearchHit[] {
    return this.index.search(query, { limit: opts.limit ?? 10 }).map((h) => {
      const e = this.index.get(h.id)!;
      return { name: e.manifest.name, summary: e.manifest.description, tier: e.tier, score: h.score, matched: h.match };
    });
  }

  /** The weighted query terms after tokenisation and expansion (for `--json` explanations). */
  explain(query: string): Record<string, number> {
    return Object.fromEntries(this.index.queryTerms(query));
  }
}
