// grep's ripgrep engine: the same search as the JavaScript one (grep.ts), done by `rg` where it is on PATH. ripgrep
// (a library's work before hand-written code: a parallel, non-backtracking search with gitignore rules) lists the files,
// Knack checks each against the caller's read grants, and rg then searches only the permitted ones. Always a fixed
// argv, never a shell string; the pattern goes after -e.
import { spawn } from 'node:child_process';
import { accessSync, constants, openSync, readSync, closeSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { delimiter, join, relative, sep } from 'node:path';
import { createInterface } from 'node:readline';
import { ok, toolError } from '../errors.js';
import type { ToolContext, ToolResult } from '../types.js';
import { displayPath, looksBinary } from './workspace.js';

/** `rg` on this PATH, or undefined (then grep uses its JavaScript engine). Looked up per call: a few stat calls. */
export function findRipgrep(pathEnv = process.env.PATH ?? ''): string | undefined {
  const name = process.platform === 'win32' ? 'rg.exe' : 'rg';
  for (const dir of pathEnv.split(delimiter)) {
    if (!dir) continue;
    const p = join(dir, name);
    try {
      accessSync(p, constants.X_OK);
      return p;
    } catch {
      /* not here */
    }
  }
  return undefined;
}

/**
 * Whether rg reads `pattern` as JavaScript does. Escapes other than punctuation (\d, \w, \b, \s: Unicode-aware in
 * rg, ASCII in JavaScript), lookaround, backreferences, named groups and inline flags go to the JavaScript engine, and
 * so do classes rg reads otherwise: `[[:alpha:]]` (POSIX), `[a[b]]` (nested), `[a--b]`, `[a&&b]`, `[a~~b]` (set
 * operations), `[]` and `[^]`, and `{,n}`.
 */
export function ripgrepReadsAlike(pattern: string): boolean {
  if (/\\[^\\^$.*+?()[\]{}|/-]/.test(pattern)) return false;
  if (/\(\?(?!:)/.test(pattern) || pattern.includes('{,')) return false;
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') i++;
    else if (!inClass && c === '[') {
      inClass = true;
      if (pattern[i + 1] === '^') i++;
      if (pattern[i + 1] === ']') return false; // `[]`, `[^]`: empty and any to JavaScript, `]` to rg
    } else if (inClass && c === ']') inClass = false;
    else if (inClass && (c === '[' || /^(--|&&|~~)/.test(pattern.slice(i)))) return false;
  }
  return true;
}

/** Wall-clock time allowed for one ripgrep search (it never backtracks: its time is the tree's size). */
const GREP_RG_TIMEOUT_MS = 30_000;
/**
 * Files in the first rg search process (its argv); each next one takes twice as many, up to BATCH_MAX. Small first, so
 * a common pattern that fills max_results early stops early; large later, so a big tree costs few processes. The
 * time limit is checked between them.
 */
const BATCH_FIRST = 500;
const BATCH_MAX = 8000;

interface Limits {
  max: number;
  maxFileBytes: number;
  lineMaxChars: number;
}

export interface RipgrepOptions {
  timeoutMs?: number;
  /** Injectable clock and first batch size, so the time-out can be tested without timing. */
  now?: () => number;
  batchFiles?: number;
}

const LIST_ARGS = [
  '--files',
  '--no-config',
  // The JavaScript walk's rules: .gitignore files under the searched folder (a git repository or not), hidden files
  // included, .git and node_modules skipped; no global, parent, .ignore or .git/info/exclude rules.
  '--hidden',
  '--no-require-git',
  '--no-ignore-dot',
  '--no-ignore-global',
  '--no-ignore-parent',
  '--no-ignore-exclude',
  '--glob=!.git',
  '--glob=!node_modules',
  '--sort=path',
];

class RgFailed extends Error {}

/** Run rg with `args`, one callback per stdout line; rejects with its stderr on exit code 2 (an error). */
function runRg(rg: string, args: string[], onLine: (l: string) => void, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(rg, args, { stdio: ['ignore', 'pipe', 'pipe'], env: {} });
    let stderr = '';
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    const lines = createInterface({ input: child.stdout, crlfDelay: Infinity });
    lines.on('line', onLine);
    const stop = (): void => void child.kill('SIGKILL');
    signal.addEventListener('abort', stop, { once: true });
    child.on('error', (e) => {
      signal.removeEventListener('abort', stop);
      reject(new RgFailed(e.message));
    });
    child.on('close', (code) => {
      signal.removeEventListener('abort', stop);
      if (signal.aborted) return resolve();
      // 0: matches, 1: none, 2: an error (a file it could not read among results is still exit 2).
      if (code === 2 && !/No such file|Permission denied|os error/.test(stderr))
        return reject(new RgFailed(stderr.trim().split('\n')[0] ?? 'rg failed'));
      resolve();
    });
  });
}

