// Imported tool catalogs: a JSON array of {name, description, parameters | input_schema} (OpenAI-, Anthropic-
// or Gorilla-style) turned into deferred, searchable tool definitions. Bad entries are reported, never fatal.
import { readFileSync } from 'node:fs';
import { toolError } from './errors.js';
import { isValidToolName, sanitizeNamePart } from './names.js';
import { summarize } from './search-doc.js';
import type { AnyTool } from './registry.js';
import type { JsonSchema } from './types.js';

export interface CatalogProblem {
  /** `FILE.json[3].name` style location. */
  where: string;
  message: string;
}

export interface ImportedCatalog {
  tools: AnyTool[];
  problems: CatalogProblem[];
  /** Original name → registered name, when a name had to be made callable. */
  renamed: Record<string, string>;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function looksLikeSchema(v: Record<string, unknown>): boolean {
  return typeof v.type === 'string' || isObject(v.properties) || Array.isArray(v.required);
}

/**
 * A JSON Schema for whatever the catalog gives as parameters: a schema is used as is; a plain object of
 * name → example/description, a list of names, or a string of names become optional string-ish properties.
 */
function parametersToSchema(p: unknown): JsonSchema {
  if (isObject(p)) {
    if (looksLikeSchema(p)) return p.type === undefined ? { type: 'object', ...p } : p;
    const properties: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(p)) properties[k] = typeof v === 'string' ? { description: v } : {};
    return { type: 'object', properties };
  }
  if (Array.isArray(p)) {
    const properties: Record<string, unknown> = {};
    for (const k of p) if (typeof k === 'string' && k.trim()) properties[k.trim()] = {};
    return { type: 'object', properties };
  }
  if (typeof p === 'string' && p.trim() && p.trim() !== 'N/A') {
    const properties: Record<string, unknown> = {};
    for (const k of p.split(/[,\s]+/)) if (k) properties[k] = {};
    return { type: 'object', properties };
  }
  return { type: 'object', properties: {} };
}

/** A callable name for a catalog name: `hf:org/model` → `hf_org_model` (unique within the catalog). */
function callableName(raw: string, taken: Set<string>): string {
  let base = isValidToolName(raw)
    ? raw
    : sanitizeNamePart(raw)
        .replace(/^_+|_+$/g, '')
        .slice(0, 60) || 'tool';
  if (base.length > 64) base = base.slice(0, 64);
  let name = base;
  for (let i = 2; taken.has(name); i++) name = `${base.slice(0, 60)}_${i}`;
  return name;
}

/** Parse a catalog value (already JSON-decoded). `file` is only used in problem locations. */
export function importCatalog(value: unknown, file = 'catalog'): ImportedCatalog {
  const tools: AnyTool[] = [];
  const problems: CatalogProblem[] = [];
  const renamed: Record<string, string> = {};
  const list = Array.isArray(value) ? value : isObject(value) && Array.isArray(value.tools) ? value.tools : undefined;
  if (!list)
    return {
      tools,
      problems: [{ where: file, message: 'expected a JSON array of tools (or {"tools": [...]})' }],
      renamed,
    };
  const taken = new Set<string>();
  list.forEach((entry: unknown, i: number) => {
    const where = `${file}[${i}]`;
    if (!isObject(entry)) {
      problems.push({ where, message: 'expected an object with name and description' });
      return;
    }
    // OpenAI function-calling shape: {type: 'function', function: {name, description, parameters}}
    const e = isObject(entry.function) ? entry.function : entry;
    if (typeof e.name !== 'string' || !e.name.trim()) {
      problems.push({ where: `${where}.name`, message: 'missing or not a string' });
      return;
    }
    const description = typeof e.description === 'string' ? e.description.trim() : '';
    if (!description) {
      problems.push({
        where: `${where}.description`,
        message: `tool "${e.name}" has no description (it could never be found)`,
      });
      return;
    }
    const rawSchema = e.input_schema ?? e.inputSchema ?? e.parameters;
    const name = callableName(e.name.trim(), taken);
    taken.add(name);
    if (name !== e.name) renamed[e.name] = name;
    tools.push({
      name,
      summary: summarize(description),
      description,
      inputSchema: parametersToSchema(rawSchema),
      deferLoading: true,
      risk: 'meta',
      access: () => ({}),
      handler: async () =>
        toolError(
          'tool.unavailable',
          `${name} comes from an imported catalog and has no implementation in Knack; connect the MCP server that provides it`,
        ),
    });
  });
  return { tools, problems, renamed };
}

export function readCatalogFile(file: string): ImportedCatalog {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    return { tools: [], problems: [{ where: file, message: `cannot read: ${(e as Error).message}` }], renamed: {} };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { tools: [], problems: [{ where: file, message: `invalid JSON: ${(e as Error).message}` }], renamed: {} };
  }
  return importCatalog(value, file);
}
