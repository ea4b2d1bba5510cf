// The shared parse queue: the calling thread and parse workers claim chunks of files through one atomic counter.
// Kept apart from parse-pool so the worker bundle holds only the parser.
import { parseFoundSkill, type ParsedSkill } from '../format/manifest.js';

/** Files claimed per step from the shared queue. */
export const CHUNK = 32;

/** Claim and parse chunks until the queue (counter[0] = next index) is empty; returns [index, result] pairs. */
export function drain(files: string[], counter: Int32Array): [number, ParsedSkill][] {
  const out: [number, ParsedSkill][] = [];
  for (;;) {
    const start = Atomics.add(counter, 0, CHUNK);
    if (start >= files.length) return out;
    const end = Math.min(files.length, start + CHUNK);
    for (let i = start; i < end; i++) out.push([i, parseFoundSkill(files[i]!)]);
  }
}
