// grep: regular-expression search through workspace files — .gitignore respected, binaries and huge files
// skipped, results capped — returning file, line number and the matching line. ripgrep does it where `rg` is on PATH
// and reads the pattern as JavaScript does (grep-rg.ts); this file's JavaScript engine does it otherwise.
import { readFile, stat } from 'node:fs/promises';
import vm from 'node:vm';
import { errorFromThrown, ok, toolError } from '../errors.js';
import { globMatcher, GlobTooSlowError } from '../../base/index.js';
import { z } from 'zod';
import { defineTool } from '../define.js';
import type { ToolContext, ToolResult } from '../types.js';
import { logWalkCap, walkCapNote, walkFiles, type WalkOptions } from './walk.js';
import { displayPath, looksBinary, resolveArg } from './workspace.js';
import { TOOL, TOOLS } from '../../policy/index.js';
import { findRipgrep, grepWithRipgrep, ripgrepReadsAlike, type RipgrepOptions } from './grep-rg.js';

/** Which engine searches: ripgrep when it can (`auto`), or one of them (tests, the benchmark). */
export type GrepEngine = 'auto' | 'ripgrep' | 'javascript';

const GREP_DEFAULT_RESULTS = 200;
const GREP_MAX_RESULTS = 2000;
/** Files larger than this are skipped (and counted). */
export const GREP_MAX_FILE_BYTES = 4 * 1024 * 1024;
const LINE_MAX_CHARS = 400;
/** Regex time allowed for one whole call (all files together): a pattern that backtracks ends the search, it never freezes the app. */
export const GREP_CALL_TIMEOUT_MS = 2000;

/**
 * Regex time shared by every file of one call: only the matching counts (not reading files). `now` is injectable
 * so the limit can be tested without timing.
 */
export class TimeBudget {
  private spent = 0;
  constructor(
    readonly ms: number,
    private readonly now: () => number = () => performance.now(),
  ) {}
  remaining(): number {
    return this.ms - this.spent;
  }
  /** Run `fn` with the time left as its limit, and count the time it took. */
  measure<T>(fn: (limitMs: number) => T): T {
    const t = this.now();
    try {
      return fn(this.remaining());
    } finally {
      this.spent += this.now() - t;
    }
  }
}

/** Line indexes (0-based) of `text` that `re` matches, at most `room` (+1 to tell there were more). Runs under a timeout. */
const SCAN = new vm.Script(
  'hits.length = 0; if (pre.test(text)) { const lines = text.split(/\\r?\\n/); ' +
    'for (let i = 0; i < lines.length && hits.length <= room; i++) if (re.test(lines[i])) hits.push(i); }',
);

/** A line scanner for one pattern (one vm context per search, reused for every file). Throws on timeout. */
function lineScanner(re: RegExp): (text: string, room: number, timeoutMs: number) => number[] {
  // The whole-file pre-check runs multiline, so `^`/`$` match at every line as they do line by line.
  const pre = re.multiline ? re : new RegExp(re.source, `${re.flags}m`);
  const box = vm.createContext({ re, pre, text: '', room: 0, hits: [] as number[] });
  return (text, room, timeoutMs) => {
    box.text = text;
    box.room = room;
    try {
      SCAN.runInContext(box, { timeout: Math.max(1, Math.ceil(timeoutMs)) });
    } finally {
      box.text = '';
    }
    return [...(box.hits as number[])];
  };
}

const GrepInput = z.strictObject({
  pattern: z.string().min(1).describe('Regular expression (JavaScript syntax)'),
  path: z.string().optional().describe('Folder or file to search, relative to the workspace (default ".")'),
  glob: z.string().optional().describe('Only files whose path matches this glob'),
  ignore_case: z.boolean().optional().describe('Case-insensitive match'),
  max_results: z
    .int()
    .min(1)
    .max(GREP_MAX_RESULTS)
    .optional()
    .describe(`Most matches to return (default ${GREP_DEFAULT_RESULTS})`),
});
type Args = z.input<typeof GrepInput>;

export interface GrepMatch {
  file: string;
  line: number;
  text: string;
}

export const grepTool = defineTool({
  name: TOOL.grep,
  summary: 'Search file contents with a regular expression, respecting .gitignore.',
  description:
    'Search the text of workspace files for a JavaScript regular expression. Returns file, line number and the ' +
    'line for each match. Files ignored by .gitignore, binary files, .git and node_modules are skipped. ' +
    'Narrow with path (a folder or file) and glob (e.g. "**/*.ts").',
  input: GrepInput,
  deferLoading: false,
  risk: TOOLS.grep.access,
  access: (a, ctx) => ({ read: [resolveArg(ctx.workspace, a.path)] }),
  handler: (a, ctx) => grepFiles(a, ctx),
});

/**
 * The search behind grep. Every file found is checked against the caller's grants (ctx.mayRead). With ripgrep, the
 * search has a wall-clock limit (it never backtracks); with JavaScript, the regex time limit is one budget for the
 * whole call. `engine: 'ripgrep'` without rg on PATH, or with a pattern rg refuses, still runs the JavaScript engine.
 */
