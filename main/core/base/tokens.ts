// Token counting with a real tokenizer (gpt-tokenizer, o200k_base: GPT-4o family), shared by every budget.
// Claude's tokenizer is not public; o200k is a close, honest stand-in and far better than chars/4.
import { lazyRequire } from './lazy-require.js';
import type * as O200k from 'gpt-tokenizer/encoding/o200k_base';

/** Loaded on the first count: its tables take ~0.3 s to load, and most `knack` commands never count a token. */
const tokenizer = lazyRequire<typeof O200k>('gpt-tokenizer/encoding/o200k_base');

/** Number of tokens in `text`. */
export function countTokens(text: string): number {
  return text === '' ? 0 : tokenizer().countTokens(text);
}
