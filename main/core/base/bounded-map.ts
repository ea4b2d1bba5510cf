// The one size-bounded cache: a Map that keeps at most `max` entries and drops the oldest inserted to make room.
// Used for memo tables (glob matchers, shell parses, rule words, token counts, stems, tokenized chunks).
// Insertion order, not recency: a hit does not refresh an entry, so a read costs what a Map read costs.

export class BoundedMap<K, V> extends Map<K, V> {
  readonly max: number;

  constructor(max: number) {
    super();
    if (!(max >= 1)) throw new RangeError(`BoundedMap: max must be at least 1, not ${max}`);
    this.max = max;
  }

  override set(key: K, value: V): this {
    if (this.size >= this.max && !this.has(key)) this.delete(this.keys().next().value as K);
    return super.set(key, value);
  }
}
