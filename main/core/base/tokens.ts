// Token counting with a real tokenizer (gpt-tokenizer, o200k_base: GPT-4o family), shared by every budget.
// Claude's tokenizer is not public; o200k is a close, honest stand-in and far better than chars/4.
import { createRequire } from 'node:module';

import type * as O200k from 'gpt-tokenizer/encoding/o200k_base';

type Encoding = typeof O200k;
let encoding: Encoding | undefined;
/** Loaded on the first count: its tables take ~0.3 s to load, and most `knack` commands never count a token. */
const tokenizer = (): Encoding => (encoding ??= createRequire(import.meta.url)('gpt-tokenizer/encoding/o200k_base') as Encoding);

/** Number of tokens in `text`. */
export function countTokens(text: string): number {
  return text === '' ? 0 : tokenizer().countTokens(text);
}

/** True when `text` has at most `limit` tokens (stops counting early). */
export function fitsTokens(text: string, limit: number): boolean {
  return tokenizer().isWithinTokenLimit(text, limit) !== false;
}
