// write_file: create or overwrite a text file in the workspace (parent folders created), written atomically
// through a temp file + rename in the checked folder, so a failed write never leaves half a file (tools/safe-fs.ts).
import { errorFromThrown, ok, toolError } from '../errors.js';
import { z } from 'zod';
import { defineTool } from '../define.js';
import { checkedRealPath, displayPath, resolveArg } from './workspace.js';
import { writeReal, type WriteOptions } from '../safe-fs.js';
import { TOOL, TOOLS } from '../../policy/index.js';

export const WRITE_MAX_BYTES = 5 * 1024 * 1024;

/** Write `content` to the real path `file` atomically (temp file + rename in the verified folder); an existing file keeps its mode. */
export async function atomicWrite(
  file: string,
  content: string,
  opts: WriteOptions = {},
): Promise<{ created: boolean }> {
  return writeReal(file, content, opts);
}

export const writeFileTool = defineTool({
  name: TOOL.write_file,
  summary: 'Create or overwrite a text file in the workspace.',
  description:
    'Write the full content of a text file, creating parent folders as needed. Overwrites an existing file; ' +
    'to change part of a file prefer edit_file. Paths are relative to the workspace.',
  input: z.strictObject({
    path: z.string().min(1).describe('File path, relative to the workspace'),
    content: z.string().describe('The complete new content'),
  }),
  deferLoading: false,
  risk: TOOLS.write_file.access,
  access: (a, ctx) => ({ write: [resolveArg(ctx.workspace, a.path)] }),
  async handler(a, ctx) {
    const file = resolveArg(ctx.workspace, a.path);
    const shown = displayPath(ctx.workspace, file);
    const bytes = Buffer.byteLength(a.content, 'utf8');
    if (bytes > WRITE_MAX_BYTES)
      return toolError('tool.too_large', `content is ${bytes} bytes (limit ${WRITE_MAX_BYTES})`);
    try {
      // Opened once, by the real path the gate checked: a symlink swapped in meanwhile or a hard link is refused.
      const real = checkedRealPath(ctx, file, 'write');
      const { created } = await atomicWrite(real, a.content, {
        mkdirs: true,
        allowHardLinks: ctx.actor.kind === 'user',
      });
      return ok({ path: shown, bytes, created });
    } catch (e) {
      return errorFromThrown(e, shown);
    }
  },
});
