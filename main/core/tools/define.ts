// A tool Knack declares itself is written once, as a zod schema: the handler's argument type (z.input), the JSON Schema
// the model reads (zod's toJSONSchema) and the check of every call (problems naming the field) all come from it.
// Tools from elsewhere (MCP servers, imported catalogs) only bring JSON Schema: validate.ts checks those with Ajv.
import { z } from 'zod';
import type { ArgProblem, Validator } from './validate.js';
import type { JsonSchema, ToolDefinition } from './types.js';

/** A tool's definition with its arguments as a zod schema in place of the hand-written JSON Schema. */
export type ToolSpec<S extends z.ZodType> = Omit<ToolDefinition<z.input<S>>, 'inputSchema' | 'input'> & { input: S };

/** The definition the registry takes: `inputSchema` derived from `input`, which also validates each call. */
export function defineTool<S extends z.ZodType>(spec: ToolSpec<S>): ToolDefinition<z.input<S>> {
  return { ...spec, inputSchema: jsonSchemaOf(spec.input) };
}

/**
 * The JSON Schema of a tool's arguments as the providers take it: what a caller may send (`io: 'input'`, so a field
 * with a default stays optional), without `$schema` (the tool definitions of Anthropic and OpenAI carry none).
 */
function jsonSchemaOf(input: z.ZodType): JsonSchema {
  const { $schema: _draft, ...schema } = z.toJSONSchema(input, { io: 'input' });
  return schema;
}

/** A validator over a zod schema, saying what is wrong as Ajv's checks of connector tools say it (validate.ts). */
export function zodValidator(input: z.ZodType): Validator {
  return (args) => {
    const r = input.safeParse(args, { reportInput: true });
    return r.success ? [] : problemsOf(r.error.issues);
  };
}

function fieldOf(path: PropertyKey[]): string {
  const f = path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('');
  return f.replace(/^\./, '');
}

function problemsOf(issues: z.core.$ZodIssue[]): ArgProblem[] {
  const out: ArgProblem[] = [];
  for (const i of issues) {
    const field = fieldOf(i.path) || '(arguments)';
    const at = (key: string): string => (field === '(arguments)' ? key : `${field}.${key}`);
    switch (i.code) {
      case 'unrecognized_keys':
        for (const k of i.keys) out.push({ field: at(k), message: 'is not a known parameter' });
        continue;
      case 'invalid_type': {
        const expected = i.expected === 'int' ? 'integer' : i.expected === 'record' ? 'object' : i.expected;
        out.push({ field, message: i.input === undefined ? 'is required' : `must be ${expected}` });
        continue;
      }
      case 'too_small':
      case 'too_big': {
        const [bound, word] = i.code === 'too_small' ? [i.minimum, 'least'] : [i.maximum, 'most'];
        const s = Number(bound) === 1 ? '' : 's';
        const message =
          i.origin === 'string'
            ? `must have at ${word} ${bound} character${s}`
            : i.origin === 'array'
              ? `must have at ${word} ${bound} item${s}`
              : `must be ${i.code === 'too_small' ? '>' : '<'}${i.inclusive ? '=' : ''} ${bound}`;
        out.push({ field, message });
        continue;
      }
      case 'invalid_value':
        out.push({ field, message: `must be one of ${i.values.map((v) => JSON.stringify(v)).join(', ')}` });
        continue;
      case 'invalid_format':
        out.push({ field, message: i.format === 'regex' ? `must match pattern ${i.pattern ?? ''}` : i.message });
        continue;
      default:
        out.push({ field, message: i.message });
    }
  }
  return out;
}
