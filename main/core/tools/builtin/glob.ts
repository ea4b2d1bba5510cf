// glob: find workspace files by glob pattern (picomatch), respecting .gitignore, capped and sorted by path.
import { errorFromThrown, ok, toolError } from '../errors.js';
import { globMatcher, GlobTooSlowError } from '../../base/index.js';
import { z } from 'zod';
import { defineTool } from '../define.js';
import type { ToolContext, ToolResult } from '../types.js';
import { logWalkCap, walkCapNote, walkFiles } from './walk.js';
import { displayPath, resolveArg } from './workspace.js';
import { TOOL, TOOLS } from '../../policy/index.js';

const GLOB_MAX_RESULTS = 1000;

export const globTool = defineTool({
  name: TOOL.glob,
  summary: 'Find files by name pattern (e.g. src/**/*.ts), respecting .gitignore.',
  description:
    `Find files whose path (relative to the search folder) matches a glob pattern such as "**/*.test.ts" or "src/*.{js,ts}". ` +
    `Files ignored by .gitignore, .git and node_modules are skipped. At most ${GLOB_MAX_RESULTS} paths, sorted.`,
  input: z.strictObject({
    pattern: z.string().min(1).describe('Glob pattern, e.g. **/*.md'),
    path: z.string().optional().describe('Folder to search, relative to the workspace (default ".")'),
  }),
  deferLoading: false,
  risk: TOOLS.glob.access,
  access: (a, ctx) => ({ read: [resolveArg(ctx.workspace, a.path)] }),
  handler: (a, ctx) => globFiles(a, ctx),
});

/** The search behind glob; `maxFiles` lowers the walk's cap (tests). */
export async function globFiles(
  a: { pattern: string; path?: string | undefined },
  ctx: ToolContext,
  opts: { maxFiles?: number } = {},
): Promise<ToolResult> {
  const root = resolveArg(ctx.workspace, a.path);
  let isMatch: (p: string) => boolean;
  try {
    isMatch = globMatcher(a.pattern);
  } catch (e) {
    return toolError('tool.invalid_args', `pattern: ${(e as Error).message}`);
  }
  try {
    const found: string[] = [];
    let truncated = false;
    let capped: string | undefined;
    const walk = {
      ...(ctx.signal ? { signal: ctx.signal } : {}),
      ...(opts.maxFiles ? { maxFiles: opts.maxFiles } : {}),
      onCapped: (n: number) => (capped = logWalkCap(TOOL.glob, walkCapNote(n, displayPath(ctx.workspace, root)))),
    };
    for await (const f of walkFiles(root, walk)) {
      if (!isMatch(f.rel)) continue;
      // The gate checked the starting folder; each file returned must be readable under the same grants too.
      if (ctx.mayRead && !ctx.mayRead(f.path)) continue;
      if (found.length >= GLOB_MAX_RESULTS) {
        truncated = true;
        break;
      }
      found.push(displayPath(ctx.workspace, f.path));
    }
    return ok({ files: found.sort(), truncated, ...(capped ? { partial: capped } : {}) });
  } catch (e) {
    if (e instanceof GlobTooSlowError) return toolError('tool.timeout', `pattern: ${e.message}`);
    return errorFromThrown(e, displayPath(ctx.workspace, root));
  }
}
