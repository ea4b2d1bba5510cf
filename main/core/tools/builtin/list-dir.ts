// list_dir: the entries of one workspace folder with their kind and size, folders first, capped.
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { errorFromThrown, ok } from '../errors.js';
import { z } from 'zod';
import { defineTool } from '../define.js';
import { displayPath, resolveArg } from './workspace.js';
import { TOOL, TOOLS } from '../../policy/index.js';

const LIST_MAX_ENTRIES = 1000;

export const listDirTool = defineTool({
  name: TOOL.list_dir,
  summary: 'List the files and folders in a workspace folder.',
  description: `List one folder (default: the workspace root): name, kind (file, dir, symlink) and size. At most ${LIST_MAX_ENTRIES} entries.`,
  input: z.strictObject({
    path: z.string().optional().describe('Folder, relative to the workspace (default ".")'),
  }),
  deferLoading: false,
  risk: TOOLS.list_dir.access,
  access: (a, ctx) => ({ read: [resolveArg(ctx.workspace, a.path)] }),
  async handler(a, ctx) {
    const dir = resolveArg(ctx.workspace, a.path);
    const shown = displayPath(ctx.workspace, dir);
    try {
      // The gate checked the folder; each entry shown must be readable under the same grants too.
      const entries = (await readdir(dir, { withFileTypes: true })).filter(
        (e) => !ctx.mayRead || ctx.mayRead(join(dir, e.name)),
      );
      const rows = await Promise.all(
        entries.slice(0, LIST_MAX_ENTRIES).map(async (e) => {
          const kind = e.isDirectory() ? 'dir' : e.isSymbolicLink() ? 'symlink' : 'file';
          const size =
            kind === 'file'
              ? await stat(join(dir, e.name)).then(
                  (s) => s.size,
                  () => undefined,
                )
              : undefined;
          return size === undefined ? { name: e.name, kind } : { name: e.name, kind, size };
        }),
      );
      rows.sort((x, y) => (x.kind === 'dir' ? 0 : 1) - (y.kind === 'dir' ? 0 : 1) || x.name.localeCompare(y.name));
      return ok({ path: shown, entries: rows, truncated: entries.length > LIST_MAX_ENTRIES, total: entries.length });
    } catch (e) {
      return errorFromThrown(e, shown);
    }
  },
});
