// A provider's reply as an async iterable, made from its push form (`run`): the loop takes events pushed straight
// from the SDK's stream (no async layer per event on the path to the first token); compaction and tests iterate.
import type { ModelRequest, StreamEvent } from './types.js';

export type RunReply = (req: ModelRequest, onEvent: (ev: StreamEvent) => void) => Promise<void>;

/** The events `run` pushes, pulled one by one. Leaving the loop early (break, throw) aborts the request. */
export function streamOf(run: RunReply, req: ModelRequest): AsyncIterable<StreamEvent> {
  return {
    [Symbol.asyncIterator](): AsyncIterator<StreamEvent> {
      const left = new AbortController();
      const signal = req.signal ? AbortSignal.any([req.signal, left.signal]) : left.signal;
      const queue: StreamEvent[] = [];
      let ended = false;
      let failure: { error: unknown } | undefined;
      let wake: (() => void) | undefined;
      const poke = (): void => {
        const w = wake;
        wake = undefined;
        w?.();
      };
      run({ ...req, signal }, (ev) => {
        queue.push(ev);
        poke();
      }).then(
        () => {
          ended = true;
          poke();
        },
        (error: unknown) => {
          failure = { error };
          ended = true;
          poke();
        },
      );
      return {
        async next(): Promise<IteratorResult<StreamEvent>> {
          for (;;) {
            if (queue.length) return { value: queue.shift()!, done: false };
            if (failure) throw failure.error;
            if (ended) return { value: undefined, done: true };
            await new Promise<void>((resolve) => (wake = resolve));
          }
        },
        async return(): Promise<IteratorResult<StreamEvent>> {
          if (!ended) left.abort();
          return { value: undefined, done: true };
        },
      };
    },
  };
}
