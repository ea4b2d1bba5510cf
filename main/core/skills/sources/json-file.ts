// A JSON file of a source (marketplace.json, skills.lock.json) read so that what is wrong with it names file:line and
// field, in words: the nesting bound first (jsonc-parser's tree builder recurses), then the syntax, then the shape.
// jsonc-parser finds the line of a field; zod checks the shape, and its first problem is said in words here.
import { findNodeAtLocation, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import type { z } from 'zod';
import { MAX_DEPTH, tooDeep } from '../../config/index.js';
import { say, WORDS, type Said, type WordCode } from '../../base/index.js';
import { SourceError } from './spec.js';

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** `a.b[2].c`: a field path as people write it. */
function fieldName(path: readonly (string | number)[]): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i ? `.${p}` : p)).join('');
}

export interface JsonFile {
  text: string;
  tree: Node;
  /** The field's line, or its nearest parent's when the field is missing. */
  lineOf(path: readonly (string | number)[]): number;
  /** A problem at `path`: `file:line: field: problem`, in words. */
  fail(path: readonly (string | number)[], problem: Said, field?: string): never;
  /** zod's first problem with the value at `prefix`, said as `fail` says it. */
  failIssue(prefix: readonly (string | number)[], issue: z.core.$ZodIssue): never;
}

/** Read JSON text that must be an object tree (no comments, no trailing commas), or throw naming file and line. */
export function readJsonFile(text: string, file: string): JsonFile {
  const deep = tooDeep(text);
  if (deep !== undefined)
    throw new SourceError(
      say('file.atLine', { file, line: lineAt(text, deep), problem: say('json.tooDeep', { max: MAX_DEPTH }) }),
    );
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, { allowTrailingComma: false, disallowComments: true });
  if (errors.length || !tree) {
    const e = errors[0];
    throw new SourceError(
      say('file.atLine', {
        file,
        line: e ? lineAt(text, e.offset) : 1,
        problem: e ? say('json.invalid', { error: printParseErrorCode(e.error) }) : say('json.emptyFile'),
      }),
    );
  }
  const lineOf = (path: readonly (string | number)[]) => {
    for (let k = path.length; k >= 0; k--) {
      const node = findNodeAtLocation(tree, path.slice(0, k) as (string | number)[]);
      if (node) return lineAt(text, node.offset);
    }
    return 1;
  };
  const fail = (path: readonly (string | number)[], problem: Said, field = fieldName(path)): never => {
    throw new SourceError(say('file.atField', { file, line: lineOf(path), field: field || '(top)', problem }));
  };
  return {
    text,
    tree,
    lineOf,
    fail,
    failIssue(prefix, issue) {
      const path = [
        ...prefix,
        ...(issue.path as (string | number)[]),
        ...(issue.code === 'unrecognized_keys' && issue.keys[0] !== undefined ? [issue.keys[0]] : []),
      ];
      const present = findNodeAtLocation(tree, path) !== undefined;
      return fail(path, issueWords(issue, present));
    },
  };
}

const TYPES: Record<string, WordCode> = {
  string: 'json.what.string',
  number: 'json.what.number',
  boolean: 'json.what.boolean',
  object: 'json.what.object',
  array: 'json.what.list',
};

/**
 * A zod problem in words. A schema's own message that is a word code (`lock.commit`) is said as that code; zod's
 * English (its wording for a case not listed here) is kept as it is.
 */
function issueWords(issue: z.core.$ZodIssue, present: boolean): Said {
  if (Object.prototype.hasOwnProperty.call(WORDS, issue.message)) return say(issue.message as WordCode);
  switch (issue.code) {
    case 'invalid_type':
      if (!present) return say('json.missing');
      return say('json.mustBe', {
        what: TYPES[issue.expected] ? say(TYPES[issue.expected]!) : say('json.what.other', { type: issue.expected }),
      });
    case 'too_small':
      if (issue.origin === 'string' && Number(issue.minimum) === 1) return say('json.notEmpty');
      break;
    case 'invalid_format':
      return say('json.form');
    case 'invalid_value':
      return say('json.mustBe', {
        what: issue.values.map((v) => JSON.stringify(v)).join(', '),
      });
    case 'unrecognized_keys':
      return say('json.unknownKey', { key: issue.keys.join(', ') });
  }
  return say('json.other', { error: issue.message });
}
