// Structured tool errors: the codes the model and the UI see when a call does not run or fails.
// One helper builds them so every path (unknown tool, bad args, gate, handler) reports the same shape.
import type { ToolResult } from './types.js';
import { english, type Said } from '../base/index.js';

export type ToolErrorCode =
  | 'tool.unknown'
  | 'tool.invalid_args'
  | 'tool.schema'
  | 'tool.denied'
  | 'tool.declined'
  | 'tool.failed'
  | 'tool.timeout'
  | 'tool.unavailable'
  | 'tool.not_found'
  | 'tool.too_large'
  | 'tool.binary'
  | 'tool.no_match'
  | 'tool.ambiguous'
  | 'tool.exists'
  | 'tool.network'
  /** The OS sandbox blocked a write, a read or a host the command tried (details.blocked names each). */
  | 'sandbox.blocked'
  /** The OS sandbox is needed and not available: the command did not run. */
  | 'sandbox.unavailable';

export function toolError(code: ToolErrorCode, message: string, details?: unknown): ToolResult {
  return details === undefined
    ? { ok: false, error: { code, message } }
    : { ok: false, error: { code, message, details } };
}

/** A failure worded for the window too: its message is the English of `said`. */
export function toolRefusal(code: ToolErrorCode, said: Said, details?: unknown): ToolResult {
  const r = toolError(code, english(said), details);
  return r.ok ? r : { ...r, said };
}

export function ok(content: unknown): ToolResult {
  return { ok: true, content };
}

/** Turn a thrown error from a handler into a structured result; file-system codes become readable messages. */
export function errorFromThrown(e: unknown, what: string): ToolResult {
  const err = e as NodeJS.ErrnoException;
  switch (err?.code) {
    case 'ENOENT':
      return toolError('tool.not_found', `${what}: no such file or folder`);
    case 'EISDIR':
      return toolError('tool.failed', `${what}: is a folder, not a file`);
    case 'ENOTDIR':
      return toolError('tool.failed', `${what}: a part of the path is not a folder`);
    case 'EPATHCHANGED':
    case 'EHARDLINK':
      return toolError('tool.denied', `${what}: ${err.message}`);
    case 'EACCES':
    case 'EPERM':
      return toolError('tool.failed', `${what}: permission denied by the operating system`);
    default:
      return toolError('tool.failed', `${what}: ${err?.message ?? String(e)}`);
  }
}
