// The stall watch of a model call: a reply that receives no bytes for `stallMs` — from the request going out to the
// reply's last byte, headers and the provider's keep-alive pings included — is aborted and ends as timed out.
// Bytes are counted where they arrive: a fetch given to the SDK's client wraps the response body of each request made
// while a watch is current (AsyncLocalStorage: the SDK's own fetch calls, retries included, run inside `watch.run`).
import { AsyncLocalStorage } from 'node:async_hooks';
import { ProviderError } from './errors.js';

const current = new AsyncLocalStorage<StallWatch>();

export class StallWatch {
  private readonly ac = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  /** The request's signal: the caller's, or this watch's when it fires. */
  readonly signal: AbortSignal;
  fired = false;

  constructor(
    private readonly ms: number,
    outer: AbortSignal | undefined,
  ) {
    this.signal = outer ? AbortSignal.any([outer, this.ac.signal]) : this.ac.signal;
    this.poke();
  }

  /** Bytes came (or the request went out): the limit starts again. */
  poke(): void {
    if (this.fired) return;
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
    return new ProviderError(
      'timeout',
      `${provider} sent nothing for ${s < 10 ? s.toFixed(1).replace(/\.0$/, '') : Math.round(s)} s: the answer timed out`,
    );
  }
}

/**
 * The fetch both SDK clients are given: the global fetch, with the response body of a watched request passed through
 * a stream that pokes its watch on every chunk. An unwatched request (a watch-less provider) is fetched as it is.
 */
export const watchedFetch: typeof fetch = async (input, init) => {
  const w = current.getStore();
  if (!w) return fetch(input, init);
  w.poke();
  const res = await fetch(input, init);
  w.poke();
  if (!res.body) return res;
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
