// glob: find workspace files by glob pattern (picomatch), respecting .gitignore, capped and sorted by path.
import { errorFromThrown, ok, toolError } from '../errors.js';
import { globMatcher, GlobTooSlowError } from '../../base/index.js';
import { z } from 'zod';
import { defineTool } from '../define.js';
import { walkFiles } from './walk.js';
import { displayPath, resolveArg } from './workspace.js';
import { TOOL, TOOLS } from '../../policy/index.js';

export const GLOB_MAX_RESULTS = 1000;

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
  async handler(a, ctx) {
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
      for await (const f of walkFiles(root, { ...(ctx.signal ? { signal: ctx.signal } : {}) })) {
        if (!isMatch(f.rel)) continue;
        // The gate checked the starting folder; each file returned must be readable under the same grants too.
        if (ctx.mayRead && !ctx.mayRead(f.path)) continue;
        if (found.length >= GLOB_MAX_RESULTS) {
          truncated = true;
          break;
        }
        found.push(displayPath(ctx.workspace, f.path));
      }
      return ok({ files: found.sort(), truncated });
    } catch (e) {
      if (e instanceof GlobTooSlowError) return toolError('tool.timeout', `pattern: ${e.message}`);
      return errorFromThrown(e, displayPath(ctx.workspace, root));
    }
  },
});
