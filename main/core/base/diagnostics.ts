// Diagnostics: one finding about one file (settings, SKILL.md, mcp.json, a tool's schema), the shape every layer reports in.
// Printed one per line as `file:line: field: message`, the same way by every command and view.

import type { Said } from '../../../preload/words.js';

export type Severity = 'error' | 'warning' | 'info';

/** One finding about one file. Printed as `file:line: field: message`. */
export interface Diagnostic {
  severity: Severity;
  /** Stable machine code, e.g. `frontmatter.missing`, `name.mismatch`. */
  code: string;
  file: string;
  line?: number;
  /** Column (1-based) on that line, when the problem is at one place in the text (a JSON syntax error). */
  column?: number;
  field?: string;
  message: string;
  /** `message` as words (preload/words.ts) the window says in its language; the English stays for the CLI. */
  words?: Said;
}

/** True when diagnostics hold an error. */
export function hasErrors(diags: Diagnostic[]): boolean {
  return diags.some((d) => d.severity === 'error');
}

/** `file:line[:column]: field: message` — the one-line form people read. */
export function formatDiagnostic(d: Diagnostic): string {
  return `${d.file}${d.line !== undefined ? `:${d.line}${d.column !== undefined ? `:${d.column}` : ''}` : ''}: ${d.severity === 'error' ? '' : `${d.severity}: `}${d.field ? `${d.field}: ` : ''}${d.message}`;
}
