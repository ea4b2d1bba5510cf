// The watch over one model call: a reply that receives no bytes for `stallMs` — from the request going out to the
// reply's last byte, headers and the provider's keep-alive pings included — is aborted and ends as timed out; and each
// request the SDK sends again (its own retries of a 429, a 5xx, an overloaded answer or a lost connection) is told to
// the caller as it goes out, so the window can say "Retrying (2 of 3)" instead of a silent wait.
// Both are seen where they happen: a fetch given to the SDK's client sees every request made while a watch is current
// (AsyncLocalStorage: the SDK's own fetch calls, retries included, run inside `watch.run`) and wraps its response body.
import { AsyncLocalStorage } from 'node:async_hooks';
import { say } from '../../base/index.js';
import { ProviderError } from './errors.js';

const current = new AsyncLocalStorage<StallWatch>();

/** A request sent again by the SDK: `attempt` of `of` (the first request is attempt 1). */
export type OnRetry = (attempt: number) => void;

export class StallWatch {
  private readonly ac = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  /** The request's signal: the caller's, or this watch's when it fires. */
  readonly signal: AbortSignal;
  fired = false;
  /** Requests sent so far for this call (the SDK's retries included). */
  private requests = 0;

  /** `ms` 0: no stall limit (only retries are watched). */
  constructor(
    private readonly ms: number,
    outer: AbortSignal | undefined,
    private readonly onRetry?: OnRetry,
  ) {
    this.signal = outer ? AbortSignal.any([outer, this.ac.signal]) : this.ac.signal;
    this.poke();
  }

  /**
   * A request goes out: the second and later ones are the SDK's retries, told to `onRetry`. A failing `onRetry` ends
   * the call (the abort stops the SDK from retrying further) and its error is what the call throws.
   */
  sent(): void {
    this.requests++;
    if (this.requests < 2 || !this.onRetry) return;
    try {
      this.onRetry(this.requests);
    } catch (e) {
      this.ac.abort(e);
      throw e;
    }
  }

  /** A stall limit is set: response bodies are watched. */
  get watchesBytes(): boolean {
    return this.ms > 0;
  }

  /** Bytes came (or the request went out): the limit starts again. */
  poke(): void {
    if (this.fired || !this.ms) return;
    if (this.timer) this.timer.refresh();
    else this.timer = setTimeout(this.fire, this.ms);
  }

  private readonly fire = (): void => {
    this.fired = true;
    this.ac.abort(new Error('stalled'));
  };

  /** Run the SDK call with this watch current (its fetch calls are watched). */
  run<T>(fn: () => Promise<T>): Promise<T> {
    return current.run(this, fn);
  }

  /** The call ended: the timer goes. */
  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** The error a fired watch ends the call with: one line naming the provider and the limit. */
  error(provider: string): ProviderError {
    const s = this.ms / 1000;
    const seconds = s < 10 ? s.toFixed(1).replace(/\.0$/, '') : String(Math.round(s));
    return new ProviderError('timeout', say('provider.stalled', { provider, seconds }));
  }
}

/**
 * The fetch both SDK clients are given: the global fetch, each watched request counted (a retry told) and its response
 * body passed through a stream that pokes its watch on every chunk. An unwatched request is fetched as it is.
 */
export const watchedFetch: typeof fetch = async (input, init) => {
  const w = current.getStore();
  if (!w) return fetch(input, init);
  w.sent();
  w.poke();
  const res = await fetch(input, init);
  w.poke();
  if (!res.body || !w.watchesBytes) return res;
  const body = res.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, out) {
        w.poke();
        out.enqueue(chunk);
      },
    }),
  );
  return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
};
