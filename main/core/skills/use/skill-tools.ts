// The model-facing skill tools as ToolDefinitions with JSON schemas: Skill, SkillSearch, list_skills,
// read_skill_resource and create_skill — thin wrappers over the loader, SkillSearch and create.ts.
import { join } from 'node:path';
import { SkillSearch, type SkillSearchOptions } from './skill-search.js';
import { listResources, type SkillLoader } from './loader.js';
import { createSkill } from './create.js';
import type { CatalogEntry } from '../format/index.js';
import type { ToolDefinition, ToolResult } from '../../tools/index.js';
import { TOOL, TOOLS } from '../../policy/index.js';

/** What the tools need of the catalog (the Catalog class fits). */
export interface CatalogView {
  /** Enabled, unshadowed entries. */
  enabled(): CatalogEntry[];
  /** Winning entry for a name, enabled or not. */
  get(name: string): CatalogEntry | undefined;
}

export interface SkillToolDeps {
  catalog: CatalogView;
  loader: SkillLoader;
  /** The user tier folder new skills are written to (`~/.workbuddy/skills`). */
  userSkillsDir: string;
  searchOptions?: SkillSearchOptions;
  /** Called after create_skill wrote a skill (e.g. to refresh the catalog). */
  onCreated?: (dir: string) => void;
}

type Args = Record<string, unknown>;

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const strList = (v: unknown): string[] | undefined =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : undefined;
const fail = (code: string, message: string, details?: unknown): ToolResult => ({
  ok: false,
  error: { code, message, ...(details !== undefined ? { details } : {}) },
});

