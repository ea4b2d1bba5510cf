// Diagnostics: one finding about one file (settings, SKILL.md, mcp.json, a tool's schema), the shape every layer reports in.
// Printed one per line as `file:line: field: message`, the same way by every command and view.

export type Severity = 'error' | 'warning' | 'info';

/** One finding about one file. Printed as `file:line: field: message`. */
export interface Diagnostic {
  severity: Severity;
  /** Stable machine code, e.g. `frontmatter.missing`, `name.mismatch`. */
  code: string;
  file: string;
  line?: number;
  field?: string;
  message: string;
}

/** True when diagnostics hold an error. */
export function hasErrors(diags: Diagnostic[]): boolean {
  return diags.some((d) => d.severity === 'error');
}

/** `file:line: field: message` — the one-line form people read. */
export function formatDiagnostic(d: Diagnostic): string {
  return `${d.file}${d.line !== undefined ? `:${d.line}` : ''}: ${d.severity === 'error' ? '' : `${d.severity}: `}${d.field ? `${d.field}: ` : ''}${d.message}`;
}
