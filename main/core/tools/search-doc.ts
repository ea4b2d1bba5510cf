// What ToolSearch indexes for one tool: name words, the one-line summary, the full description and the
// parameter text (names split into words, descriptions, enum values) pulled out of its JSON Schema.
import { nameWords } from './names.js';
import type { JsonSchema } from './types.js';

export interface SearchableTool {
  name: string;
  summary: string;
  description: string;
  inputSchema: JsonSchema;
}

export interface ToolSearchDoc {
  name: string;
  summary: string;
  description: string;
  params: string;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Parameter names, descriptions and enum values of a schema, two levels deep, capped in size. */
function parameterText(schema: JsonSchema, depth = 0, out: string[] = []): string[] {
  if (depth > 2 || out.length > 200) return out;
  const props = schema.properties;
  if (isObject(props)) {
    for (const [key, raw] of Object.entries(props)) {
      out.push(nameWords(key));
      if (!isObject(raw)) continue;
      if (typeof raw.description === 'string') out.push(raw.description);
      if (typeof raw.title === 'string') out.push(raw.title);
      if (Array.isArray(raw.enum)) out.push(raw.enum.filter((v) => typeof v === 'string').join(' '));
      parameterText(raw, depth + 1, out);
      if (isObject(raw.items)) parameterText(raw.items, depth + 1, out);
    }
  }
  return out;
}

export function toSearchDoc(t: SearchableTool): ToolSearchDoc {
  return {
    name: nameWords(t.name),
    summary: t.summary,
    description: t.description === t.summary ? '' : t.description,
    params: parameterText(t.inputSchema).join(' . ').slice(0, 4000),
  };
}

/** The one-line summary of a description: its first sentence or line, at most `max` characters. */
export function summarize(description: string, max = 160): string {
  const text = description.trim();
  const line = text.split(/\r?\n/).find((l) => l.trim()) ?? '';
  const sentence = /^.*?[.!?。！？](?=\s|$)/u.exec(line)?.[0] ?? line;
  const s = sentence.trim();
  return s.length <= max ? s : `${s.slice(0, max - 1).trimEnd()}…`;
}
