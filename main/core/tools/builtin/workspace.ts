// Path handling shared by the file tools: arguments are relative to the workspace (absolute paths are taken
// as given and left to the gate, which checks real paths), plus text/binary detection and byte caps.
import { isAbsolute, join, normalize, relative, sep } from 'node:path';
import { isInside, realPathOf, realRoot } from '../../base/index.js';
import { PathChangedError } from '../safe-fs.js';
import type { ToolContext } from '../types.js';

/**
 * The real path a file tool may open: `file` resolved now, which must be one the gate checked for this call
 * (ctx.decision.paths) — a symlink swapped in after the check leads elsewhere and is refused. Without a decision
 * (a handler called directly) the path must stay inside the workspace.
 */
export function checkedRealPath(ctx: ToolContext, file: string, kind: 'read' | 'write'): string {
  const now = realPathOf(file, ctx.workspace).real;
  const approved = ctx.decision?.paths?.[kind];
  if (approved && approved.length) {
    if (!approved.includes(now))
      throw new PathChangedError(file, `it was checked as ${approved.join(', ')} and now leads to ${now}`);
  } else if (!isInside(now, realRoot(ctx.workspace))) {
    throw new PathChangedError(file, `it leads to ${now}, outside the workspace`);
  }
  return now;
}

/** The absolute path a tool argument names. Relative paths are resolved against the workspace. */
export function resolveArg(workspace: string, p: string | undefined): string {
  const given = p === undefined || p === '' ? '.' : p;
  return normalize(isAbsolute(given) ? given : join(workspace, given));
}

/** A path as the model should see it: relative to the workspace when inside it, absolute otherwise. */
export function displayPath(workspace: string, abs: string): string {
  const rel = relative(workspace, abs);
  if (rel === '') return '.';
  return rel.startsWith('..') || isAbsolute(rel) ? abs : rel.split(sep).join('/');
}

/** True when the bytes look binary: a NUL byte, or many bytes that are neither text nor UTF-8. */
export function looksBinary(buf: Uint8Array): boolean {
  const n = Math.min(buf.length, 8192);
  let odd = 0;
  for (let i = 0; i < n; i++) {
    const b = buf[i]!;
    if (b === 0) return true;
    if (b < 7 || (b > 13 && b < 32 && b !== 27)) odd++;
  }
  if (n > 0 && odd / n > 0.1) return true;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(buf.subarray(0, trimToCharBoundary(buf, n)));
    return false;
  } catch {
    return true;
  }
}

/** Cut index so a UTF-8 sequence is not split at the end of a sample. */
function trimToCharBoundary(buf: Uint8Array, n: number): number {
  if (n >= buf.length) return buf.length;
  let i = n;
  while (i > 0 && n - i < 4 && (buf[i]! & 0xc0) === 0x80) i--;
  return i;
}

/** Keep at most `max` bytes of a UTF-8 string, cut at a character boundary. */
export function capText(text: string, max: number): { text: string; truncated: boolean } {
  const buf = Buffer.from(text, 'utf8');
  if (buf.length <= max) return { text, truncated: false };
  return { text: buf.subarray(0, trimToCharBoundary(buf, max)).toString('utf8'), truncated: true };
}