/** A file listing by rg, read as it comes: the search starts on its first files while rg still walks. */
function listing(
  rg: string,
  args: string[],
  signal: AbortSignal,
): { items: string[]; done: Promise<void>; waitFor(n: number): Promise<boolean> } {
  const waiters: { n: number; resolve: (enough: boolean) => void }[] = [];
  const l = {
    items: [] as string[],
    done: Promise.resolve(),
    waitFor(n: number): Promise<boolean> {
      if (l.items.length >= n) return Promise.resolve(true);
      if (ended) return Promise.resolve(false);
      return new Promise<boolean>((resolve) => waiters.push({ n, resolve }));
    },
  };
  let ended = false;
  const end = (): void => {
    ended = true;
    for (const w of waiters.splice(0)) w.resolve(l.items.length >= w.n);
  };
  l.done = runRg(
    rg,
    args,
    (line) => {
      l.items.push(line);
      while (waiters.length && l.items.length >= waiters[0]!.n) waiters.shift()!.resolve(true);
    },
    signal,
  ).then(
    () => end(),
    (e: unknown) => {
      end();
      throw e;
    },
  );
  l.done.catch(() => undefined); // awaited by the caller; a failure before that is not unhandled
  return l;
}

interface RgText {
  text?: string;
  bytes?: string;
}
const textOf = (t: RgText | undefined): string =>
  t?.text ?? (t?.bytes ? Buffer.from(t.bytes, 'base64').toString('utf8') : '');

