// A JSON settings file as text: its value, the line of each key (`policy.ceiling.network` → 4) and, for text that is not
// JSON, the line and column where it breaks, in words. jsonc-parser reads it (strict JSON: no comments, no trailing
// commas) with positions; its scanner, which does not recurse, guards the depth first (its parser recurses).
import {
  createScanner,
  getLocation,
  getNodeValue,
  parseTree,
  printParseErrorCode,
  type Node,
  type ParseError,
} from 'jsonc-parser';

export interface JsonText {
  /** The value, when the text is JSON. */
  value?: unknown;
  /** Line (1-based) of each object key, by its dotted path; keys inside lists are not listed. */
  keys: Map<string, number>;
  /** Where the text stops being JSON (undefined when it is JSON). */
  error?: { line: number; column: number; message: string };
}

/** Deepest nesting read: a settings file needs a handful of levels; a deeper one is reported, not followed. */
export const MAX_DEPTH = 64;

/** What each of jsonc-parser's error codes means to a person editing the file (by printParseErrorCode's names). */
const SAID: Record<string, string> = {
  InvalidSymbol: 'expected a value: a string, number, true, false, null, an object or a list',
  InvalidNumberFormat: 'a number is not written as JSON writes numbers',
  PropertyNameExpected: 'expected a double-quoted string (a key)',
  ValueExpected: 'expected a value: a string, number, true, false, null, an object or a list',
  ColonExpected: 'expected : after the key',
  CommaExpected: 'expected , or the closing bracket — a comma may be missing',
  CloseBraceExpected: 'expected , or } — a comma may be missing',
  CloseBracketExpected: 'expected , or ] — a comma may be missing',
  EndOfFileExpected: 'unexpected text after the end of the settings object',
  InvalidCommentToken: 'comments are not JSON',
  UnexpectedEndOfComment: 'comments are not JSON',
  UnexpectedEndOfString: 'a string is not closed (missing ") or holds a line break or control character',
  UnexpectedEndOfNumber: 'a number ends too early',
  InvalidUnicode: 'a \\u escape needs four hex digits',
  InvalidEscapeCharacter: 'unknown escape in a string',
  InvalidCharacter: 'a line break or control character inside a string (escape it, or close the string with ")',
};

/** Read `text` as strict JSON, with where its keys are and where it breaks. */
export function readJsonText(text: string): JsonText {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  const at = (offset: number): { line: number; column: number } => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - starts[lo]! + 1 };
  };
  const keys = new Map<string, number>();
  const fail = (offset: number, message: string): JsonText => ({ keys, error: { ...at(offset), message } });

  const deep = tooDeep(text);
  const errors: ParseError[] = [];
  const tree = parseTree(deep === undefined ? text : text.slice(0, deep), errors, {
    allowTrailingComma: false,
    disallowComments: true,
    allowEmptyContent: false,
  });
  if (tree) listKeys(tree, '', (path, offset) => keys.set(path, at(offset).line));
  if (deep !== undefined) return fail(deep, `nested more than ${MAX_DEPTH} levels deep (a settings file needs a few)`);
  const first = errors[0];
  if (first) return fail(first.offset, describe(text, first));
  if (!tree) return fail(text.length, 'the file ends too early');
  return { value: getNodeValue(tree) as unknown, keys };
}

/** jsonc-parser's SyntaxKind values (a const enum, which this build cannot read across modules). */
const OPEN_BRACE = 1;
const CLOSE_BRACE = 2;
const OPEN_BRACKET = 3;
const CLOSE_BRACKET = 4;
const EOF = 17;

/**
 * The offset of the first bracket past MAX_DEPTH, or undefined. jsonc-parser's tree builder recurses: a reader of
 * JSON that others wrote (a cloned repository's files) checks this first.
 */
export function tooDeep(text: string): number | undefined {
  const scanner = createScanner(text, true);
  let depth = 0;
  for (let k: number = scanner.scan(); k !== EOF; k = scanner.scan()) {
    if (k === OPEN_BRACE || k === OPEN_BRACKET) {
      if (++depth > MAX_DEPTH) return scanner.getTokenOffset();
    } else if (k === CLOSE_BRACE || k === CLOSE_BRACKET) depth--;
  }
  return undefined;
}

function listKeys(node: Node, path: string, add: (path: string, offset: number) => void): void {
  if (node.type !== 'object') return;
  for (const prop of node.children ?? []) {
    const [key, value] = prop.children ?? [];
    if (!key || typeof key.value !== 'string') continue;
    const p = path ? `${path}.${key.value}` : key.value;
    add(p, key.offset);
    if (value) listKeys(value, p, add);
  }
}

function describe(text: string, e: ParseError): string {
  const name = printParseErrorCode(e.error);
  const next = text[e.offset];
  if (e.offset >= text.length && name !== 'EndOfFileExpected') return 'the file ends too early';
  // A comma right before } or ]: the mistake people make most.
  if ((next === '}' || next === ']') && /,\s*$/.test(text.slice(0, e.offset)))
    return `a comma before ${next} (JSON allows no trailing comma)`;
  const got = next === undefined ? '' : `unexpected ${JSON.stringify(next)} (`;
  const said =
    name === 'InvalidSymbol' && getLocation(text, e.offset).isAtPropertyKey
      ? SAID.PropertyNameExpected
      : (SAID[name] ?? name);
  return `${got}${said}${got ? ')' : ''}`;
}
