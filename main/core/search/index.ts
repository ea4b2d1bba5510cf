// Text search shared by skills and tools: tokenizer, indexes, synonyms, Chinese–English expansion.
// What other folders may import from core/search: nothing outside reaches past this file.
export { bilingualStamp, sharedBilingualMap, translateTerm } from './bilingual.js';
export { crossLanguageExpander, type CrossLanguageOptions } from './expand.js';
export {
  onBoundaries,
  PhraseAutomaton,
  phraseTokens,
  preparedTokens,
  SynonymCanon,
  type PhraseToken,
} from './phrases.js';
export { type QueryNormalization } from './query.js';
export { BUILTIN_SYNONYMS, parseSynonymGroups, type SynonymGroup } from './synonyms.js';
export {
  lowerBound,
  RankedIndex,
  type Expander,
  type FeedbackOptions,
  type FieldSpec,
  type IndexSnapshot,
  type RankedIndexOptions,
} from './ranked-index.js';
export { normalize, splitIdentifiers, terms } from './tokenize.js';
export { sharedSynonymTable, wordnetExpander } from './wordnet.js';
