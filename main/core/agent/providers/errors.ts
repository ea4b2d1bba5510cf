// Provider failures as one clear line each: bad key, unknown model, context too long, rate limited, overloaded,
// network down, timeout (no answer in time, or a reply that stalled), interrupted (the connection lost mid-answer),
// cancelled. Both SDKs' error classes share a shape (status, error body); keys are redacted.
// Each line is words (preload/words.ts `provider.*`): the window says it in its language, the CLI and the store keep its
// English. What the provider or its connection said itself is the words' `detail`, kept verbatim (never translated).
import { english, say, type Said } from '../../base/index.js';
import { loadedSdks } from './sdk.js';
import type { StreamEvent } from './types.js';

export type ProviderErrorKind =
  | 'auth'
  | 'model'
  | 'context'
  | 'rate_limit'
  | 'overloaded'
  | 'network'
  | 'timeout'
  | 'interrupted'
  | 'cancelled'
  | 'bad_request'
  | 'server'
  | 'config';

export class ProviderError extends Error {
  /** The message as words; `message` is their English. */
  readonly words: Said;

  constructor(
    readonly kind: ProviderErrorKind,
    words: Said,
    readonly status?: number,
  ) {
    super(english(words));
    this.words = words;
    this.name = 'ProviderError';
  }

  /** What the provider (or its connection) said in its own words, verbatim, when the words carry it. */
  get detail(): string | undefined {
    const d = this.words.params?.['detail'];
    return typeof d === 'string' ? d : undefined;
  }
}

interface SdkErrorLike {
  name?: string;
  message?: string;
  status?: number;
  error?: unknown;
  type?: string;
  cause?: unknown;
}

function bodyOf(e: SdkErrorLike): { type?: string; message?: string; code?: string } {
  const raw = e.error as
    | { type?: string; message?: string; code?: string; error?: { type?: string; message?: string; code?: string } }
    | undefined;
  const inner = raw?.error ?? raw;
  return { type: inner?.type ?? e.type, message: inner?.message, code: inner?.code };
}

/**
 * What the provider itself said about a failure (its error body's message, else the SDK's), one line, keys redacted:
 * shown beside Knack's own line so the user reads the provider's words (e.g. "invalid x-api-key").
 */
export function providerSaid(e: unknown, secrets: (string | undefined)[] = []): string | undefined {
  const err = (e ?? {}) as SdkErrorLike;
  const said = bodyOf(err).message ?? err.message;
  return said ? redact(said.split('\n')[0]!.slice(0, 300), secrets) : undefined;
}

/** Remove every key-looking secret (and the given key) from a message that may be shown or stored. */
export function redact(text: string, secrets: (string | undefined)[] = []): string {
  let out = text;
  for (const s of secrets) if (s && s.length >= 6) out = out.split(s).join('[redacted]');
  return out
    .replace(/\b(sk-[A-Za-z0-9_-]{6})[A-Za-z0-9_-]{8,}/g, '$1…[redacted]')
    .replace(/(Bearer\s+)\S+/gi, '$1[redacted]');
}

/** `words` with every key-looking secret removed from their plain parameters (as `redact` does for a message). */
export function redactWords(words: Said, secrets: (string | undefined)[] = []): Said {
  if (!words.params) return words;
  const params: NonNullable<Said['params']> = {};
  for (const [k, v] of Object.entries(words.params))
    params[k] = typeof v === 'string' ? redact(v, secrets) : typeof v === 'object' ? redactWords(v, secrets) : v;
  return { code: words.code, params };
}

