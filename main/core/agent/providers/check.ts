// Test connection: one real request of one token through the provider's official SDK to the configured base URL,
// as the first-run flow and the Settings page ask for it. Ok, or the provider's failure in its own words.
import { clientOptions, loadAnthropicSdk, loadOpenAISdk } from './sdk.js';
import type { Said } from '../../base/index.js';
import { mapProviderError, providerSaid, type ProviderErrorKind } from './errors.js';
import type { ProviderConfig } from './settings.js';

export type ConnectionCheck =
  | { ok: true }
  | {
      ok: false;
      /** What went wrong, as the agent's errors name it (auth, model, network, timeout …). */
      kind: ProviderErrorKind;
      /** HTTP status, when the provider answered. */
      status?: number;
      /** Knack's one line (key redacted), in English. */
      message: string;
      /** `message` as words, said in the window's language. */
      words: Said;
      /** The provider's own words (its error body's message), key redacted. */
      said?: string;
    };

/** How long the test waits for an answer before it says the provider did not answer in time. */
const CHECK_TIMEOUT_MS = 30_000;

/** OpenAI's own API takes `max_completion_tokens` (its reasoning models refuse `max_tokens`); compatible servers `max_tokens`. */
function isOpenAIItself(baseURL: string | undefined): boolean {
  try {
    return new URL(baseURL ?? '').hostname === 'api.openai.com';
  } catch {
    return false;
  }
}

/**
 * Ask the configured model for one token. The answer's first events are enough (the key, the model and the base URL
 * were all accepted); the stream is then closed. No retries: a failure is the one the user must see.
 */
export async function checkConnection(
  config: ProviderConfig,
  apiKey: string | undefined,
  opts: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<ConnectionCheck> {
  const options = clientOptions({
    apiKey: apiKey ?? 'not-needed',
    baseURL: config.baseURL,
    timeoutMs: opts.timeoutMs ?? CHECK_TIMEOUT_MS,
    maxRetries: 0,
  });
  const messages = [{ role: 'user' as const, content: 'Say OK.' }];
  const request = opts.signal ? { signal: opts.signal } : {};
  try {
    // An error the provider sends inside the stream (overloaded) comes out of the first read; then the stream is closed.
    if (config.kind === 'anthropic') {
      const client = new (await loadAnthropicSdk()).default(options);
      const stream = await client.messages.create(
        { model: config.model, max_tokens: 1, messages, stream: true },
        request,
      );
      for await (const _ of stream) break;
    } else {
      const client = new (await loadOpenAISdk()).default(options);
      const limit = isOpenAIItself(config.baseURL) ? { max_completion_tokens: 1 } : { max_tokens: 1 };
      const stream = await client.chat.completions.create(
        { model: config.model, ...limit, messages, stream: true },
        request,
      );
      for await (const _ of stream) break;
    }
    return { ok: true };
  } catch (e) {
    const mapped = mapProviderError(e, {
      provider: config.id,
      model: config.model,
      baseURL: config.baseURL,
      key: apiKey,
    });
    // Only an answer is the provider's own words: a connection that failed (no status) is said in `words`, with its
    // text as their detail, not as something the provider said.
    const said = mapped.status !== undefined ? providerSaid(e, [apiKey]) : undefined;
    return {
      ok: false,
      kind: mapped.kind,
      ...(mapped.status !== undefined ? { status: mapped.status } : {}),
      message: mapped.message,
      words: mapped.words,
      ...(said ? { said } : {}),
    };
  }
}
