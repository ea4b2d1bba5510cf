// edit_file: exact string replacement in a text file. The old text must occur exactly once (or replace_all
// must be set); no match or several matches come back as structured errors with where they are.
import { errorFromThrown, ok, toolError } from '../errors.js';
import { z } from 'zod';
import { defineTool } from '../define.js';
import { checkedRealPath, displayPath, looksBinary, resolveArg } from './workspace.js';
import { HardLinkError, openReal, readAll } from '../safe-fs.js';
import { atomicWrite, WRITE_MAX_BYTES } from './write-file.js';
import { TOOL, TOOLS } from '../../policy/index.js';

function occurrences(text: string, needle: string): number[] {
  const at: number[] = [];
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) at.push(i);
  return at;
}

function lineOf(text: string, index: number): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

export const editFileTool = defineTool({
  name: TOOL.edit_file,
  summary: 'Replace an exact piece of text in a file (must be unique unless replace_all).',
  description:
    'Replace old_string with new_string in a text file. old_string must match the file exactly (whitespace ' +
    'included) and occur exactly once; include more surrounding lines to make it unique, or set replace_all ' +
    'to change every occurrence.',
  input: z.strictObject({
    path: z.string().min(1).describe('File path, relative to the workspace'),
    old_string: z.string().min(1).describe('Exact text to replace'),
    new_string: z.string().describe('Replacement text'),
    replace_all: z.boolean().optional().describe('Replace every occurrence (default false)'),
  }),
  deferLoading: false,
  risk: TOOLS.edit_file.access,
  access: (a, ctx) => {
    const p = resolveArg(ctx.workspace, a.path);
    return { read: [p], write: [p] };
  },
  async handler(a, ctx) {
    const file = resolveArg(ctx.workspace, a.path);
    const shown = displayPath(ctx.workspace, file);
    if (a.old_string === a.new_string) return toolError('tool.invalid_args', 'new_string: must differ from old_string');
    try {
      const real = checkedRealPath(ctx, file, 'write');
      const f = openReal(checkedRealPath(ctx, file, 'read'));
      let buf: Buffer;
      try {
        const st = f.stat;
        if (!st.isFile())
          return toolError(
            'tool.failed',
            `${shown} is not a regular file (a folder, pipe, socket or device); edit_file changes text files`,
          );
        if (st.size > WRITE_MAX_BYTES)
          return toolError('tool.too_large', `${shown} is ${st.size} bytes (limit ${WRITE_MAX_BYTES})`);
        if (st.nlink > 1 && ctx.actor.kind !== 'user') throw new HardLinkError(shown, st.nlink);
        buf = readAll(f, WRITE_MAX_BYTES);
      } finally {
        f.close();
      }
      if (looksBinary(buf)) return toolError('tool.binary', `${shown} is a binary file; edit_file only changes text`);
      const text = buf.toString('utf8');
      // read_file shows CRLF files with plain newlines; match and write them back in the file's own line endings.
      const crlf = text.includes('\r\n') && !a.old_string.includes('\r\n');
      const oldS = crlf ? a.old_string.replace(/\n/g, '\r\n') : a.old_string;
      const newS = crlf ? a.new_string.replace(/\r?\n/g, '\r\n') : a.new_string;
      const at = occurrences(text, oldS);
      if (at.length === 0) {
        return toolError(
          'tool.no_match',
          `old_string was not found in ${shown} (it must match exactly, whitespace included)`,
        );
      }
      if (at.length > 1 && !a.replace_all) {
        const lines = at.slice(0, 10).map((i) => lineOf(text, i));
        return toolError(
          'tool.ambiguous',
          `old_string occurs ${at.length} times in ${shown} (lines ${lines.join(', ')}); add surrounding text to make it unique or set replace_all`,
          {
            count: at.length,
            lines,
          },
        );
      }
      const next = a.replace_all
        ? text.split(oldS).join(newS)
        : text.slice(0, at[0]) + newS + text.slice(at[0]! + oldS.length);
      await atomicWrite(real, next, { allowHardLinks: ctx.actor.kind === 'user' });
      return ok({ path: shown, replacements: a.replace_all ? at.length : 1, firstLine: lineOf(text, at[0]!) });
    } catch (e) {
      return errorFromThrown(e, shown);
    }
  },
});