const CONTEXT_RE =
  /context (length|window)|too long|maximum context|prompt is too long|too many tokens|reduce the length|exceeds the (model'?s )?(context|maximum)/i;

/** The SDK error class by identity (bundlers may rename classes, and their `name` is just "Error"). */
function sdkClass(e: unknown): string | undefined {
  for (const sdk of loadedSdks()) {
    if (e instanceof sdk.APIUserAbortError) return 'APIUserAbortError';
    if (e instanceof sdk.APIConnectionTimeoutError) return 'APIConnectionTimeoutError';
    if (e instanceof sdk.APIConnectionError) return 'APIConnectionError';
  }
  return undefined;
}

/** Map an SDK error (either SDK) or any thrown value to a ProviderError with one line for people. */
export function mapProviderError(
  e: unknown,
  where: {
    provider: string;
    model: string;
    baseURL?: string | undefined;
    key?: string | undefined;
    keyHint?: string | Said;
  },
): ProviderError {
  if (e instanceof ProviderError) return e;
  const err = (e ?? {}) as SdkErrorLike;
  const name = sdkClass(e) ?? err.name ?? '';
  const body = bodyOf(err);
  const detail = redact((body.message ?? err.message ?? String(e)).split('\n')[0]!.slice(0, 300), [where.key]);
  const provider = where.provider;
  const at = where.baseURL ? say('provider.at', { url: where.baseURL }) : '';
  const key = where.keyHint ?? say('provider.theKey');
  if (name === 'APIUserAbortError' || name === 'AbortError' || (e as Error)?.name === 'AbortError')
    return new ProviderError('cancelled', say('provider.cancelled'));
  if (name === 'APIConnectionTimeoutError')
    return new ProviderError('timeout', say('provider.timeout', { provider, at }));
  if (name === 'APIConnectionError')
    return new ProviderError('network', say('provider.network', { provider, at, detail }));
  const status = err.status;
  const type = body.type ?? body.code ?? '';
  if (status === 401 || status === 403 || /authentication|invalid_api_key|permission_error/.test(type)) {
    return new ProviderError(
      'auth',
      status ? say('provider.authStatus', { provider, status, key }) : say('provider.auth', { provider, key }),
      status,
    );
  }
  if (status === 404 || /not_found|model_not_found/.test(type)) {
    return new ProviderError('model', say('provider.model', { provider, model: where.model, at, detail }), status);
  }
  if (CONTEXT_RE.test(detail) || status === 413 || type === 'request_too_large' || type === 'context_length_exceeded') {
    return new ProviderError('context', say('provider.context', { model: where.model, detail }), status);
  }
  if (status === 429 || /rate_limit/.test(type))
    return new ProviderError('rate_limit', say('provider.rateLimit', { provider, detail }), status);
  if (status === 529 || status === 503 || /overloaded/.test(type))
    return new ProviderError('overloaded', say('provider.overloaded', { provider }), status);
  if (status !== undefined && status >= 500)
    return new ProviderError('server', say('provider.serverStatus', { provider, status, detail }), status);
  if (status === 400 || /invalid_request/.test(type))
    return new ProviderError('bad_request', say('provider.badRequest', { provider, detail }), status);
  if (type === 'api_error') return new ProviderError('server', say('provider.server', { provider, detail }));
  if (/fetch failed|ECONNREFUSED|ENOTFOUND|ECONNRESET|socket/i.test(detail))
    return new ProviderError('network', say('provider.unreachable', { provider, at, detail }));
  return new ProviderError('server', say('provider.other', { provider, detail }), status);
}

/** What a dropped connection looks like once a reply has started (undici's "terminated", a reset socket). */
const DROPPED_RE = /terminated|ECONNRESET|socket hang up|other side closed|premature close|aborted|UND_ERR_SOCKET/i;

/**
 * A reply whose connection was lost after it had started (the SDK's stream broke off, or ended before the provider
 * said the answer was complete): `detail` says how, when known (the connection's own text, or words).
 */
function interruptedError(provider: string, detail?: string | Said): ProviderError {
  return new ProviderError(
    'interrupted',
    detail ? say('provider.interruptedHow', { provider, detail }) : say('provider.interrupted', { provider }),
  );
}

/** A stream that ended without the provider's event saying the answer was complete (`event`: message_stop …). */
export function endedEarlyError(provider: string, event: string): ProviderError {
  return interruptedError(provider, say('provider.endedWithout', { event }));
}

/** The reply was stopped by the user (an aborted stream the SDK ended quietly). */
export function cancelledError(): ProviderError {
  return new ProviderError('cancelled', say('provider.cancelled'));
}

/**
 * An error thrown while a reply was streaming: a dropped connection is `interrupted` (what came before it is kept);
 * anything else (an error event from the provider: overloaded, say) is mapped as any provider error.
 */
function midStreamError(e: unknown, where: Parameters<typeof mapProviderError>[1]): ProviderError {
  const mapped = mapProviderError(e, where);
  if (mapped.kind !== 'network' && mapped.kind !== 'server') return mapped;
  if (mapped.status !== undefined) return mapped;
  const err = e as { message?: unknown; cause?: { message?: unknown; code?: unknown } } | undefined;
  const text = `${String(err?.message ?? '')} ${String(err?.cause?.message ?? '')} ${String(err?.cause?.code ?? '')}`;
  if (mapped.kind === 'network' || DROPPED_RE.test(text))
    return interruptedError(
      where.provider,
      redact(
        String(err?.message ?? '')
          .split('\n')[0]!
          .slice(0, 200),
      ),
    );
  return mapped;
}

/**
 * The loop's event handler, called from inside an SDK stream's loop. A handler that throws leaves that loop (which
 * aborts the request); `failed(e, where)` then gives back the handler's own error, else the provider's error mapped.
 * (A class, not a pair of closures: one is made per model call, on the path to its first token.)
 */
export class GuardedHandler {
  private handlerFailed: { error: unknown } | undefined;

  constructor(private readonly onEvent: (ev: StreamEvent) => void) {}

  emit(ev: StreamEvent): void {
    try {
      this.onEvent(ev);
    } catch (error) {
      this.handlerFailed = { error };
      throw error;
    }
  }

  failed(e: unknown, where: Parameters<typeof mapProviderError>[1], streaming = false): unknown {
    if (this.handlerFailed) return this.handlerFailed.error;
    return streaming ? midStreamError(e, where) : mapProviderError(e, where);
  }
}
