// Names of skills (and anything else looked up by name): one key so `PDF`, `pdf` and `ｐｄｆ` find the same thing.
// Every map keyed by a skill name uses nameKey(); never lowercase or normalise by hand.

/** Lookup key for names: NFKC, lowercase. */
export function nameKey(name: string): string {
  // ASCII names (almost all) need no Unicode normalisation.
  return /^[\x20-\x7e]*$/.test(name) ? name.toLowerCase() : name.normalize('NFKC').toLowerCase();
}
