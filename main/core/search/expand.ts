// Query expanders for RankedIndex: the synonym table, the CC-CEDICT translation map, and their combination —
// one factory (`crossLanguageExpander`) that SkillSearch and ToolSearch both use.
import { terms } from './tokenize.js';
import { BUILTIN_SYNONYMS, type SynonymGroup } from './synonyms.js';
import { bilingualExpander, sharedBilingualMap, type BilingualMap, type BilingualOptions } from './bilingual.js';
import type { Expander } from './ranked-index.js';

/** Expands a term to the other phrases of every synonym group that contains it as a whole phrase. */
function synonymExpander(groups: readonly SynonymGroup[]): Expander {
  const byTerm = new Map<string, Set<string>>();
  for (const g of groups) {
    for (const p of g) {
      const t = terms(p);
      if (t.length !== 1) continue;
      const set = byTerm.get(t[0]!) ?? new Set<string>();
      for (const other of g) if (other !== p) set.add(other);
      byTerm.set(t[0]!, set);
    }
  }
  return (term) => [...(byTerm.get(term) ?? [])];
}

export interface CrossLanguageOptions extends BilingualOptions {
  /** Extra synonym groups on top of the built-in table. */
  synonyms?: readonly SynonymGroup[];
  /** A ready map, or false to turn dictionary translation off (synonyms only). */
  bilingual?: BilingualMap | false;
  /** Folder for the derived dictionary cache (the app data folder's `cache/`). */
  cacheDir?: string;
}

/**
 * Synonyms, then dictionary translations of the term and of its synonyms. The dictionary map loads lazily on
 * the first query (from the cache: tens of milliseconds; first run ever: ~1–2 s to derive and cache it).
 */
export function crossLanguageExpander(opts: CrossLanguageOptions = {}): Expander {
  const syn = synonymExpander([...BUILTIN_SYNONYMS, ...(opts.synonyms ?? [])]);
  if (opts.bilingual === false) return syn;
  const fixed = opts.bilingual;
  const translate = bilingualExpander(fixed ?? (() => sharedBilingualMap(opts.cacheDir).map), opts);
  return (term) => {
    const s = syn(term);
    // A term covered by the synonym table is already translated by it; the dictionary adds the rest.
    return [...new Set([...s, ...translate(term)])];
  };
}
