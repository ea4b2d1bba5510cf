// read_file: read a text file in the workspace, whole or a line range, with a size cap and binary detection.
// Large files must be read by range; binary files are refused with a structured error, never returned as mojibake.
import { createReadStream, readSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { errorFromThrown, ok, toolError } from '../errors.js';
import { z } from 'zod';
import { defineTool } from '../define.js';
import { capText, checkedRealPath, displayPath, looksBinary, resolveArg } from './workspace.js';
import { openReal, type OpenedFile } from '../safe-fs.js';
import { TOOL, TOOLS } from '../../policy/index.js';

/** Whole-file reads above this size must give offset/limit. */
export const READ_MAX_BYTES = 256 * 1024;
/** Text returned by one call, at most. */
const READ_MAX_RETURN = 256 * 1024;
/** Files above this size are refused even by range (reading one means scanning it to count lines). */
const READ_MAX_RANGED_BYTES = 256 * 1024 * 1024;
/** Lines returned by one ranged call, at most. */
const READ_MAX_LINES = 2000;

function head(f: OpenedFile, bytes: number): Buffer {
  const buf = Buffer.alloc(bytes);
  const n = readSync(f.fd, buf, 0, bytes, 0);
  return buf.subarray(0, n);
}

async function readRange(f: OpenedFile, from: number, count: number): Promise<{ lines: string[]; total: number }> {
  const rl = createInterface({
    input: createReadStream('', { fd: f.fd, start: 0, autoClose: false, encoding: 'utf8' }),
    crlfDelay: Infinity,
  });
  const lines: string[] = [];
  let n = 0;
  for await (const line of rl) {
    n++;
    if (n >= from && lines.length < count) lines.push(line);
  }
  return { lines, total: n };
}

export const readFileTool = defineTool({
  name: TOOL.read_file,
  summary: 'Read a text file in the workspace, whole or by line range.',
  description:
    'Read a UTF-8 text file. Paths are relative to the workspace. Give offset (first line, 1-based) and limit ' +
    `(number of lines, at most ${READ_MAX_LINES}) to read part of a file; files over ${READ_MAX_BYTES / 1024} KB must be read by range. ` +
    'Binary files are refused.',
  input: z.strictObject({
    path: z.string().min(1).describe('File path, relative to the workspace'),
    offset: z.int().min(1).optional().describe('First line to read (1-based)'),
    limit: z.int().min(1).max(READ_MAX_LINES).optional().describe('Number of lines to read'),
  }),
  deferLoading: false,
  risk: TOOLS.read_file.access,
  access: (a, ctx) => ({ read: [resolveArg(ctx.workspace, a.path)] }),
  async handler(a, ctx) {
    const file = resolveArg(ctx.workspace, a.path);
    const shown = displayPath(ctx.workspace, file);
    let f: OpenedFile | undefined;
    try {
      // Opened once, by the real path the gate checked (a symlink swapped in meanwhile is refused).
      f = openReal(checkedRealPath(ctx, file, 'read'));
      const st = f.stat;
      if (st.isDirectory()) return toolError('tool.failed', `${shown} is a folder; use list_dir`);
      // A FIFO, socket or device would block the read (and a file-system thread) forever.
      if (!st.isFile())
        return toolError('tool.failed', `${shown} is not a regular file (a pipe, socket or device); it is not read`);
      if (looksBinary(head(f, 8192))) {
        return toolError('tool.binary', `${shown} is a binary file (${st.size} bytes); read_file only returns text`);
      }
      const ranged = a.offset !== undefined || a.limit !== undefined;
      if (!ranged && st.size > READ_MAX_BYTES) {
        return toolError(
          'tool.too_large',
          `${shown} is ${st.size} bytes (limit ${READ_MAX_BYTES}); read it in parts with offset and limit`,
          {
            size: st.size,
            limit: READ_MAX_BYTES,
          },
        );
      }
      if (st.size > READ_MAX_RANGED_BYTES) {
        return toolError(
          'tool.too_large',
          `${shown} is ${st.size} bytes; files over ${READ_MAX_RANGED_BYTES} bytes are not read (use grep or bash to look into it)`,
        );
      }
      const from = a.offset ?? 1;
      const count = a.limit ?? READ_MAX_LINES;
      const { lines, total } = await readRange(f, from, ranged ? count : Number.MAX_SAFE_INTEGER);
      const capped = capText(lines.join('\n'), READ_MAX_RETURN);
      const endLine = lines.length ? from + lines.length - 1 : from - 1;
      return ok({
        path: shown,
        content: capped.text,
        startLine: from,
        endLine,
        totalLines: total,
        truncated: capped.truncated || endLine < total,
        // A file with several hard links may be the same file as one outside the workspace: say so.
        ...(st.nlink > 1
          ? { warning: `${shown} has ${st.nlink} hard links: it may be the same file as one outside the workspace` }
          : {}),
      });
    } catch (e) {
      return errorFromThrown(e, shown);
    } finally {
      f?.close();
    }
  },
});
