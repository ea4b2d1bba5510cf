// A dependency loaded on first use instead of at start-up: for the packages that take tens to hundreds of ms to load
// (tokenizer tables, Ajv, yaml, fflate, the shell parser) and that many runs of `knack` and of the app never need.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** A getter that `require`s package `id` the first time it is called and returns the same module ever after. */
export function lazyRequire<T>(id: string): () => T {
  let mod: T | undefined;
  return () => (mod ??= require(id) as T);
}
