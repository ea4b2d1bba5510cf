// The one size-bounded cache: a Map that keeps at most `max` entries and drops the oldest inserted to make room.
// Used for memo tables (glob matchers, shell parses, rule words, token counts, stems, tokenized chunks) and for what
// must be let go of when dropped (`dropped`: the sources open at once, each a temporary clone).
// Insertion order, not recency: a hit does not refresh an entry, so a read costs what a Map read costs.

export class BoundedMap<K, V> extends Map<K, V> {
  readonly max: number;

  constructor(
    max: number,
    private readonly dropped?: (value: V, key: K) => void,
  ) {
    super();
    if (!(max >= 1)) throw new RangeError(`BoundedMap: max must be at least 1, not ${max}`);
    this.max = max;
  }

  override set(key: K, value: V): this {
    if (this.size >= this.max && !this.has(key)) {
      const [oldest, old] = this.entries().next().value as [K, V];
      this.delete(oldest);
      this.dropped?.(old, oldest);
    }
    return super.set(key, value);
  }
}
