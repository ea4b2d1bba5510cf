// SKILL.md → SkillManifest: both vocabularies (WorkBuddy and Agent Skills) normalised into one shape, with
// diagnostics naming file, line and field. Lenient by default (warnings); `strict` reports the reference validator's verdict.
import { basename, dirname } from 'node:path';
import { parseSynonymGroups } from '../../search/index.js';
import { readPermissionRequest } from './permissions.js';
import { parseFrontmatterYaml, readFrontmatterHead, splitFrontmatter, type SplitResult } from './frontmatter.js';
import type { SkillManifest } from './types.js';
import { frontmatterFacts } from './frontmatter-facts.js';
import { english, fsWords, say, type Diagnostic, type Said } from '../../base/index.js';

const NAME_MAX = 64;
export const DESCRIPTION_MAX = 1024;
const COMPATIBILITY_MAX = 500;

/** The Agent Skills standard's top-level keys (the strict validator allows only these). */
const SPEC_KEYS = ['allowed-tools', 'compatibility', 'description', 'license', 'metadata', 'name'] as const;
/** WorkBuddy's own top-level keys. */
const WORKBUDDY_KEYS = ['title', 'summary', 'read_when', 'agent_created', 'permissions', 'depends_on'] as const;
/** Keys other agents (Claude Code) write; kept in `extra` without a warning. */
const TOLERATED_KEYS = [
  'argument-hint',
  'disable-model-invocation',
  'user-invocable',
  'model',
  'version',
  'context',
  'agent',
  'hooks',
] as const;
/** Knack's own optional keys that other modules read from `extra` (the matcher reads `synonyms`); checked here. */
const EXTENSION_KEYS = ['synonyms'] as const;
const KNOWN = new Set<string>([...SPEC_KEYS, ...WORKBUDDY_KEYS, ...TOLERATED_KEYS, ...EXTENSION_KEYS]);
const KEPT_IN_EXTRA = new Set<string>([...TOLERATED_KEYS, ...EXTENSION_KEYS]);

export interface ParseOptions {
  /** Folder name to compare the skill name with (default: the folder holding the file; null: do not compare). */
  folderName?: string | null;
  /** Report the Agent Skills reference validator's verdict: every deviation is an error. */
  strict?: boolean;
}

export interface ParsedSkill {
  /** Undefined when the skill cannot be used (missing name/description, bad YAML): it stays out of the catalog. */
  manifest?: SkillManifest;
  diagnostics: Diagnostic[];
  /** Bytes read from the file (the head only). */
  bytesRead?: number;
  /** File line of the `name` (or `title`) key, for findings made later (folder mismatch). */
  nameLine?: number;
}

type Sev = Diagnostic['severity'];

