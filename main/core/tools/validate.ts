// Argument validation against a tool's JSON Schema with Ajv: compiled once per tool, and errors turned
// into one line per problem that names the field (`path: must be string`), for the model to fix its call.
import { lazyRequire } from '../base/index.js';
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import type { RegExpEngine } from 'ajv/dist/types/index.js';
import type { JsonSchema } from './types.js';
import { RegexTimeoutError, testWithin } from '../base/index.js';

export interface ArgProblem {
  /** JSON-pointer-ish field path, e.g. `edits[0].old_string`; `(arguments)` for the whole object. */
  field: string;
  message: string;
}

export type Validator = (args: unknown) => ArgProblem[];

/** Time one schema `pattern` may take on one value: schemas come from connectors and imported catalogs. */
const PATTERN_TIMEOUT_MS = 100;

/** Patterns that ran out of time during the current validation (reported as such, not as "must match"). */
const slowPatterns = new Set<string>();

/** Ajv's regex engine: schema patterns run under a time limit; one that runs out counts as not matching. */
const timedRegExp: RegExpEngine = Object.assign(
  (pattern: string, flags: string) => {
    const re = new RegExp(pattern, flags);
    return {
      test(s: string): boolean {
        // Out of time once in this call: not run again on the call's other values (a hostile model's long array
        // would otherwise freeze the thread for the time limit once per value); they count as not matching too.
        if (slowPatterns.has(pattern)) return false;
        try {
          return testWithin(re, s, PATTERN_TIMEOUT_MS);
        } catch (e) {
          if (!(e instanceof RegexTimeoutError)) throw e;
          slowPatterns.add(pattern);
          return false;
        }
      },
      // Ajv keys compiled patterns by their text.
      toString: () => re.toString(),
    };
  },
  { code: 'knackTimedRegExp' },
);

const ajvModule = lazyRequire<{ Ajv: typeof Ajv }>('ajv');
let instance: Ajv | undefined;
/** Made on the first schema compiled: loading Ajv takes ~0.1 s that most `knack` commands never need. */
function ajv(): Ajv {
  if (!instance) {
    const { Ajv: AjvClass } = ajvModule();
    instance = new AjvClass({
      allErrors: true,
      strict: false,
      validateSchema: true,
      allowUnionTypes: true,
      code: { regExp: timedRegExp },
    });
  }
  return instance;
}

function fieldOf(e: ErrorObject): string {
  let path = e.instancePath
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((p) => (/^\d+$/.test(p) ? `[${p}]` : `.${p}`))
    .join('')
    .replace(/^\./, '');
  if (e.keyword === 'required') {
    const missing = (e.params as { missingProperty: string }).missingProperty;
    path = path ? `${path}.${missing}` : missing;
  } else if (e.keyword === 'additionalProperties') {
    const extra = (e.params as { additionalProperty: string }).additionalProperty;
    path = path ? `${path}.${extra}` : extra;
  }
  return path || '(arguments)';
}

function messageOf(e: ErrorObject): string {
  switch (e.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return 'is not a known parameter';
    case 'pattern': {
      const pattern = (e.params as { pattern: string }).pattern;
      if (slowPatterns.has(pattern))
        return `took too long to check against the schema's pattern (it backtracks on this value); send a simpler value`;
      return e.message ?? 'must match the pattern';
    }
    case 'enum':
      return `must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
    default:
      return e.message ?? `fails ${e.keyword}`;
  }
}

/** Compile a schema; throws an Error naming the schema problem when the schema itself is invalid. */
export function compileValidator(schema: JsonSchema): Validator {
  let fn: ValidateFunction;
  // `$id` would make a second compile (a reconnecting server) collide; `$schema` may name a draft Ajv's
  // default build does not ship. Both say nothing about the arguments, so they are dropped.
  const { $id: _id, $schema: _draft, ...body } = schema;
  try {
    fn = ajv().compile(body);
  } catch (e) {
    throw new Error(`invalid input schema: ${(e as Error).message}`);
  }
  return (args: unknown) => {
    slowPatterns.clear();
    if (fn(args)) return [];
    const seen = new Set<string>();
    const out: ArgProblem[] = [];
    for (const e of fn.errors ?? []) {
      const p = { field: fieldOf(e), message: messageOf(e) };
      const key = `${p.field}\u0000${p.message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(p);
    }
    return out;
  };
}

export function formatProblems(tool: string, problems: ArgProblem[]): string {
  return `invalid arguments for ${tool}: ${problems.map((p) => `${p.field}: ${p.message}`).join('; ')}`;
}