export async function grepFiles(
  a: Args,
  ctx: ToolContext,
  budget = new TimeBudget(GREP_CALL_TIMEOUT_MS),
  opts: { engine?: GrepEngine; ripgrep?: RipgrepOptions; maxFiles?: number } = {},
): Promise<ToolResult> {
  {
    const root = resolveArg(ctx.workspace, a.path);
    let re: RegExp;
    try {
      re = new RegExp(a.pattern, a.ignore_case ? 'iu' : 'u');
    } catch {
      try {
        re = new RegExp(a.pattern, a.ignore_case ? 'i' : '');
      } catch (e) {
        return toolError('tool.invalid_args', `pattern: ${(e as Error).message}`);
      }
    }
    let inGlob: ((p: string) => boolean) | undefined;
    if (a.glob) {
      try {
        inGlob = globMatcher(a.glob, { matchBase: true });
      } catch (e) {
        return toolError('tool.invalid_args', `glob: ${(e as Error).message}`);
      }
    }
    const max = a.max_results ?? GREP_DEFAULT_RESULTS;
    const rg = opts.engine === 'javascript' ? undefined : findRipgrep();
    if (rg && ripgrepReadsAlike(a.pattern)) {
      try {
        const r = await grepWithRipgrep(
          rg,
          root,
          a,
          inGlob,
          ctx,
          {
            max,
            maxFileBytes: GREP_MAX_FILE_BYTES,
            lineMaxChars: LINE_MAX_CHARS,
          },
          opts.ripgrep,
        );
        if (r) return r;
      } catch (e) {
        if (e instanceof GlobTooSlowError) return toolError('tool.timeout', `glob: ${e.message}`);
        return errorFromThrown(e, displayPath(ctx.workspace, root));
      }
    }
    const scan = lineScanner(re);
    const literal = !/[\\^$.*+?()[\]{}|]/.test(a.pattern);
    const matches: GrepMatch[] = [];
    let filesSearched = 0;
    let skippedBinary = 0;
    let skippedLarge = 0;
    let skippedDenied = 0;
    let truncated = false;
    let capped: string | undefined;
    const walk: WalkOptions = {
      ...(ctx.signal ? { signal: ctx.signal } : {}),
      ...(opts.maxFiles ? { maxFiles: opts.maxFiles } : {}),
      onCapped: (n) => (capped = logWalkCap(TOOL.grep, walkCapNote(n, displayPath(ctx.workspace, root)))),
    };
    try {
      outer: for await (const f of walkFiles(root, walk)) {
        if (inGlob && f.rel && !inGlob(f.rel)) continue;
        // The gate checked the starting folder; each file found must be readable under the same grants too.
        if (ctx.mayRead && !ctx.mayRead(f.path)) {
          skippedDenied++;
          continue;
        }
        const st = await stat(f.path).catch(() => undefined);
        if (!st?.isFile()) continue;
        if (st.size > GREP_MAX_FILE_BYTES) {
          skippedLarge++;
          continue;
        }
        const buf = await readFile(f.path).catch(() => undefined);
        if (!buf) continue;
        if (looksBinary(buf)) {
          skippedBinary++;
          continue;
        }
        // A literal never backtracks: its time-out is the tree's size, never the pattern's shape.
        const tooSlow = (): ToolResult =>
          toolError(
            'tool.timeout',
            `timed out: matching took over ${budget.ms} ms for this search; it searched ${filesSearched} file${filesSearched === 1 ? '' : 's'} and found ${matches.length} match${matches.length === 1 ? '' : 'es'} before it stopped at ${displayPath(ctx.workspace, f.path)}${literal ? '' : ' (a pattern like (a+)+ backtracks without end: simplify it)'}; narrow path or glob`,
            { matches, filesSearched, engine: 'javascript' },
          );
        if (budget.remaining() <= 0) return tooSlow();
        filesSearched++;
        const text = buf.toString('utf8');
        let hits: number[];
        try {
          hits = budget.measure((limit) => scan(text, max - matches.length, limit));
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code !== 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw e;
          return tooSlow();
        }
        if (hits.length === 0) continue;
        const lines = text.split(/\r?\n/);
        for (const i of hits) {
          if (matches.length >= max) {
            truncated = true;
            break outer;
          }
          const line = lines[i]!;
          matches.push({
            file: displayPath(ctx.workspace, f.path),
            line: i + 1,
            text: line.length > LINE_MAX_CHARS ? `${line.slice(0, LINE_MAX_CHARS)}…` : line,
          });
        }
      }
      return ok({
        matches,
        truncated,
        filesSearched,
        skippedBinary,
        skippedLarge,
        ...(skippedDenied ? { skippedNotPermitted: skippedDenied } : {}),
        ...(capped ? { partial: capped } : {}),
        engine: 'javascript',
      });
    } catch (e) {
      if (e instanceof GlobTooSlowError) return toolError('tool.timeout', `glob: ${e.message}`);
      return errorFromThrown(e, displayPath(ctx.workspace, root));
    }
  }
}