class Reporter {
  readonly list: Diagnostic[] = [];
  constructor(
    readonly file: string,
    readonly strict: boolean,
    readonly lines: Map<string, number>,
  ) {}
  /** `message` in words (the window says them in its language; their English is the CLI's). */
  add(severity: Sev, code: string, field: string | undefined, message: Said, line?: number): void {
    const top = field?.split(/[.[]/)[0];
    const l = line ?? (top ? this.lines.get(top) : undefined);
    this.list.push({
      severity,
      code,
      file: this.file,
      ...(l !== undefined ? { line: l } : {}),
      ...(field ? { field } : {}),
      message: english(message),
      words: message,
    });
  }
  /** Error in strict mode, warning otherwise. */
  lenient(code: string, field: string | undefined, message: Said, line?: number): void {
    this.add(this.strict ? 'error' : 'warning', code, field, message, line);
  }
}

/** Name rule violations (reference validator wording). Names are compared after NFKC normalisation. */
export function nameProblems(name: string): { code: string; message: string; words: Said }[] {
  const out: { code: string; message: string; words: Said }[] = [];
  const add = (code: string, words: Said) => out.push({ code, message: english(words), words });
  const n = name.normalize('NFKC');
  if (n !== n.toLowerCase()) add('name.case', say('diag.nameCase', { name: n }));
  if ([...n].length > NAME_MAX)
    add('name.length', say('diag.nameLength', { name: n, max: NAME_MAX, length: [...n].length }));
  if (n.startsWith('-') || n.endsWith('-')) add('name.hyphen', say('diag.nameHyphenEnds'));
  if (n.includes('--')) add('name.hyphen', say('diag.nameHyphens'));
  if (!/^[\p{L}\p{N}\p{M}-]*$/u.test(n)) add('name.chars', say('diag.nameChars', { name: n }));
  return out;
}

/** Characters that make a name unusable anywhere (paths, `/name` invocation): the skill is left out. */
function unusableName(n: string): Said | undefined {
  if (n.trim() === '') return say('diag.why.empty');
  if (/[\p{Cc}\p{Cf}]/u.test(n)) return say('diag.why.control');
  if (/[/\\]/.test(n) || n === '.' || n === '..') return say('diag.why.separator');
  if (/\s/u.test(n)) return say('diag.why.space');
  return undefined;
}

/**
 * The name a skill written with a display name (`Agent Development`) is invoked by: its folder's slug when that is a
 * usable name, else the slugified name; undefined when neither gives one. Control characters and path separators are
 * never slugged away (such a name is refused, not repaired).
 */
export function invocableName(name: string, folderName: string | undefined): string | undefined {
  if (/[\p{Cc}\p{Cf}/\\]/u.test(name)) return undefined;
  for (const candidate of [folderName ? slugify(folderName) : '', slugify(name)]) {
    if (candidate && !unusableName(candidate)) return candidate;
  }
  return undefined;
}

/** A display title → a skill name: `Git Commit` → `git-commit`. */
export function slugify(title: string): string {
  return title
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\s_]+/gu, '-')
    .replace(/[^\p{L}\p{N}\p{M}-]/gu, '')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '');
}

