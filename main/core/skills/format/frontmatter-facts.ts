// What the trust audit reads from a SKILL.md's frontmatter, taken once with the manifest (format/manifest.ts) and kept
// with it: the audit uses these instead of parsing the YAML again, as long as the frontmatter text is the same.
import { sha256Hex } from '../../base/index.js';

export interface FrontmatterFacts {
  /** sha256 of the frontmatter text (between the `---` fences) these facts were read from. */
  sha256: string;
  /** `name` and `title` as written, when they are strings. */
  name?: string;
  title?: string;
  /**
   * The first string of `description` and `summary`, with its file line: the audit reads it as text that goes into
   * every prompt. `text` is left out when it is the manifest's description as it is (the common case).
   */
  description?: { line: number; text?: string };
  /** Lines of the fields audit findings point at. */
  lines: { network?: number; tools?: number; allowedTools?: number; hooks?: number };
  /** The frontmatter declares `hooks` (other agents run them as shell commands). */
  hooks: boolean;
}

/**
 * The facts of one parsed frontmatter mapping. `lineOf` gives the file line of a field path; `manifestDescription`
 * is the description the manifest keeps (the raw text is stored only when it differs).
 */
export function frontmatterFacts(
  frontmatter: string,
  data: Record<string, unknown>,
  lineOf: (path: (string | number)[]) => number | undefined,
  manifestDescription?: string,
): FrontmatterFacts {
  const facts: FrontmatterFacts = { sha256: sha256Hex(frontmatter), lines: {}, hooks: 'hooks' in data };
  if (typeof data.name === 'string') facts.name = data.name;
  if (typeof data.title === 'string') facts.title = data.title;
  for (const key of ['description', 'summary']) {
    const v = data[key];
    if (typeof v === 'string') {
      facts.description = { line: lineOf([key]) ?? 2, ...(v === manifestDescription ? {} : { text: v }) };
      break;
    }
  }
  const at = (path: (string | number)[], key: keyof FrontmatterFacts['lines']): void => {
    const l = lineOf(path);
    if (l !== undefined) facts.lines[key] = l;
  };
  at(['permissions', 'network'], 'network');
  at(['permissions', 'tools'], 'tools');
  at(['allowed-tools'], 'allowedTools');
  at(['hooks'], 'hooks');
  return facts;
}
