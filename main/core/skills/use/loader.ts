// On-demand loading: a skill's body with its `depends_on` first (cycle-safe), its named resource files (confined
// to the skill's real folder, size-capped, text only), and the context projection: what went in, why, how big.
import { createHash } from 'node:crypto';
import { realpathSync, readdirSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { countTokens, readCapped, said, say, type Said } from '../../base/index.js';
import { splitFrontmatter } from '../format/index.js';
import type { CatalogEntry, Tier } from '../format/index.js';
import { nameKey } from '../../base/index.js';

export type LoadReason = 'trigger' | 'model' | 'dependency' | 'user';

/** A structured failure the model (or the CLI) reads instead of an empty string. */
export interface LoadError {
  code:
    | 'skill.not_found'
    | 'skill.disabled'
    | 'skill.unreadable'
    | 'skill.dependency_missing'
    | 'skill.dependency_cycle'
    | 'resource.invalid_path'
    | 'resource.outside_skill'
    | 'resource.not_found'
    | 'resource.not_a_file'
    | 'resource.too_large'
    | 'resource.binary'
    | 'resource.unreadable';
  message: string;
  /** `message` as words the window says in its language (the skill errors a turn shows as a notice). */
  words?: Said;
  details?: Record<string, unknown>;
}

/** A skill error from its words: the English message is the words' English. */
function skillError(code: LoadError['code'], words: Said, details?: Record<string, unknown>): LoadError {
  return { code, ...said(words), ...(details ? { details } : {}) };
}

export type Outcome<T> = { ok: true; value: T } | { ok: false; error: LoadError };

export interface LoadedSkill {
  name: string;
  tier: Tier;
  file: string;
  dir: string;
  /** sha256 (first 16 hex) of the SKILL.md bytes: which version went into the context. */
  version: string;
  body: string;
  tokens: number;
  reason: LoadReason;
  /** For dependencies: the skill that needed it. */
  requiredBy?: string;
}

export interface LoadedResource {
  skill: string;
  /** Relative to the skill folder, `/`-separated. */
  path: string;
  realPath: string;
  bytes: number;
  content: string;
  tokens: number;
  version: string;
}

/** One context-projection record: what entered the model's context, from where, why and at what cost. */
export interface ProjectionRecord {
  kind: 'skill' | 'resource';
  skill: string;
  tier: Tier;
  /** Skill version (SKILL.md hash) or resource content hash. */
  version: string;
  reason: LoadReason;
  requiredBy?: string;
  /** Resource path for resource records. */
  path?: string;
  tokens: number;
  bytes: number;
  at: string;
}

export interface LoaderOptions {
  /** Largest resource file returned (default 256 KiB). */
  maxResourceBytes?: number;
  /** Largest SKILL.md loaded (default 1 MiB). */
  maxSkillBytes?: number;
  countTokens?: (text: string) => number;
  /** Clock for records (tests). */
  now?: () => Date;
}

const RESOURCE_FOLDERS = ['references', 'assets', 'scripts'] as const;

type Lookup = (name: string) => CatalogEntry | undefined;

function hash(buf: Buffer | string): string {
  return createHash('sha256').update(buf).digest('hex').slice(0, 16);
}

/** Text check: no NUL bytes and valid UTF-8. */
function isText(buf: Buffer): boolean {
  if (buf.subarray(0, 8192).includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(buf);
    return true;
  } catch {
    return false;
  }
}

function inside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** Files a skill offers under references/, assets/ and scripts/ (relative, `/`-separated, bounded). */
export function listResources(realDir: string, limit = 50): string[] {
  const out: string[] = [];
  const walk = (dir: string, rel: string, depth: number): void => {
    if (out.length >= limit || depth > 3) return;
    let names;
    try {
      names = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const d of names.sort((a, b) => a.name.localeCompare(b.name))) {
      if (out.length >= limit) return;
      const r = rel ? `${rel}/${d.name}` : d.name;
      if (d.isDirectory()) walk(join(dir, d.name), r, depth + 1);
      else out.push(r);
    }
  };
  for (const f of RESOURCE_FOLDERS) walk(join(realDir, f), f, 0);
  return out;
}

/**
 * A skill's instructions as the model gets them: after a line naming the skill's folder, with `${CLAUDE_SKILL_DIR}`
 * and `{baseDir}` (the names skills in the wild use for it, as Claude Code fills them in) replaced by it. Scripts in
 * other languages than JavaScript run through bash, which needs the folder's path; the wall lets a command read the
 * folder of a skill that may act (contain/profile.ts). A path with control characters is written as a JSON string.
 */
export function withFolder(body: string, realDir: string): string {
  const dir = /[\u0000-\u001f\u007f]/.test(realDir) ? JSON.stringify(realDir) : realDir;
  const filled = body.replaceAll('${CLAUDE_SKILL_DIR}', dir).replaceAll('{baseDir}', dir);
  return `Base directory for this skill: ${dir}\n\n${filled}`;
}

/** Loads skills and their resources for one conversation and keeps its context projection. */
export class SkillLoader {
  private readonly records: ProjectionRecord[] = [];
  private readonly loadedVersions = new Map<string, string>();
  private readonly count: (text: string) => number;
  private readonly maxResource: number;
  private readonly maxSkill: number;
  private readonly now: () => Date;

  /** `lookup` returns the winning catalog entry for a name (enabled or not), e.g. `(n) => catalog.get(n)`. */
  constructor(
    private readonly lookup: Lookup,
    opts: LoaderOptions = {},
  ) {
    this.count = opts.countTokens ?? countTokens;
    this.maxResource = opts.maxResourceBytes ?? 256 * 1024;
    this.maxSkill = opts.maxSkillBytes ?? 1024 * 1024;
    this.now = opts.now ?? (() => new Date());
  }

  /** Every record so far, in load order. */
  projection(): ProjectionRecord[] {
    return [...this.records];
  }

  /** Take a skill out of the context (the user unloaded it): it is no longer among the loaded, active skills. */
  unload(name: string): boolean {
    return this.loadedVersions.delete(nameKey(name));
  }

  /** Names already in the context (so a dependency is not loaded twice). */
  loadedSkills(): string[] {
    return [...this.loadedVersions.keys()];
  }

  /**
   * The dependency order for a skill: its dependencies first (depth first, each once), the skill last.
   * Cycles and missing or disabled dependencies are errors naming the chain.
   */
  plan(name: string): Outcome<{ entry: CatalogEntry; requiredBy?: string }[]> {
    const order: { entry: CatalogEntry; requiredBy?: string }[] = [];
    const done = new Set<string>();
    const stack: string[] = [];
    const visit = (n: string, requiredBy?: string): LoadError | undefined => {
      const e = this.lookup(n);
      if (!e) {
        return requiredBy
          ? skillError(
              'skill.dependency_missing',
              say('loadError.dependencyMissing', { skill: requiredBy, missing: n }),
              {
                skill: requiredBy,
                missing: n,
                chain: [...stack, n],
              },
            )
          : skillError('skill.not_found', say('loadError.notFound', { name: n }));
      }
      const key = nameKey(e.manifest.name);
      if (!e.enabled) {
        const why: Said | undefined =
          e.disabledWords ?? (e.disabledReason ? say('loadError.reason', { detail: e.disabledReason }) : undefined);
        return requiredBy
          ? skillError(
              'skill.dependency_missing',
              why
                ? say('loadError.dependencyDisabledWhy', { skill: requiredBy, missing: e.manifest.name, why })
                : say('loadError.dependencyDisabled', { skill: requiredBy, missing: e.manifest.name }),
              { skill: requiredBy, missing: e.manifest.name, disabled: true },
            )
          : skillError(
              'skill.disabled',
              why
                ? say('loadError.disabledWhy', { name: e.manifest.name, why })
                : say('loadError.disabled', { name: e.manifest.name }),
            );
      }
      if (done.has(key)) return undefined;
      const at = stack.indexOf(key);
      if (at >= 0) {
        const cycle = [...stack.slice(at), key];
        return skillError('skill.dependency_cycle', say('loadError.cycle', { cycle: cycle.join(' → ') }), { cycle });
      }
      stack.push(key);
      for (const d of e.manifest.dependsOn) {
        const err = visit(d, e.manifest.name);
        if (err) return err;
      }
      stack.pop();
      done.add(key);
      order.push({ entry: e, ...(requiredBy ? { requiredBy } : {}) });
      return undefined;
    };
    const err = visit(name);
    return err ? { ok: false, error: err } : { ok: true, value: order };
  }

  private readBody(e: CatalogEntry): Outcome<{ body: string; version: string; bytes: number }> {
    let read;
    try {
      read = readCapped(e.file, this.maxSkill);
    } catch (err) {
      return {
        ok: false,
        error: skillError(
          'skill.unreadable',
          say('loadError.cannotRead', { file: e.file, error: (err as Error).message }),
        ),
      };
    }
    if (read.size > this.maxSkill) {
      return {
        ok: false,
        error: skillError(
          'skill.unreadable',
          say('loadError.tooLarge', { file: e.file, bytes: read.size, limit: this.maxSkill }),
          { bytes: read.size, limit: this.maxSkill },
        ),
      };
    }
    const split = splitFrontmatter(read.buf.toString('utf8'), e.file);
    if (!split.ok) {
      return {
        ok: false,
        error: skillError(
          'skill.unreadable',
          say('loadError.frontmatter', {
            file: e.file,
            line: split.diagnostic.line ?? 1,
            error: split.diagnostic.message,
          }),
        ),
      };
    }
    return { ok: true, value: { body: split.body.trim(), version: hash(read.buf), bytes: read.buf.length } };
  }

  /**
   * Load a skill for the context: dependencies first (those already loaded are skipped unless their file
   * changed), then the skill. Each load is recorded in the projection.
   */
  load(name: string, reason: LoadReason): Outcome<LoadedSkill[]> {
    const plan = this.plan(name);
    if (!plan.ok) return plan;
    const out: LoadedSkill[] = [];
    for (const step of plan.value) {
      const e = step.entry;
      const isTarget = step === plan.value[plan.value.length - 1];
      const body = this.readBody(e);
      if (!body.ok) return body;
      const key = nameKey(e.manifest.name);
      if (!isTarget && this.loadedVersions.get(key) === body.value.version) continue;
      const text = withFolder(body.value.body, e.realDir);
      const tokens = this.count(text);
      const r: LoadReason = isTarget ? reason : 'dependency';
      out.push({
        name: e.manifest.name,
        tier: e.tier,
        file: e.file,
        dir: e.dir,
        version: body.value.version,
        body: text,
        tokens,
        reason: r,
        ...(step.requiredBy ? { requiredBy: step.requiredBy } : {}),
      });
      this.loadedVersions.set(key, body.value.version);
      this.records.push({
        kind: 'skill',
        skill: e.manifest.name,
        tier: e.tier,
        version: body.value.version,
        reason: r,
        ...(step.requiredBy ? { requiredBy: step.requiredBy } : {}),
        tokens,
        bytes: body.value.bytes,
        at: this.now().toISOString(),
      });
    }
    return { ok: true, value: out };
  }

  /** Read `references/…`, `assets/…` or `scripts/…` of an enabled skill, confined to its real folder. */
  readResource(name: string, path: string, reason: LoadReason = 'model'): Outcome<LoadedResource> {
    const e = this.lookup(name);
    if (!e) return { ok: false, error: { code: 'skill.not_found', message: `no skill named "${name}"` } };
    if (!e.enabled)
      return {
        ok: false,
        error: { code: 'skill.disabled', message: `skill "${e.manifest.name}" is disabled in this workspace` },
      };
    const rel = path.replace(/\\/g, '/').replace(/^\.\//, '');
    const top = rel.split('/')[0] ?? '';
    const available = (): string[] => listResources(e.realDir);
    if (!rel || isAbsolute(path) || /^[a-zA-Z]:/.test(rel) || rel.includes('\0')) {
      return {
        ok: false,
        error: {
          code: 'resource.invalid_path',
          message: `"${path}": give a path relative to the skill folder, like references/guide.md`,
        },
      };
    }
    if (!(RESOURCE_FOLDERS as readonly string[]).includes(top) || rel.split('/').includes('..')) {
      return {
        ok: false,
        error: {
          code: 'resource.outside_skill',
          message: `"${path}": only files under ${RESOURCE_FOLDERS.map((f) => f + '/').join(', ')} of skill "${e.manifest.name}" can be read`,
          details: { available: available() },
        },
      };
    }
    let root: string;
    let real: string;
    try {
      root = realpathSync(e.realDir);
    } catch (err) {
      return {
        ok: false,
        error: { code: 'resource.unreadable', message: `skill folder ${e.dir}: ${(err as Error).message}` },
      };
    }
    const candidate = join(root, ...rel.split('/'));
    try {
      real = realpathSync(candidate);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') {
        return {
          ok: false,
          error: {
            code: 'resource.not_found',
            message: `skill "${e.manifest.name}" has no file "${rel}"`,
            details: { available: available() },
          },
        };
      }
      return { ok: false, error: { code: 'resource.unreadable', message: `"${rel}": ${(err as Error).message}` } };
    }
    if (!inside(root, real) || !inside(join(root, top), real)) {
      return {
        ok: false,
        error: {
          code: 'resource.outside_skill',
          message: `"${rel}" resolves to ${real}, outside ${join(root, top)}${sep} (symlink)`,
          details: { realPath: real },
        },
      };
    }
    let read;
    try {
      read = readCapped(real, this.maxResource);
    } catch (err) {
      return { ok: false, error: { code: 'resource.unreadable', message: `"${rel}": ${(err as Error).message}` } };
    }
    if (!read.isFile)
      return {
        ok: false,
        error: {
          code: 'resource.not_a_file',
          message: `"${rel}" is not a regular file (a folder, pipe or device)`,
          details: { available: available() },
        },
      };
    if (read.size > this.maxResource) {
      return {
        ok: false,
        error: {
          code: 'resource.too_large',
          message: `"${rel}" is ${read.size} bytes, over the ${this.maxResource}-byte limit`,
          details: { bytes: read.size, limit: this.maxResource },
        },
      };
    }
    if (!isText(read.buf)) {
      return {
        ok: false,
        error: {
          code: 'resource.binary',
          message: `"${rel}" is a binary file (${read.size} bytes); only text resources can be read`,
          details: { bytes: read.size },
        },
      };
    }
    const content = read.buf.toString('utf8');
    const tokens = this.count(content);
    const version = hash(read.buf);
    this.records.push({
      kind: 'resource',
      skill: e.manifest.name,
      tier: e.tier,
      version,
      reason,
      path: rel,
      tokens,
      bytes: read.size,
      at: this.now().toISOString(),
    });
    return {
      ok: true,
      value: { skill: e.manifest.name, path: rel, realPath: real, bytes: read.size, content, tokens, version },
    };
  }
}