/** Split `allowed-tools` written as a string: commas or spaces, but not inside parentheses (`Bash(git commit:*)`). */
export function splitToolList(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of s) {
    if (ch === '(') depth++;
    if (ch === ')') depth = Math.max(0, depth - 1);
    if (depth === 0 && (ch === ',' || /\s/.test(ch))) {
      if (cur.trim()) out.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

function scalarText(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return undefined;
}

/** A string or list of strings (a `;`-separated string when `splitSemicolons`). */
function stringList(v: unknown, field: string, rep: Reporter, splitSemicolons = false): string[] {
  if (v === undefined || v === null) return [];
  if (typeof v === 'string') {
    const parts = splitSemicolons ? v.split(/[;\n]/) : [v];
    return parts.map((p) => p.trim()).filter(Boolean);
  }
  if (Array.isArray(v)) {
    const out: string[] = [];
    v.forEach((x, i) => {
      const s = scalarText(x);
      if (s === undefined) rep.add('warning', 'field.type', `${field}[${i}]`, say('diag.itemString'));
      else if (s.trim()) out.push(s.trim());
    });
    return out;
  }
  rep.add('warning', 'field.type', field, say('diag.stringList'));
  return [];
}

/**
 * A found SKILL.md as the catalog parses it, wherever that runs (this thread, a parse worker, an audit worker parsing
 * for the catalog): by its real path, its folder's name left to the catalog (folderMismatch, against the folder found).
 */
export function parseFoundSkill(file: string): ParsedSkill {
  return parseSkillFile(file, { folderName: null });
}

/** Parse a skill file's frontmatter (head only) into a manifest plus diagnostics. Never throws. */
export function parseSkillFile(file: string, opts: ParseOptions = {}): ParsedSkill {
  let head;
  try {
    head = readFrontmatterHead(file);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    const words =
      err.code === 'ENOENT'
        ? say('diag.fileMissing')
        : err.code === 'EISDIR'
          ? say('diag.fileFolder')
          : say('diag.fileUnreadable', { error: fsWords(err) });
    const code = err.code === 'ENOENT' ? 'file.missing' : 'file.unreadable';
    return { diagnostics: [{ severity: 'error', code, file, message: english(words), words }] };
  }
  return { ...manifestFromSplit(head.split, file, opts), bytesRead: head.bytesRead };
}

/** Parse SKILL.md text already in memory (lint, tests, create_skill). */
export function parseSkillText(text: string, file: string, opts: ParseOptions = {}): ParsedSkill {
  return manifestFromSplit(splitFrontmatter(text, file), file, opts);
}

/**
 * A split SKILL.md → manifest and diagnostics. Kept small: it runs for every skill of a folder, and V8 compiles a
 * function whole, so each field's rare cases (strict mode, wrong types, display names) live in the helpers below.
 */
function manifestFromSplit(split: SplitResult, file: string, opts: ParseOptions = {}): ParsedSkill {
  const strict = opts.strict === true;
  if (!split.ok) return { diagnostics: [split.diagnostic] };
  const pre = split.badUtf8Line !== undefined || (strict && split.bom) ? splitDiagnostics(split, file, strict) : [];
  const y = parseFrontmatterYaml(split.frontmatter, file, 2, strict);
  if (!y.data) return { diagnostics: [...pre, ...y.diagnostics] };
  const rep = new Reporter(file, strict, y.keyLines);
  rep.list.push(...pre, ...y.diagnostics); // a text field read as text says so (frontmatter.ts)
  const d = y.data;

  // Unknown keys: warning, kept in `extra`; strict = the reference validator's single error.
  const extra: Record<string, unknown> = {};
  const unknown: string[] = [];
  for (const [k, v] of Object.entries(d)) {
    if (!KNOWN.has(k)) {
      unknown.push(k);
      extra[k] = v;
    } else if (KEPT_IN_EXTRA.has(k)) extra[k] = v;
  }
  if (strict) strictKeys(d, y, rep);
  else for (const k of unknown) rep.add('warning', 'field.unknown', k, say('diag.unknownField', { field: k }));

  const metadata = d.metadata !== undefined && d.metadata !== null ? metadataOf(y, rep) : {};
  const { name, title } = nameAndTitle(d, metadata, y, rep, file, opts);
  const description = descriptionOf(d, y, rep);
  const license = d.license !== undefined && d.license !== null ? licenseOf(d.license, rep) : undefined;
  const compatibility =
    d.compatibility !== undefined && d.compatibility !== null ? compatibilityOf(d.compatibility, rep) : undefined;

  // allowed-tools: list, or a space/comma separated string
  const at = d['allowed-tools'];
  const allowedTools =
    typeof at === 'string' ? splitToolList(at) : at !== undefined && at !== null ? allowedToolList(at, rep) : [];

  // WorkBuddy fields (also accepted namespaced under metadata)
  const readWhen = [
    ...stringList(d.read_when, 'read_when', rep),
    ...stringList(metadata.read_when ?? metadata['workbuddy.read_when'], 'metadata.read_when', rep, true),
  ];
  const dependsOn = [
    ...stringList(d.depends_on, 'depends_on', rep),
    ...stringList(metadata.depends_on ?? metadata['workbuddy.depends_on'], 'metadata.depends_on', rep, true),
  ].map((s) => s.normalize('NFKC'));
  if (
    (d.synonyms !== undefined && d.synonyms !== null) ||
    (metadata.synonyms !== undefined && metadata.synonyms !== null)
  ) {
    synonymProblems(d.synonyms, metadata.synonyms, y, rep);
  }

  const ac = d.agent_created ?? metadata['workbuddy.agent_created'];
  const agentCreated = ac === true || ac === 'true';
  if (!agentCreated && ac !== undefined && ac !== null && ac !== false && ac !== 'false') {
    rep.add('warning', 'field.type', 'agent_created', say('diag.agentCreated'));
  }

  const diagnostics = rep.list;
  if (!name || description === undefined || diagnostics.some((x) => x.severity === 'error' && !strict)) {
    return { diagnostics };
  }
  const manifest: SkillManifest = {
    name,
    description,
    ...(title !== undefined ? { title } : {}),
    ...(license !== undefined ? { license } : {}),
    ...(compatibility !== undefined ? { compatibility } : {}),
    metadata,
    allowedTools,
    readWhen,
    agentCreated,
    dependsOn,
    ...(d.permissions !== undefined ? { permissions: { raw: d.permissions, reviewed: false as const } } : {}),
    requested: readPermissionRequest(d, file, y.lineOf),
    extra,
    frontmatter: frontmatterFacts(split.frontmatter, d, y.lineOf, description),
  };
  const nameLine = y.keyLines.get('name') ?? y.keyLines.get('title');
  return { manifest, diagnostics, ...(nameLine !== undefined ? { nameLine } : {}) };
}

type Yaml = ReturnType<typeof parseFrontmatterYaml>;

/** A frontmatter that is not valid UTF-8, or (strict) starts with a byte order mark. */
function splitDiagnostics(split: Extract<SplitResult, { ok: true }>, file: string, strict: boolean): Diagnostic[] {
  const pre: Diagnostic[] = [];
  if (split.badUtf8Line !== undefined) {
    pre.push({
      severity: strict ? 'error' : 'warning',
      code: 'file.encoding',
      file,
      line: split.badUtf8Line,
      message: english(say('diag.encoding')),
      words: say('diag.encoding'),
    });
  }
  if (strict && split.bom)
    pre.push({
      severity: 'error',
      code: 'frontmatter.bom',
      file,
      line: 1,
      message: english(say('diag.bom')),
      words: say('diag.bom'),
    });
  return pre;
}

/** Strict mode: flow style, then the reference validator's single error for keys outside the standard's. */
function strictKeys(d: Record<string, unknown>, y: Yaml, rep: Reporter): void {
  for (const k of [...y.flowKeys].sort()) {
    rep.add('error', 'yaml.flow', k || undefined, say('diag.flow'));
  }
  const nonSpec = Object.keys(d)
    .filter((k) => !(SPEC_KEYS as readonly string[]).includes(k))
    .sort();
  if (nonSpec.length) {
    const first = [...nonSpec].sort((a, b) => (y.keyLines.get(a) ?? 0) - (y.keyLines.get(b) ?? 0))[0];
    rep.add(
      'error',
      'field.unexpected',
      first,
      say('diag.unexpectedFields', {
        fields: nonSpec.join(', '),
        allowed: SPEC_KEYS.map((k) => `'${k}'`).join(', '),
      }),
    );
  }
}

/** metadata: a mapping of strings (numbers keep their source text: `1.0` stays "1.0"). */
function metadataOf(y: Yaml, rep: Reporter): Record<string, string> {
  const metadata: Record<string, string> = {};
  const entries = y.sourcesOf('metadata');
  if (!entries) rep.lenient('field.type', 'metadata', say('diag.metadata'));
  else {
    for (const { key, text, collection } of entries) {
      if (collection) rep.lenient('field.type', `metadata.${key}`, say('diag.metadataValue'));
      metadata[key] = text;
    }
  }
  return metadata;
}

/** name and title: the name as written, or from the title; a display name (`Agent Development`) indexed under a slug. */
function nameAndTitle(
  d: Record<string, unknown>,
  metadata: Record<string, string>,
  y: Yaml,
  rep: Reporter,
  file: string,
  opts: ParseOptions,
): { name?: string; title?: string } {
  const strict = rep.strict;
  const rawName = d.name;
  const rawTitle = d.title ?? metadata['workbuddy.title'];
  let name: string | undefined;
  let title: string | undefined;
  if (rawTitle !== undefined && rawTitle !== null) title = titleOf(rawTitle, rep);
  if (rawName !== undefined && rawName !== null && rawName !== '') {
    if (typeof rawName === 'string') name = rawName.trim().normalize('NFKC');
    else name = nonStringName(rawName, rep);
  } else if (title) {
    name = slugify(title);
    if (strict)
      rep.add(
        'error',
        'name.missing',
        'name',
        say('diag.missingField', { field: 'name' }),
        y.keyLines.get('title') ?? 1,
      );
  }
  if (name === undefined || name === '') {
    if (!rep.list.some((x) => x.field === 'name' && x.severity === 'error'))
      rep.add(
        'error',
        'name.missing',
        'name',
        say('diag.missingField', { field: 'name' }),
        y.keyLines.get('name') ?? 2,
      );
    return { title };
  }
  let bad = unusableName(name);
  let slugged = false;
  if (bad && /\s/u.test(name)) {
    // Real repositories write display names (`Agent Development`): index the skill under a slug, keep the words.
    const slug = invocableName(name, opts.folderName ?? basename(dirname(file)));
    if (slug) {
      rep.lenient('name.slugified', 'name', say('diag.nameSlugged', { name, why: bad, slug }));
      title ??= name;
      name = slug;
      bad = undefined;
      slugged = true;
    }
  }
  if (bad) {
    rep.add('error', 'name.unusable', 'name', say('diag.nameUnusable', { name, why: bad }));
    return { title };
  }
  for (const p of nameProblems(name)) rep.lenient(p.code, 'name', p.words);
  if ((title && !rawName && !strict) || slugged) {
    // name derived from title, or a display name slugged (already reported): no second warning.
  } else if (title && rawName !== undefined && slugify(title) !== name.toLowerCase()) {
    rep.add('warning', 'name.title-differs', 'title', say('diag.titleDiffers', { title, name }));
  }
  if (opts.folderName !== null) {
    const m = folderMismatch(name, opts.folderName ?? basename(dirname(file)), file, strict, y.keyLines.get('name'));
    if (m) rep.list.push(m);
  }
  return { name, title };
}

function titleOf(rawTitle: unknown, rep: Reporter): string | undefined {
  const t = scalarText(rawTitle);
  if (t === undefined) rep.add('warning', 'field.type', 'title', say('diag.fieldString', { field: 'title' }));
  return t?.trim().normalize('NFKC');
}

/** A `name` that YAML read as a number or boolean (kept as its text, with a warning), or as a collection (an error). */
function nonStringName(rawName: unknown, rep: Reporter): string | undefined {
  const n = scalarText(rawName);
  if (n === undefined) {
    rep.add('error', 'name.type', 'name', say('diag.nameType'));
    return undefined;
  }
  rep.lenient('name.type', 'name', say('diag.nameQuote', { name: n }));
  return n.trim().normalize('NFKC');
}

/** description, or summary when there is none. */
function descriptionOf(d: Record<string, unknown>, y: Yaml, rep: Reporter): string | undefined {
  const strict = rep.strict;
  let description: string | undefined;
  const rawDesc = d.description;
  const rawSummary = d.summary;
  const descText = rawDesc === undefined || rawDesc === null ? undefined : scalarText(rawDesc);
  const sumText = rawSummary === undefined || rawSummary === null ? undefined : scalarText(rawSummary);
  if (rawDesc !== undefined && rawDesc !== null && descText === undefined)
    rep.add('error', 'description.type', 'description', say('diag.description'));
  if (rawSummary !== undefined && rawSummary !== null && sumText === undefined)
    rep.add('warning', 'field.type', 'summary', say('diag.fieldString', { field: 'summary' }));
  if (descText !== undefined && descText.trim() === '') {
    rep.add('error', 'description.empty', 'description', say('diag.description'));
  } else if (descText !== undefined) {
    description = descText.trim();
    if (sumText !== undefined && sumText.trim() && sumText.trim() !== description) {
      rep.add('warning', 'description.summary-differs', 'summary', say('diag.summaryDiffers'));
    }
  } else if (sumText !== undefined && sumText.trim()) {
    description = sumText.trim();
    if (strict)
      rep.add(
        'error',
        'description.missing',
        'description',
        say('diag.missingField', { field: 'description' }),
        y.keyLines.get('summary') ?? 1,
      );
  }
  if (description === undefined && !rep.list.some((x) => x.field === 'description' && x.severity === 'error')) {
    rep.add(
      'error',
      'description.missing',
      'description',
      say('diag.missingField', { field: 'description' }),
      y.keyLines.get('description') ?? 2,
    );
  }
  if (description !== undefined && description.length > DESCRIPTION_MAX && [...description].length > DESCRIPTION_MAX) {
    rep.lenient(
      'description.length',
      rawDesc !== undefined ? 'description' : 'summary',
      say('diag.descriptionLength', { max: DESCRIPTION_MAX, length: [...description].length }),
    );
  }
  return description;
}

function licenseOf(raw: unknown, rep: Reporter): string | undefined {
  const license = scalarText(raw);
  if (license === undefined) rep.lenient('field.type', 'license', say('diag.license'));
  return license;
}

function compatibilityOf(raw: unknown, rep: Reporter): string | undefined {
  const compatibility = scalarText(raw);
  if (compatibility === undefined || compatibility.trim() === '') {
    rep.lenient('field.type', 'compatibility', say('diag.compatibility'));
    return undefined;
  }
  if ([...compatibility].length > COMPATIBILITY_MAX) {
    rep.lenient(
      'compatibility.length',
      'compatibility',
      say('diag.compatibilityLength', { max: COMPATIBILITY_MAX, length: [...compatibility].length }),
    );
  }
  return compatibility;
}

/** allowed-tools that is not a string: a list of strings, else a finding and no tools. */
function allowedToolList(at: unknown, rep: Reporter): string[] {
  if (Array.isArray(at)) return stringList(at, 'allowed-tools', rep);
  rep.lenient('field.type', 'allowed-tools', say('diag.allowedTools'));
  return [];
}

/**
 * synonyms: the skill's own synonym groups for trigger matching (`synonyms:` or `metadata.synonyms`), kept as written
 * for the matcher; groups it would ignore are reported here.
 */
function synonymProblems(top: unknown, inMetadata: unknown, y: Yaml, rep: Reporter): void {
  for (const [field, raw] of [
    ['synonyms', top],
    ['metadata.synonyms', inMetadata],
  ] as const) {
    if (raw === undefined || raw === null) continue;
    for (const problem of parseSynonymGroups(raw).problems) {
      rep.add(
        'warning',
        'field.synonyms',
        `${field}${problem.group !== undefined ? `[${problem.group}]` : ''}`,
        problem.words,
        y.keyLines.get(field === 'synonyms' ? 'synonyms' : 'metadata'),
      );
    }
  }
}

const ASCII = /^[\x00-\x7f]*$/;

/** The name/folder mismatch finding (warning; error in strict mode), compared after NFKC normalisation. */
export function folderMismatch(
  name: string,
  folderName: string,
  file: string,
  strict = false,
  line?: number,
): Diagnostic | undefined {
  if (name === folderName) return undefined;
  // ASCII text is its own NFKC form: skip the normalisation (the catalog calls this for every skill on every build).
  const ascii = ASCII.test(name) && ASCII.test(folderName);
  const folder = ascii ? folderName : folderName.normalize('NFKC');
  if (!ascii && folder === name.normalize('NFKC')) return undefined;
  const mismatch = say('diag.folderName', { folder, name });
  return {
    severity: strict ? 'error' : 'warning',
    code: 'name.mismatch',
    file,
    ...(line !== undefined ? { line } : {}),
    field: 'name',
    message: english(mismatch),
    words: mismatch,
  };
}
