// `skills lint`: checks a skill folder, a SKILL.md, a tier root (every skill under it) or the whole catalog,
// lenient (what Knack indexes) or strict (the Agent Skills reference validator's verdict).
import { statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { DEFAULT_SETTINGS, type Settings } from '../../config/index.js';
import type { Catalog } from './catalog.js';
import { discoverRoot } from './discover.js';
import { parseSkillFile } from '../format/index.js';
import { english, fsWords, hasErrors, say, type Said } from '../../base/index.js';
import type { Diagnostic } from '../../base/index.js';

export interface LintedSkill {
  /** The SKILL.md (or the folder when it has none). */
  file: string;
  name?: string;
  /** Lenient mode: whether Knack indexes it. Strict mode: whether the reference validator accepts it. */
  ok: boolean;
  diagnostics: Diagnostic[];
}

export interface LintReport {
  skills: LintedSkill[];
  /** Findings not tied to one skill (missing paths, discovery bounds). */
  diagnostics: Diagnostic[];
  errors: number;
  warnings: number;
}

export interface LintOptions {
  strict?: boolean;
  settings?: Settings;
}

function skillFileIn(dir: string): string | undefined {
  for (const n of ['SKILL.md', 'skill.md']) {
    try {
      // Not only regular files: a pipe named SKILL.md is linted too (the reader says it is not a regular file).
      if (!statSync(join(dir, n)).isDirectory()) return join(dir, n);
    } catch {
      // not there
    }
  }
  return undefined;
}

function lintFile(file: string, strict: boolean): LintedSkill {
  const p = parseSkillFile(file, { strict, folderName: basename(dirname(file)) });
  return {
    file,
    ...(p.manifest ? { name: p.manifest.name } : {}),
    ok: !!p.manifest && !hasErrors(p.diagnostics),
    diagnostics: p.diagnostics,
  };
}

/** A finding about a path given to the lint, in words and their English (the CLI's). */
function pathError(code: string, file: string, words: Said): Diagnostic {
  return { severity: 'error', code, file, message: english(words), words };
}

function finish(skills: LintedSkill[], diagnostics: Diagnostic[]): LintReport {
  const all = [...diagnostics, ...skills.flatMap((s) => s.diagnostics)];
  return {
    skills,
    diagnostics,
    errors: all.filter((d) => d.severity === 'error').length,
    warnings: all.filter((d) => d.severity === 'warning').length,
  };
}

/** Lint paths: a SKILL.md, a skill folder, or a folder of skill folders (searched like a tier root). */
export function lintPaths(paths: string[], opts: LintOptions = {}): LintReport {
  const strict = opts.strict === true;
  const settings = opts.settings ?? DEFAULT_SETTINGS;
  const skills: LintedSkill[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const raw of paths) {
    const p = resolve(raw);
    let st;
    try {
      st = statSync(p);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      diagnostics.push(
        pathError(
          'lint.path',
          raw,
          code === 'ENOENT' ? say('lint.path') : say('lint.pathUnreadable', { error: fsWords(e) }),
        ),
      );
      continue;
    }
    if (!st.isDirectory()) {
      if (/^skill\.md$/i.test(basename(p))) skills.push(lintFile(p, strict));
      else diagnostics.push(pathError('lint.not-dir', raw, say('lint.notDir', { path: raw })));
      continue;
    }
    const own = skillFileIn(p);
    if (own) {
      skills.push(lintFile(own, strict));
      continue;
    }
    const d = discoverRoot(
      { tier: 'project', source: 'workbuddy', dir: p },
      { maxDepth: settings.discovery.maxDepth, maxFolders: settings.discovery.maxFolders },
    );
    diagnostics.push(...d.diagnostics);
    if (d.found.length === 0) {
      diagnostics.push(pathError('file.missing', raw, say('lint.noSkill')));
      continue;
    }
    for (const f of d.found) skills.push(lintFile(f.file, strict));
  }
  return finish(skills, diagnostics);
}

/** Lint everything the catalog discovered (strict mode re-reads each file with the strict rules). */
export function lintCatalog(catalog: Catalog, opts: LintOptions = {}): LintReport {
  const strict = opts.strict === true;
  const skills: LintedSkill[] = [];
  for (const e of catalog.entries()) {
    if (strict) skills.push(lintFile(e.file, true));
    else skills.push({ file: e.file, name: e.manifest.name, ok: true, diagnostics: e.diagnostics });
  }
  for (const b of catalog.broken()) {
    skills.push(strict ? lintFile(b.file, true) : { file: b.file, ok: false, diagnostics: b.diagnostics });
  }
  skills.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return finish(skills, catalog.discoveryDiagnostics());
}
