// The model-facing skill tools, each with its zod input schema (tools/define.ts): Skill, SkillSearch, list_skills,
// read_skill_resource and create_skill — thin wrappers over the loader, SkillSearch and create.ts.
import { join } from 'node:path';
import { SkillSearch, type SkillSearchOptions } from './skill-search.js';
import { listResources, type SkillLoader } from './loader.js';
import { createSkill } from './create.js';
import type { CatalogEntry } from '../format/index.js';
import { z } from 'zod';
import { defineTool, type AnyTool, type ToolResult } from '../../tools/index.js';
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

const fail = (code: string, message: string, details?: unknown): ToolResult => ({
  ok: false,
  error: { code, message, ...(details !== undefined ? { details } : {}) },
});

/** Build the five tools over a catalog. */
export function skillTools(deps: SkillToolDeps): AnyTool[] {
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
  const skill = defineTool({
    name: TOOL.Skill,
    summary: "Load a skill's instructions (and its dependencies) into the conversation by name.",
    description:
      'Load the full instructions of an installed skill by its exact name. Skills it depends on are loaded first. ' +
      'Use it when a skill from the catalog (or found with SkillSearch) fits the task, before starting the work. ' +
      'The result lists the files the skill offers; read them with read_skill_resource when the instructions point to them.',
    // A name, not an enum of every skill: the names are in the catalog the prompt carries, and the loader refuses
    // one that is unknown or disabled.
    input: z.strictObject({
      name: z
        .string()
        .min(1)
        .describe('The skill name, exactly as listed in <available_skills> or returned by SkillSearch.'),
    }),
    deferLoading: false,
    risk: TOOLS.Skill.access,
    access: (args) => {
      // The skill and every dependency that would load with it (lookup only, no I/O).
      const plan = deps.loader.plan(args.name);
      if (plan.ok) return { read: plan.value.map((p) => p.entry.file) };
      const e = deps.catalog.get(args.name);
      return e ? { read: [e.file] } : {};
    },
    handler: async (args) => {
      const r = deps.loader.load(args.name, 'model');
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
  });

  const skillSearch = defineTool({
    name: TOOL.SkillSearch,
    summary: 'Find installed skills for a task described in any language (English or Chinese).',
    description:
      'Search every enabled skill (including ones not listed in the prompt catalog) by name, description and triggers. ' +
      'Describe the task in your own words, in English or Chinese; returns the best skill names with their summaries. ' +
      'Then load one with the Skill tool.',
    input: z.strictObject({
      query: z.string().min(1).describe('What the user wants to do.'),
      limit: z.int().min(1).max(50).default(5),
    }),
    deferLoading: false,
    risk: TOOLS.SkillSearch.access,
    access: () => ({}),
    handler: async (args) => {
      const query = args.query.trim();
      if (!query) return fail('tool.invalid_args', 'query: must not be only spaces');
      const hits = search().search(query, { limit: args.limit ?? 5 });
      return {
        ok: true,
        content: {
          results: hits.map((h) => ({ name: h.name, summary: h.summary, tier: h.tier })),
          ...(hits.length ? {} : { note: 'no skill matched; try other words' }),
        },
      };
    },
  });

  const listSkills = defineTool({
    name: TOOL.list_skills,
    summary: 'List every enabled skill with its summary and tier.',
    description: 'List the enabled skills (name, summary, tier, source file). Optionally only one tier.',
    input: z.strictObject({ tier: z.enum(['builtin', 'user', 'project']).optional() }),
    deferLoading: true,
    risk: TOOLS.list_skills.access,
    access: () => ({}),
    handler: async ({ tier }) => {
      const list = deps.catalog
        .enabled()
        .filter((e) => !tier || e.tier === tier)
        .map((e) => ({ name: e.manifest.name, summary: e.manifest.description, tier: e.tier }))
        .sort((a, b) => a.name.localeCompare(b.name));
      return { ok: true, content: { skills: list, count: list.length } };
    },
  });

  const readResource = defineTool({
    name: TOOL.read_skill_resource,
    summary: 'Read a text file a skill ships under references/, assets/ or scripts/.',
    description:
      "Read one text file from a skill's own references/, assets/ or scripts/ folder (path relative to the skill folder, " +
      'e.g. "references/checklist.md"). Files outside those folders, binary files and files over the size limit are refused.',
    input: z.strictObject({
      skill: z.string().describe('Skill name.'),
      path: z.string().describe('Path inside the skill folder, starting with references/, assets/ or scripts/.'),
    }),
    deferLoading: false,
    risk: TOOLS.read_skill_resource.access,
    access: (args) => {
      const e = deps.catalog.get(args.skill);
      return e ? { read: [join(e.dir, args.path)] } : {};
    },
    handler: async (args) => {
      const r = deps.loader.readResource(args.skill, args.path, 'model');
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
  });

  const create = defineTool({
    name: TOOL.create_skill,
    summary: "Save reusable know-how as a new skill in the user's skill folder.",
    description:
      'Create a new skill in the user tier (~/.workbuddy/skills/<name>/SKILL.md), marked agent_created. ' +
      'Use when the user asks to remember a procedure as a skill. The name is lowercase-with-hyphens; an existing skill is never overwritten. ' +
      'Give a description that says what it does AND when to use it, read_when trigger phrases (English and Chinese when useful), ' +
      'and instructions as Markdown.',
    input: z.strictObject({
      name: z
        .string()
        .max(64)
        .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/),
      description: z.string().min(1).max(1024),
      instructions: z.string().min(1).describe('The Markdown body of SKILL.md.'),
      read_when: z.array(z.string()).optional().describe('Trigger phrases that auto-load the skill.'),
      depends_on: z.array(z.string()).optional(),
      files: z.record(z.string(), z.string()).optional().describe('Extra text files: {"references/x.md": "..."}.'),
    }),
    deferLoading: true,
    risk: TOOLS.create_skill.access,
    access: (args) => ({ write: [join(deps.userSkillsDir, args.name)] }),
    handler: async (args) => {
      const r = createSkill(deps.userSkillsDir, {
        name: args.name,
        description: args.description,
        body: args.instructions,
        ...(args.read_when ? { readWhen: args.read_when } : {}),
        ...(args.depends_on ? { dependsOn: args.depends_on } : {}),
        ...(args.files ? { files: args.files } : {}),
      });
      if (!r.ok) return fail(r.error.code, r.error.message, r.error.details);
      deps.onCreated?.(r.dir);
      return { ok: true, content: { created: r.file, tier: 'user', warnings: r.diagnostics.map((d) => d.message) } };
    },
  });

  return [skill, skillSearch, listSkills, readResource, create];
}
