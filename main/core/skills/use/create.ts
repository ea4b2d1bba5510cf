// create_skill: writes a new skill folder into the user tier (`agent_created: true`), validating the name and
// the resulting SKILL.md first, never overwriting an existing skill, and writing atomically (temp folder + rename).
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { yamlLib } from '../format/index.js';
import { DESCRIPTION_MAX, nameProblems, parseSkillText } from '../format/index.js';
import type { Diagnostic } from '../../base/index.js';

export interface CreateSkillInput {
  name: string;
  description: string;
  /** Markdown instructions (the body). */
  body: string;
  readWhen?: string[];
  dependsOn?: string[];
  /** Extra files, relative to the skill folder, under references/, assets/ or scripts/ only. */
  files?: Record<string, string>;
}

export type CreateSkillResult =
  | { ok: true; dir: string; file: string; diagnostics: Diagnostic[] }
  | {
      ok: false;
      error: { code: 'create.invalid' | 'create.exists' | 'create.io'; message: string; details?: unknown };
    };

const MAX_CREATED_BODY_BYTES = 100 * 1024;

/** Strict name check for new skills: lowercase letters, digits and single hyphens, 1–64 characters. */
export function createNameProblems(name: string): string[] {
  const out = nameProblems(name).map((p) => p.message);
  if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(name) && out.length === 0) {
    out.push(`Skill name '${name}' must use only a-z, 0-9 and single hyphens (e.g. "release-notes")`);
  }
  if (name === '') out.push('Skill name is empty');
  return out;
}

/** The SKILL.md text for a new agent-created skill. */
export function renderSkillMd(input: CreateSkillInput): string {
  const fm: Record<string, unknown> = { name: input.name, description: input.description.trim() };
  if (input.readWhen?.length) fm.read_when = input.readWhen;
  if (input.dependsOn?.length) fm.depends_on = input.dependsOn;
  fm.agent_created = true;
  return `---\n${yamlLib().stringify(fm, { lineWidth: 0 })}---\n\n${input.body.trim()}\n`;
}

/** Create `<userSkillsDir>/<name>/SKILL.md` (+ files). Refuses invalid names and existing folders. */
export function createSkill(userSkillsDir: string, input: CreateSkillInput): CreateSkillResult {
  const invalid = (message: string, details?: unknown): CreateSkillResult => ({
    ok: false,
    error: { code: 'create.invalid', message, ...(details ? { details } : {}) },
  });
  const nameErr = createNameProblems(input.name);
  if (nameErr.length) return invalid(`invalid skill name: ${nameErr.join('; ')}`);
  const description = input.description?.trim() ?? '';
  if (!description)
    return invalid('description is required: one or two sentences saying what the skill does and when to use it');
  // Characters (code points), as the manifest parser counts them: an emoji is one, not two.
  const chars = [...description].length;
  if (chars > DESCRIPTION_MAX) return invalid(`description is ${chars} characters; the limit is ${DESCRIPTION_MAX}`);
  if (!input.body?.trim()) return invalid('body is required: the instructions the agent follows when the skill loads');
  if (Buffer.byteLength(input.body) > MAX_CREATED_BODY_BYTES)
    return invalid(`body is over ${MAX_CREATED_BODY_BYTES} bytes; move long material into references/ files`);
  for (const rel of Object.keys(input.files ?? {})) {
    const parts = rel.replace(/\\/g, '/').split('/');
    if (
      !['references', 'assets', 'scripts'].includes(parts[0] ?? '') ||
      parts.length < 2 ||
      parts.some((p) => p === '..' || p === '' || p === '.')
    ) {
      return invalid(`file "${rel}": extra files go under references/, assets/ or scripts/ with a plain relative path`);
    }
  }

  const text = renderSkillMd({ ...input, description });
  const dir = join(userSkillsDir, input.name);
  const file = join(dir, 'SKILL.md');
  const parsed = parseSkillText(text, file);
  const errors = parsed.diagnostics.filter((d) => d.severity === 'error');
  if (!parsed.manifest || errors.length)
    return invalid(`the generated SKILL.md would not index: ${errors.map((d) => d.message).join('; ')}`, errors);
  if (existsSync(dir)) {
    return {
      ok: false,
      error: {
        code: 'create.exists',
        message: `a skill folder already exists at ${dir}; pick another name or edit that skill instead`,
      },
    };
  }

  const tmp = join(userSkillsDir, `.tmp-${input.name}-${process.pid}-${Date.now()}`);
  try {
    mkdirSync(tmp, { recursive: true });
    writeFileSync(join(tmp, 'SKILL.md'), text, { flag: 'wx' });
    for (const [rel, content] of Object.entries(input.files ?? {})) {
      const p = join(tmp, ...rel.replace(/\\/g, '/').split('/'));
      mkdirSync(join(p, '..'), { recursive: true });
      writeFileSync(p, content, { flag: 'wx' });
    }
    if (existsSync(dir)) throw Object.assign(new Error('exists'), { code: 'EEXIST' });
    renameSync(tmp, dir);
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' || code === 'ENOTEMPTY') {
      return {
        ok: false,
        error: {
          code: 'create.exists',
          message: `a skill folder already exists at ${dir}; pick another name or edit that skill instead`,
        },
      };
    }
    return { ok: false, error: { code: 'create.io', message: `cannot write ${dir}: ${(e as Error).message}` } };
  }
  return { ok: true, dir, file, diagnostics: parsed.diagnostics };
}

/**
 * A SKILL.md the user edited, marked `agent_created: true` whatever the editor left there (the mark is how an
 * agent-made skill is told apart). A frontmatter that does not parse is left as it is: the audit reports it.
 */
export function withAgentCreated(text: string): string {
  const m = /^---\r?\n([\s\S]*?)\r?\n---(\r?\n|$)/.exec(text);
  if (!m) return text;
  const doc = yamlLib().parseDocument(m[1]!);
  if (doc.errors.length || !yamlLib().isMap(doc.contents)) return text;
  if (doc.get('agent_created') === true) return text;
  doc.set('agent_created', true);
  return `---\n${doc.toString({ lineWidth: 0 })}---${m[2]}${text.slice(m[0].length)}`;
}
