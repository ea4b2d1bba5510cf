// Frontmatter for the trust layer, read through the skill engine's one safe YAML parser (size, alias and tag caps).
// Adds a line lookup for nested fields so diagnostics can say `SKILL.md:6: permissions.paths.read[0]: ...`.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseFrontmatterYaml, splitFrontmatter } from './frontmatter.js';

export interface Frontmatter {
  /** The mapping, or undefined when it could not be read. */
  data?: Record<string, unknown>;
  /** The frontmatter text it was read from (between the `---` fences), when it could be split. */
  text?: string;
  /** Problems reading it (one line each, with line numbers when known). */
  errors: { line?: number; message: string }[];
  /** 1-based line in SKILL.md of a field path, e.g. ['permissions','paths','read',0]. */
  lineOf(path: (string | number)[]): number | undefined;
}

/** The SKILL.md (or lowercase skill.md) in a folder, or undefined. */
export function skillFileIn(dir: string): string | undefined {
  for (const name of ['SKILL.md', 'skill.md']) {
    const p = join(dir, name);
    if (existsSync(p)) return p;
  }
  return undefined;
}

export function readFrontmatterText(text: string, file = 'SKILL.md'): Frontmatter {
  const none = (errors: Frontmatter['errors']): Frontmatter => ({ errors, lineOf: () => undefined });
  const split = splitFrontmatter(text, file);
  if (!split.ok)
    return none([
      { ...(split.diagnostic.line ? { line: split.diagnostic.line } : {}), message: split.diagnostic.message },
    ]);
  const parsed = parseFrontmatterYaml(split.frontmatter, file, 2);
  if (!parsed.data || parsed.diagnostics.some((d) => d.severity === 'error')) {
    return none(parsed.diagnostics.map((d) => ({ ...(d.line ? { line: d.line } : {}), message: d.message })));
  }
  return { data: parsed.data, text: split.frontmatter, errors: [], lineOf: parsed.lineOf };
}
