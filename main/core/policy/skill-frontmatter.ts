// Safe frontmatter reading for the trust layer: the `yaml` package with a size cap, an alias cap and no custom tags.
// Gives the parsed mapping plus a line lookup so permission diagnostics can name `SKILL.md:4: permissions.tools[0]`.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LineCounter, parseDocument, isNode } from 'yaml';

/** Frontmatter larger than this is refused (a manifest has no business being bigger). */
export const MAX_FRONTMATTER_BYTES = 64 * 1024;
/** Billion-laughs guard: at most this many alias expansions. */
export const MAX_ALIASES = 50;

export interface Frontmatter {
  /** The mapping, or undefined when it could not be read. */
  data?: Record<string, unknown>;
  /** Problems reading it (one line each, with line numbers when known). */
  errors: { line?: number; message: string }[];
  /** 1-based line of a field path in SKILL.md, e.g. ['permissions','paths','read',0]. */
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

export function readFrontmatterText(text: string): Frontmatter {
  const errors: Frontmatter['errors'] = [];
  const none: Frontmatter = { errors, lineOf: () => undefined };
  const src = text.replace(/^\uFEFF/, '');
  const lines = src.split(/\r?\n/);
  if (lines[0]?.trim() !== '---') {
    errors.push({ line: 1, message: 'SKILL.md must start with YAML frontmatter (---)' });
    return none;
  }
  let end = -1;
  let bytes = 0;
  for (let i = 1; i < lines.length; i++) {
    if (lines[i]?.trimEnd() === '---') { end = i; break; }
    bytes += (lines[i]?.length ?? 0) + 1;
    if (bytes > MAX_FRONTMATTER_BYTES) {
      errors.push({ line: i + 1, message: `frontmatter exceeds ${MAX_FRONTMATTER_BYTES} bytes` });
      return none;
    }
  }
  if (end < 0) {
    errors.push({ message: 'frontmatter not closed with ---' });
    return none;
  }
  const yamlText = lines.slice(1, end).join('\n');
  const lc = new LineCounter();
  const doc = parseDocument(yamlText, { lineCounter: lc, uniqueKeys: true, customTags: [], prettyErrors: false, strict: true });
  for (const e of doc.errors) errors.push({ line: (e.linePos?.[0]?.line ?? 0) + 1, message: e.message.split('\n')[0] ?? e.message });
  if (doc.errors.length) return { errors, lineOf: () => undefined };
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: MAX_ALIASES });
  } catch (e) {
    errors.push({ message: `frontmatter rejected: ${(e as Error).message}` });
    return none;
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    errors.push({ line: 2, message: 'frontmatter must be a YAML mapping' });
    return none;
  }
  const lineOf = (path: (string | number)[]): number | undefined => {
    for (let n = path.length; n > 0; n--) {
      const node = doc.getIn(path.slice(0, n), true);
      if (isNode(node) && node.range) return lc.linePos(node.range[0]).line + 1;
    }
    return undefined;
  };
  return { data: data as Record<string, unknown>, errors, lineOf };
}

export function readFrontmatterFile(file: string): Frontmatter {
  return readFrontmatterText(readFileSync(file, 'utf8'));
}