/** Build the five tools over a catalog. `Skill`'s name enum follows the catalog as it changes. */
export function skillTools(deps: SkillToolDeps): ToolDefinition[] {
  let cached: { sig: string; search: SkillSearch } | undefined;
  const search = (): SkillSearch => {
    const enabled = deps.catalog.enabled();
    const sig = enabled.map((e) => `${e.manifest.name}\0${e.file}\0${e.mtimeMs}`).join('\n');
    if (!cached) cached = { sig, search: new SkillSearch(enabled, deps.searchOptions) };
    else if (cached.sig !== sig) {
      // Only the skills that changed are indexed again.
      cached.search.update(enabled);
      cached.sig = sig;
    }
    return cached.search;
  };
  const enabledNames = (): string[] =>
    deps.catalog
      .enabled()
      .map((e) => e.manifest.name)
      .sort();

  const skill: ToolDefinition = {
    name: TOOL.Skill,
    summary: "Load a skill's instructions (and its dependencies) into the conversation by name.",
    description:
      'Load the full instructions of an installed skill by its exact name. Skills it depends on are loaded first. ' +
      'Use it when a skill from the catalog (or found with SkillSearch) fits the task, before starting the work. ' +
      'The result lists the files the skill offers; read them with read_skill_resource when the instructions point to them.',
    get inputSchema() {
      return {
        type: 'object',
        properties: {
          name: { type: 'string', enum: enabledNames(), description: 'The skill name, exactly as listed.' },
        },
        required: ['name'],
        additionalProperties: false,
      };
    },
    deferLoading: false,
    risk: TOOLS.Skill.access,
    access: (args: Args) => {
      // The skill and every dependency that would load with it (lookup only, no I/O).
      const plan = deps.loader.plan(str(args.name));
      if (plan.ok) return { read: plan.value.map((p) => p.entry.file) };
      const e = deps.catalog.get(str(args.name));
      return e ? { read: [e.file] } : {};
    },
    handler: async (args: Args) => {
      const r = deps.loader.load(str(args.name), 'model');
      if (!r.ok) return fail(r.error.code, r.error.message, r.error.details);
      return {
        ok: true,
        content: {
          skills: r.value.map((s) => ({
            name: s.name,
            tier: s.tier,
            reason: s.reason,
            ...(s.requiredBy ? { requiredBy: s.requiredBy } : {}),
            tokens: s.tokens,
            resources: listResources(deps.catalog.get(s.name)?.realDir ?? s.dir),
            instructions: s.body,
          })),
        },
      };
    },
  };

  const skillSearch: ToolDefinition = {
    name: TOOL.SkillSearch,
    summary: 'Find installed skills for a task described in any language (English or Chinese).',
    description:
      'Search every enabled skill (including ones not listed in the prompt catalog) by name, description and triggers. ' +
      'Describe the task in your own words, in English or Chinese; returns the best skill names with their summaries. ' +
      'Then load one with the Skill tool.',
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', minLength: 1, description: 'What the user wants to do.' },
        limit: { type: 'integer', minimum: 1, maximum: 50, default: 5 },
      },
      required: ['query'],
      additionalProperties: false,
    },
    deferLoading: false,
    risk: TOOLS.SkillSearch.access,
    access: () => ({}),
    handler: async (args: Args) => {
      const query = str(args.query).trim();
      if (!query) return fail('invalid_arguments', 'query must be a non-empty string');
      const limit = typeof args.limit === 'number' ? Math.max(1, Math.min(50, Math.floor(args.limit))) : 5;
      const hits = search().search(query, { limit });
      return {
        ok: true,
        content: {
          results: hits.map((h) => ({ name: h.name, summary: h.summary, tier: h.tier })),
          ...(hits.length ? {} : { note: 'no skill matched; try other words' }),
        },
      };
    },
  };

  const listSkills: ToolDefinition = {
    name: TOOL.list_skills,
    summary: 'List every enabled skill with its summary and tier.',
    description: 'List the enabled skills (name, summary, tier, source file). Optionally only one tier.',
    inputSchema: {
      type: 'object',
      properties: { tier: { type: 'string', enum: ['builtin', 'user', 'project'] } },
      additionalProperties: false,
    },
    deferLoading: true,
    risk: TOOLS.list_skills.access,
    access: () => ({}),
    handler: async (args: Args) => {
      const tier = str(args.tier);
      const list = deps.catalog
        .enabled()
        .filter((e) => !tier || e.tier === tier)
        .map((e) => ({ name: e.manifest.name, summary: e.manifest.description, tier: e.tier }))
        .sort((a, b) => a.name.localeCompare(b.name));
      return { ok: true, content: { skills: list, count: list.length } };
    },
  };

  const readResource: ToolDefinition = {
    name: TOOL.read_skill_resource,
    summary: 'Read a text file a skill ships under references/, assets/ or scripts/.',
    description:
      "Read one text file from a skill's own references/, assets/ or scripts/ folder (path relative to the skill folder, " +
      'e.g. "references/checklist.md"). Files outside those folders, binary files and files over the size limit are refused.',
    inputSchema: {
      type: 'object',
      properties: {
        skill: { type: 'string', description: 'Skill name.' },
        path: {
          type: 'string',
          description: 'Path inside the skill folder, starting with references/, assets/ or scripts/.',
        },
      },
      required: ['skill', 'path'],
      additionalProperties: false,
    },
    deferLoading: false,
    risk: TOOLS.read_skill_resource.access,
    access: (args: Args) => {
      const e = deps.catalog.get(str(args.skill));
      return e ? { read: [join(e.dir, str(args.path))] } : {};
    },
    handler: async (args: Args) => {
      const r = deps.loader.readResource(str(args.skill), str(args.path), 'model');
      if (!r.ok) return fail(r.error.code, r.error.message, r.error.details);
      return {
        ok: true,
        content: {
          skill: r.value.skill,
          path: r.value.path,
          bytes: r.value.bytes,
          tokens: r.value.tokens,
          content: r.value.content,
        },
      };
    },
  };

  const create: ToolDefinition = {
    name: TOOL.create_skill,
    summary: "Save reusable know-how as a new skill in the user's skill folder.",
    description:
      'Create a new skill in the user tier (~/.workbuddy/skills/<name>/SKILL.md), marked agent_created. ' +
      'Use when the user asks to remember a procedure as a skill. The name is lowercase-with-hyphens; an existing skill is never overwritten. ' +
      'Give a description that says what it does AND when to use it, read_when trigger phrases (English and Chinese when useful), ' +
      'and instructions as Markdown.',
    inputSchema: {
      type: 'object',
      properties: {
        name: { type: 'string', pattern: '^[a-z0-9]+(-[a-z0-9]+)*$', maxLength: 64 },
        description: { type: 'string', minLength: 1, maxLength: 1024 },
        instructions: { type: 'string', minLength: 1, description: 'The Markdown body of SKILL.md.' },
        read_when: {
          type: 'array',
          items: { type: 'string' },
          description: 'Trigger phrases that auto-load the skill.',
        },
        depends_on: { type: 'array', items: { type: 'string' } },
        files: {
          type: 'object',
          additionalProperties: { type: 'string' },
          description: 'Extra text files: {"references/x.md": "..."}.',
        },
      },
      required: ['name', 'description', 'instructions'],
      additionalProperties: false,
    },
    deferLoading: true,
    risk: TOOLS.create_skill.access,
    access: (args: Args) => ({ write: [join(deps.userSkillsDir, str(args.name))] }),
    handler: async (args: Args) => {
      const files =
        args.files && typeof args.files === 'object' && !Array.isArray(args.files)
          ? (args.files as Record<string, unknown>)
          : undefined;
      const readWhen = strList(args.read_when);
      const dependsOn = strList(args.depends_on);
      const r = createSkill(deps.userSkillsDir, {
        name: str(args.name),
        description: str(args.description),
        body: str(args.instructions),
        ...(readWhen ? { readWhen } : {}),
        ...(dependsOn ? { dependsOn } : {}),
        ...(files
          ? {
              files: Object.fromEntries(
                Object.entries(files).filter((e): e is [string, string] => typeof e[1] === 'string'),
              ),
            }
          : {}),
      });
      if (!r.ok) return fail(r.error.code, r.error.message, r.error.details);
      deps.onCreated?.(r.dir);
      return { ok: true, content: { created: r.file, tier: 'user', warnings: r.diagnostics.map((d) => d.message) } };
    },
  };

  return [skill, skillSearch, listSkills, readResource, create];
}
