// Prices per million tokens (input, output, cache read, cache write) for the presets' models, overridable in
// providers.json; cost of a model call from its usage. A model without a known price has no cost — never a guess.
import { z } from 'zod';
import type { Usage } from './types.js';

/** US dollars per million tokens. A missing cache price means those tokens cannot be priced. */
export interface Price {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
}

/**
 * Published list prices (USD per million tokens) as of late 2025, for the models the presets name and their close
 * siblings. Keys are `provider/model`; a model missing here has no cost shown unless the user gives its price.
 * Anthropic's cache write is the 5-minute cache (1.25× input); OpenAI and DeepSeek bill no cache write.
 */
const PRICES: Readonly<Record<string, Price>> = {
  'anthropic/claude-opus-4-5': { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 },
  'anthropic/claude-opus-4-1': { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75 },
  'anthropic/claude-sonnet-4-5': { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  'anthropic/claude-sonnet-4-0': { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  'anthropic/claude-haiku-4-5': { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 },
  'openai/gpt-4.1': { input: 2, output: 8, cacheRead: 0.5, cacheWrite: 0 },
  'openai/gpt-4.1-mini': { input: 0.4, output: 1.6, cacheRead: 0.1, cacheWrite: 0 },
  'openai/gpt-4o': { input: 2.5, output: 10, cacheRead: 1.25, cacheWrite: 0 },
  'openai/gpt-5': { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 0 },
  'deepseek/deepseek-chat': { input: 0.28, output: 0.42, cacheRead: 0.028, cacheWrite: 0 },
};

/** Local servers (Ollama, LM Studio, vLLM) bill nothing per token. */
const FREE = new Set(['ollama', 'lmstudio', 'vllm']);

/** Check a price from a file: four non-negative numbers (input and output required). Undefined when malformed. */
const usd = z.number().nonnegative();
/** A price as providers.json writes it: USD per million tokens, input and output required. */
const PriceSchema = z.object({
  input: usd,
  output: usd,
  cacheRead: usd.optional(),
  cacheWrite: usd.optional(),
});

export function parsePrice(v: unknown): Price | undefined {
  const r = PriceSchema.safeParse(v);
  if (!r.success) return undefined;
  const { input, output, cacheRead, cacheWrite } = r.data;
  return {
    input,
    output,
    ...(cacheRead !== undefined ? { cacheRead } : {}),
    ...(cacheWrite !== undefined ? { cacheWrite } : {}),
  };
}

/**
 * The price for a provider's model: the user's (`provider/model`, then `model`) over the table; local presets are
 * free; anything else is unknown (undefined).
 */
export function priceFor(provider: string, model: string, user: Record<string, Price> = {}): Price | undefined {
  const k = `${provider}/${model}`;
  return (
    user[k] ??
    user[model] ??
    PRICES[k] ??
    (FREE.has(provider) ? { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } : undefined)
  );
}

/**
 * Cost of one call in USD, or undefined when it cannot be priced (no price, or cached tokens without a cache price).
 * `usage.inputTokens` counts every prompt token, cached ones included.
 */
export function costOf(usage: Usage, price: Price | undefined): number | undefined {
  if (!price) return undefined;
  if (usage.cacheReadTokens > 0 && price.cacheRead === undefined) return undefined;
  if (usage.cacheWriteTokens > 0 && price.cacheWrite === undefined) return undefined;
  const plain = Math.max(0, usage.inputTokens - usage.cacheReadTokens - usage.cacheWriteTokens);
  const micro =
    plain * price.input +
    usage.outputTokens * price.output +
    usage.cacheReadTokens * (price.cacheRead ?? 0) +
    usage.cacheWriteTokens * (price.cacheWrite ?? 0);
  return micro / 1_000_000;
}

/** "$0.0123" (four decimals under a dollar, two above). */
export function formatCost(usd: number): string {
  return usd >= 1 ? `$${usd.toFixed(2)}` : `$${usd.toFixed(4)}`;
}
