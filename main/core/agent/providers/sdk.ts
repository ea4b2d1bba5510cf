// The providers' official SDKs, imported on a provider's first request: loading them takes a few hundred ms that
// `knack` commands without a model (and the app until the first message) never need. One instance per process:
// errors.ts tells their error classes apart by identity.
import type * as AnthropicModule from '@anthropic-ai/sdk';
import type * as OpenAIModule from 'openai';
import type { Said } from '../../base/index.js';

type AnthropicSdk = typeof AnthropicModule;
type OpenAISdk = typeof OpenAIModule;

let anthropic: Promise<AnthropicSdk> | undefined;
let openai: Promise<OpenAISdk> | undefined;
const loaded: (AnthropicSdk | OpenAISdk)[] = [];

export function loadAnthropicSdk(): Promise<AnthropicSdk> {
  // A failed import is not kept: the next request tries again.
  return (anthropic ??= import('@anthropic-ai/sdk').then(
    (m) => (loaded.push(m), m),
    (e: unknown) => {
      anthropic = undefined;
      throw e;
    },
  ));
}

export function loadOpenAISdk(): Promise<OpenAISdk> {
  return (openai ??= import('openai').then(
    (m) => (loaded.push(m), m),
    (e: unknown) => {
      openai = undefined;
      throw e;
    },
  ));
}

/** The SDKs loaded so far: an error can only come from one of them. */
export function loadedSdks(): readonly (AnthropicSdk | OpenAISdk)[] {
  return loaded;
}

/** The options both SDKs' clients take, the same way: key, base URL, per-request timeout (default 120 s), retries (default 2). */
/** What a provider adapter over an official SDK (anthropic.ts, openai.ts) is made with. */
export interface SdkProviderOptions {
  id?: string;
  apiKey: string;
  model: string;
  baseURL?: string | undefined;
  contextWindow: number;
  /** The model reads images (attachments go to it as image blocks). */
  vision?: boolean;
  /** Per-request timeout in ms (default 120 s). */
  timeoutMs?: number;
  /** SDK retries for 429 (honouring retry-after) and 5xx (default 2). */
  maxRetries?: number;
  /** A reply that receives no bytes for this long ends as timed out (stall.ts); 0 or absent: never. */
  stallMs?: number;
  keyHint?: string | Said;
}

export function clientOptions(o: Pick<SdkProviderOptions, 'apiKey' | 'baseURL' | 'timeoutMs' | 'maxRetries'>): {
  apiKey: string;
  baseURL?: string;
  timeout: number;
  maxRetries: number;
} {
  return {
    apiKey: o.apiKey,
    ...(o.baseURL ? { baseURL: o.baseURL } : {}),
    timeout: o.timeoutMs ?? 120_000,
    maxRetries: o.maxRetries ?? 2,
  };
}

/** A request body already made as UTF-8 bytes: its kept encoded head, the part made per request, its kept encoded tail. */
export function joinBody(head: Buffer, middle: string, tail: Buffer): Buffer {
  const mid = Buffer.from(middle);
  return Buffer.concat([head, mid, tail], head.length + mid.length + tail.length);
}

const JSON_BODY = { 'content-type': 'application/json' };

/** Per-request options for such a body: both SDKs send bytes as they are, with this content type; the rest is theirs. */
export function bytesBody(
  body: Buffer,
  signal: AbortSignal | undefined,
): { body: Buffer; headers: typeof JSON_BODY; signal?: AbortSignal } {
  return { body, headers: JSON_BODY, ...(signal ? { signal } : {}) };
}