/** First 8 KB of a file, for the same binary test the JavaScript engine applies. */
function head(path: string): Buffer {
  const buf = Buffer.alloc(8192);
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    return buf.subarray(0, readSync(fd, buf, 0, buf.length, 0));
  } catch {
    return Buffer.alloc(0);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * The search with rg. Returns undefined when rg cannot do it (it refused the pattern, or did not start): the caller
 * then runs the JavaScript engine.
 */
export async function grepWithRipgrep(
  rg: string,
  root: string,
  a: { pattern: string; ignore_case?: boolean },
  inGlob: ((rel: string) => boolean) | undefined,
  ctx: ToolContext,
  limits: Limits,
  opts: RipgrepOptions = {},
): Promise<ToolResult | undefined> {
  const now = opts.now ?? (() => performance.now());
  const timeoutMs = opts.timeoutMs ?? GREP_RG_TIMEOUT_MS;
  const started = now();
  const stop = new AbortController();
  const outer = ctx.signal;
  const onOuter = (): void => stop.abort();
  outer?.addEventListener('abort', onOuter, { once: true });
  let expired = false;
  const timer = setTimeout(() => {
    expired = true;
    stop.abort();
  }, timeoutMs);
  try {
    await stat(root); // a missing path is an error, as in the JavaScript engine (rg would list nothing)
    // 1. The files, by rg's walk, twice at once: all of them, and those under the size cap (rg tells no sizes). The
    // search takes files from the second as they come; the first is for the counts.
    const all = listing(rg, [...LIST_ARGS, '--', root], stop.signal);
    const small = listing(rg, [...LIST_ARGS, `--max-filesize=${limits.maxFileBytes}`, '--', root], stop.signal);
    let next = 0;
    /** The next `n` files under the cap that the glob and the caller's grants let through, in the walk's order. */
    const take = async (n: number): Promise<string[]> => {
      const out: string[] = [];
      while (out.length < n) {
        if (next >= small.items.length && !(await small.waitFor(next + 1))) break;
        const f = small.items[next++]!;
        const rel = relative(root, f).split(sep).join('/');
        if (inGlob && rel && !inGlob(rel)) continue;
        // The gate checked the starting folder; rg reads only files the same grants let the caller read.
        if (ctx.mayRead && !ctx.mayRead(f)) continue;
        out.push(f);
      }
      return out;
    };
    // 2. The search, a batch of files per rg process, results in the listing's order.
    const matches: { file: string; line: number; text: string }[] = [];
    let filesSearched = 0;
    let skippedBinary = 0;
    let truncated = false;
    let batchFiles = opts.batchFiles ?? BATCH_FIRST;
    const searchArgs = [
      '--json',
      '--no-config',
      '--crlf',
      `--max-count=${limits.max + 1}`,
      ...(a.ignore_case ? ['--ignore-case'] : []),
      '-e',
      a.pattern,
      '--',
    ];
    let stoppedAt: string | undefined;
    let last: string | undefined;
    for (; !truncated; batchFiles = Math.min(batchFiles * 2, BATCH_MAX)) {
      const batch = await take(batchFiles);
      if (batch.length === 0) break;
      if (now() - started > timeoutMs || stop.signal.aborted) {
        stoppedAt = batch[0];
        break;
      }
      const found = new Map<string, { line: number; text: string }[]>();
      const binary = new Set<string>();
      // Every file given is searched (rg's own count leaves out files without a match); binary ones are taken off below.
      let searches = batch.length;
      await runRg(
        rg,
        [...searchArgs, ...batch],
        (l) => {
          const m = JSON.parse(l) as {
            type: string;
            data: {
              path?: RgText;
              lines?: RgText;
              line_number?: number;
              binary_offset?: number | null;
            };
          };
          if (m.type === 'match') {
            const p = textOf(m.data.path);
            const list = found.get(p) ?? [];
            const line = textOf(m.data.lines).replace(/\r?\n$/, '');
            list.push({
              line: m.data.line_number ?? 0,
              text: line.length > limits.lineMaxChars ? `${line.slice(0, limits.lineMaxChars)}…` : line,
            });
            found.set(p, list);
          } else if (m.type === 'end' && m.data.binary_offset != null) binary.add(textOf(m.data.path));
        },
        stop.signal,
      );
      if (stop.signal.aborted) {
        stoppedAt = batch[0];
        break;
      }
      let binaries = 0;
      for (let j = 0; j < batch.length && !truncated; j++) {
        const f = batch[j]!;
        const hits = found.get(f);
        if (!hits) continue;
        // A file that matched is checked as the JavaScript engine checks every file (rg stops only at a NUL byte).
        if (binary.has(f) || looksBinary(head(f))) {
          binaries++;
          continue;
        }
        for (const h of hits) {
          if (matches.length >= limits.max) {
            truncated = true;
            // As the JavaScript engine counts: the files up to this one.
            searches = j + 1;
            last = f;
            break;
          }
          matches.push({ file: displayPath(ctx.workspace, f), ...h });
        }
      }
      skippedBinary += binaries;
      filesSearched += searches - binaries;
    }
    if (stoppedAt !== undefined || expired || outer?.aborted) {
      if (outer?.aborted) return toolError('tool.failed', 'grep was stopped before it finished');
      const where = stoppedAt !== undefined ? ` before it stopped at ${displayPath(ctx.workspace, stoppedAt)}` : '';
      return toolError(
        'tool.timeout',
        `timed out: the search took over ${timeoutMs} ms; it searched ${filesSearched} file${filesSearched === 1 ? '' : 's'} and found ${matches.length} match${matches.length === 1 ? '' : 'es'}${where}; narrow path or glob`,
        { matches, filesSearched, engine: 'ripgrep' },
      );
    }
    // The counts, as the JavaScript walk makes them: over the files up to where the search stopped.
    const under = new Set(small.items);
    let skippedLarge = 0;
    let skippedDenied = 0;
    for (let k = 0; ; k++) {
      if (k >= all.items.length && !(await all.waitFor(k + 1))) break;
      const f = all.items[k]!;
      if (f === last) break;
      const rel = relative(root, f).split(sep).join('/');
      if (inGlob && rel && !inGlob(rel)) continue;
      if (ctx.mayRead && !ctx.mayRead(f)) skippedDenied++;
      else if (!under.has(f)) skippedLarge++;
    }
    stop.abort(); // the rest of the walks is not needed
    await Promise.all([all.done, small.done]); // a listing that failed: rg cannot answer (the caller falls back)
    return ok({
      matches,
      truncated,
      filesSearched,
      skippedBinary,
      skippedLarge,
      ...(skippedDenied ? { skippedNotPermitted: skippedDenied } : {}),
      engine: 'ripgrep',
    });
  } catch (e) {
    if (e instanceof RgFailed) return undefined;
    throw e;
  } finally {
    stop.abort(); // no rg of this call outlives it
    clearTimeout(timer);
    outer?.removeEventListener('abort', onOuter);
  }
}
