// write_file: create or overwrite a text file in the workspace (parent folders created), written atomically
// through a temp file + rename so a failed write never leaves half a file.
import { chmod, mkdir, rename, stat, writeFile, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { errorFromThrown, ok, toolError } from '../errors.js';
import type { ToolDefinition } from '../types.js';
import { displayPath, resolveArg } from './workspace.js';

export const WRITE_MAX_BYTES = 5 * 1024 * 1024;

interface Args {
  path: string;
  content: string;
}

/** Write `content` to `file` via a sibling temp file and rename; an existing file keeps its mode. */
export async function atomicWrite(file: string, content: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const mode = await stat(file).then((s) => s.mode & 0o7777, () => undefined);
  const tmp = `${file}.knack-${process.pid}-${Date.now()}.tmp`;
  try {
    await writeFile(tmp, content, 'utf8');
    if (mode !== undefined) await chmod(tmp, mode);
    await rename(tmp, file);
  } catch (e) {
    await unlink(tmp).catch(() => undefined);
    throw e;
  }
}

export const writeFileTool: ToolDefinition<Args> = {
  name: 'write_file',
  summary: 'Create or overwrite a text file in the workspace.',
  description:
    'Write the full content of a text file, creating parent folders as needed. Overwrites an existing file; ' +
    'to change part of a file prefer edit_file. Paths are relative to the workspace.',
  inputSchema: {
    type: 'object',
    properties: {
      path: { type: 'string', minLength: 1, description: 'File path, relative to the workspace' },
      content: { type: 'string', description: 'The complete new content' },
    },
    required: ['path', 'content'],
    additionalProperties: false,
  },
  deferLoading: false,
  risk: 'write',
  access: (a, ctx) => ({ write: [resolveArg(ctx.workspace, a.path)] }),
  async handler(a, ctx) {
    const file = resolveArg(ctx.workspace, a.path);
    const shown = displayPath(ctx.workspace, file);
    const bytes = Buffer.byteLength(a.content, 'utf8');
    if (bytes > WRITE_MAX_BYTES) return toolError('tool.too_large', `content is ${bytes} bytes (limit ${WRITE_MAX_BYTES})`);
    try {
      const existed = await stat(file).then(
        (s) => {
          if (s.isDirectory()) throw Object.assign(new Error('is a folder'), { code: 'EISDIR' });
          return true;
        },
        (e: NodeJS.ErrnoException) => {
          if (e.code === 'ENOENT') return false;
          throw e;
        },
      );
      await atomicWrite(file, a.content);
      return ok({ path: shown, bytes, created: !existed });
    } catch (e) {
      return errorFromThrown(e, shown);
    }
  },
};
