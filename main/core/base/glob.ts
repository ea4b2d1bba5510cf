// Glob matching for patterns that may come from untrusted places (skill manifests, the model's glob tool, rules):
// picomatch's regular expression, run under a time limit when the pattern could backtrack (`*a*a*a*a*b`).
import vm from 'node:vm';
import picomatch from 'picomatch';
import { BoundedMap } from './bounded-map.js';

/** Longest one glob test may take before it is abandoned (a pattern like *a*a*a*a*b runs for minutes otherwise). */
const GLOB_MATCH_TIMEOUT_MS = 100;

export class GlobTooSlowError extends Error {
  constructor(readonly glob: string) {
    super(`the glob "${glob.slice(0, 200)}" is too expensive to match (too many wildcards in one name); simplify it`);
  }
}

export interface GlobOptions {
  /** Ignore case (deny rules, protected paths). */
  nocase?: boolean;
  /** A glob without "/" is matched against the last name of the path (grep's `glob: "*.ts"`). */
  matchBase?: boolean;
}

/**
 * Patterns whose regex cannot backtrack badly: no extglobs, at most two `**`, and at most one name part with two
 * `*` (the others one at most). Measured worst case on 4,000-character paths: a few milliseconds.
 */
function isCheapGlob(glob: string): boolean {
  if (/[@!+*?]\(/.test(glob)) return false;
  const parts = glob.split('/');
  if (parts.filter((p) => p === '**').length > 2) return false;
  let doubles = 0;
  for (const p of parts) {
    if (p === '**') continue;
    const stars = p.match(/\*+/g)?.length ?? 0;
    if (stars > 2) return false;
    if (stars === 2 && ++doubles > 1) return false;
  }
  return true;
}

export class RegexTimeoutError extends Error {
  constructor(
    readonly pattern: string,
    readonly ms: number,
  ) {
    super(`matching /${pattern.slice(0, 200)}/ took longer than ${ms} ms`);
  }
}

const TEST = new vm.Script('hit = re.test(s)');
let box: vm.Context | undefined;

/**
 * `re.test(s)` with a time limit (V8 interrupts a backtracking regex at the deadline): for patterns that come from
 * outside (schemas, globs, the model). Throws RegexTimeoutError when the time runs out. Costs ~0.1 ms per call.
 * The limit is wall time, so a thread that was not running (a busy machine descheduling it) could run out of time on
 * a cheap pattern: a time-out is confirmed by a second try before the pattern counts as too slow. (Node 20 has no
 * per-thread CPU clock to tell the two apart; a pattern that really backtracks costs twice the limit.)
 */
export function testWithin(re: RegExp, s: string, ms: number): boolean {
  box ??= vm.createContext({ re: /$^/, s: '', hit: false });
  box.re = re;
  box.s = s;
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        TEST.runInContext(box, { timeout: ms });
        break;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw e;
        if (attempt > 0) throw new RegexTimeoutError(re.source, ms);
      }
    }
  } finally {
    box.s = '';
  }
  return box.hit === true;
}

function timedTest(re: RegExp, s: string, glob: string): boolean {
  try {
    return testWithin(re, s, GLOB_MATCH_TIMEOUT_MS);
  } catch (e) {
    throw e instanceof RegexTimeoutError ? new GlobTooSlowError(glob) : e;
  }
}

const cache = new BoundedMap<string, (path: string) => boolean>(500);

/**
 * A matcher for one glob (dot files included), equal to `picomatch(glob, {dot: true})` on relative "/" paths.
 * Throws picomatch's error for an invalid glob; the matcher throws GlobTooSlowError when a test runs out of time.
 */
export function globMatcher(glob: string, opts: GlobOptions = {}): (path: string) => boolean {
  const base = opts.matchBase === true && !glob.includes('/');
  const key = `${opts.nocase ? 'i' : 's'}${base ? 'b' : 'p'}:${glob}`;
  const known = cache.get(key);
  if (known) return known;
  const re = picomatch.makeRe(glob, { dot: true, ...(opts.nocase ? { nocase: true } : {}) });
  const test = isCheapGlob(glob) ? (p: string): boolean => re.test(p) : (p: string): boolean => timedTest(re, p, glob);
  const m = base ? (p: string): boolean => test(p.slice(p.lastIndexOf('/') + 1)) : test;
  cache.set(key, m);
  return m;
}

/** True when any of `globs` matches `path`. */
export function matchesAny(globs: string[], path: string, opts: GlobOptions = {}): boolean {
  return globs.some((g) => globMatcher(g, opts)(path));
}
