// Words of a sorted vocabulary that a request word may stand for: longer words it is a prefix of, and, for a
// word the index does not know, words within one or two edits of it (typos).

function editDistanceAtMost(a: string, b: string, max: number): boolean {
  if (Math.abs(a.length - b.length) > max) return false;
  let prev = new Array<number>(b.length + 1);
  let cur = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (cur[j]! < rowMin) rowMin = cur[j]!;
    }
    if (rowMin > max) return false;
    [prev, cur] = [cur, prev];
  }
  return prev[b.length]! <= max;
}

/** The first index of sorted `xs` whose value is not below `x` (xs.length when none is). */
export function lowerBound<T extends string | number>(xs: readonly T[], x: T): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Up to `cap` words of `vocab` (sorted) that start with `prefix`, other than `prefix` itself. */
export function prefixMatches(vocab: readonly string[], prefix: string, cap = 24): string[] {
  const lo = lowerBound(vocab, prefix);
  const out: string[] = [];
  for (let i = lo; i < vocab.length && out.length < cap && vocab[i]!.startsWith(prefix); i++)
    if (vocab[i] !== prefix) out.push(vocab[i]!);
  return out;
}

/** Up to 8 words of `vocab` with the same first letter within one edit of `term` (two from 8 letters on). */
export function typoMatches(vocab: readonly string[], term: string): string[] {
  const max = term.length >= 8 ? 2 : 1;
  const out: string[] = [];
  for (const v of vocab) {
    if (Math.abs(v.length - term.length) > max || v[0] !== term[0]) continue;
    if (editDistanceAtMost(term, v, max)) out.push(v);
    if (out.length >= 8) break;
  }
  return out;
}
