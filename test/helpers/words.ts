// Words main sends (preload/words.ts) checked as the window says them: their English is the CLI's message, and their
// Chinese says the same with no English sentence of its own (a plain parameter, a name or a path, is blanked).
import assert from 'node:assert/strict';
import { english, fill, type Said } from '../../preload/words.js';
import { wordsZh } from '../../renderer/src/i18n/words-zh.js';

/** Three English words in a row: what a Chinese window must not show outside a name, path or value. */
export const ENGLISH_SENTENCE = /\b[A-Za-z]{2,}\b(?:[\s,]+\b[A-Za-z]{2,}\b){2,}/;

/** The words in Chinese; `blank`: each plain parameter shown as `·`. */
export function chinese(s: Said, blank = false): string {
  const zh = (wordsZh as Record<string, string>)[s.code];
  assert.ok(zh, `${s.code} has no Chinese`);
  const params: Said['params'] = {};
  for (const [k, v] of Object.entries(s.params ?? {})) params[k] = typeof v === 'object' || !blank ? v : '·';
  return fill(zh, params, (inner) => chinese(inner, blank));
}

/** `words` are the words of `message`, and their Chinese holds no English sentence. Returns the Chinese. */
export function assertSaid(words: Said | undefined, message: string, context = message): string {
  assert.ok(words, `${context}: no words`);
  assert.equal(english(words), message, context);
  assert.doesNotMatch(chinese(words, true), ENGLISH_SENTENCE, `${context}: ${chinese(words, true)}`);
  return chinese(words);
}
