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
import { english, say, type Said, type WordCode } from '../base/index.js';

export interface JsonText {
  /** The value, when the text is JSON. */
  value?: unknown;
  /** Line (1-based) of each object key, by its dotted path; keys inside lists are not listed. */
  keys: Map<string, number>;
  /** Where the text stops being JSON (undefined when it is JSON). */
  error?: { line: number; column: number; message: string; words: Said };
}

/** Deepest nesting read: a settings file needs a handful of levels; a deeper one is reported, not followed. */
export const MAX_DEPTH = 64;

/** What each of jsonc-parser's error codes means to a person editing the file (by printParseErrorCode's names). */
const SAID: Record<string, WordCode> = {
  InvalidSymbol: 'jsonText.value',
  InvalidNumberFormat: 'jsonText.number',
  PropertyNameExpected: 'jsonText.key',
  ValueExpected: 'jsonText.value',
  ColonExpected: 'jsonText.colon',
  CommaExpected: 'jsonText.comma',
  CloseBraceExpected: 'jsonText.closeBrace',
  CloseBracketExpected: 'jsonText.closeBracket',
  EndOfFileExpected: 'jsonText.afterEnd',
  InvalidCommentToken: 'jsonText.comment',
  UnexpectedEndOfComment: 'jsonText.comment',
  UnexpectedEndOfString: 'jsonText.string',
  UnexpectedEndOfNumber: 'jsonText.numberEnds',
  InvalidUnicode: 'jsonText.unicode',
  InvalidEscapeCharacter: 'jsonText.escape',
  InvalidCharacter: 'jsonText.control',
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
  const fail = (offset: number, words: Said): JsonText => ({
    keys,
    error: { ...at(offset), message: english(words), words },
  });

  const deep = tooDeep(text);
  const errors: ParseError[] = [];
  const tree = parseTree(deep === undefined ? text : text.slice(0, deep), errors, {
    allowTrailingComma: false,
    disallowComments: true,
    allowEmptyContent: false,
  });
  if (tree) listKeys(tree, '', (path, offset) => keys.set(path, at(offset).line));
  if (deep !== undefined) return fail(deep, say('jsonText.tooDeep', { max: MAX_DEPTH }));
  const first = errors[0];
  if (first) return fail(first.offset, describe(text, first));
  if (!tree) return fail(text.length, say('jsonText.endsEarly'));
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

function describe(text: string, e: ParseError): Said {
  const name = printParseErrorCode(e.error);
  const next = text[e.offset];
  if (e.offset >= text.length && name !== 'EndOfFileExpected') return say('jsonText.endsEarly');
  // A comma right before } or ]: the mistake people make most.
  if ((next === '}' || next === ']') && /,\s*$/.test(text.slice(0, e.offset)))
    return say('jsonText.trailingComma', { next });
  const code =
    name === 'InvalidSymbol' && getLocation(text, e.offset).isAtPropertyKey ? SAID.PropertyNameExpected! : SAID[name];
  const said = code ? say(code) : say('json.other', { error: name });
  return next === undefined ? said : say('jsonText.unexpected', { char: JSON.stringify(next), said });
}
