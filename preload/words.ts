// What main says to a person, as words: a code plus parameters. The English of every code is in the one table below
// (the CLI prints it, the window falls back to it); the window says each code in its language (renderer/src/i18n).
//
//   say('loadDependency', { skill: 'git' })  → { code, params }   crosses the contract as it is
//   english(said)                            → "needed by git"     for the terminal, logs and stored text
//
// Pure data: main, the preload and the renderer import it (through contract.ts); it never imports Node.
import { z } from 'zod';

/** A message in words: its code (a key of WORDS) and its parameters (plain values, or words themselves). */
export interface Said {
  code: string;
  params?: { [name: string]: string | number | Said };
}

export const Said: z.ZodType<Said> = z.lazy(() =>
  z.object({
    code: z.string().min(1).max(200),
    params: z.record(z.string(), z.union([z.string(), z.number(), Said])).optional(),
  }),
);

/**
 * Every code and its English, `{{name}}` for a parameter. A code added here needs its Chinese in
 * renderer/src/i18n/words-zh.ts (the type holds it, and test/unit/renderer/words.test.tsx checks both say the same
 * parameters). Grouped by who says it.
 */
export const WORDS = {
  // why a skill was loaded into the conversation (agent session, matcher)
  loadNamed: 'named as {{text}}',
  loadTrigger: 'the trigger "{{trigger}}" matched "{{matched}}"',
  loadTriggerSynonym: 'the trigger "{{trigger}}" matched "{{matched}}" (synonym)',
  loadTriggerSkillSynonym: 'the trigger "{{trigger}}" matched "{{matched}}" (skill synonym)',
  loadName: 'its name "{{trigger}}" matched "{{matched}}"',
  loadNameSynonym: 'its name "{{trigger}}" matched "{{matched}}" (synonym)',
  loadNameSkillSynonym: 'its name "{{trigger}}" matched "{{matched}}" (skill synonym)',
  loadMatched: 'matched the message',
  loadOver:
    '{{why}}; chosen over the {{overTier}} skill {{over}}, matched by the same words (a {{tier}} skill wins them)',
  loadDependency: 'needed by {{skill}}',
  loadModel: 'the model asked for it',
  loadUser: 'loaded by the user',
  loadRecovered: 'SKILL.md changed since the session was saved',
  // the tiers a skill lives in, as a word inside another message
  tierBuiltin: 'built-in',
  tierUser: 'user',
  tierProject: 'project',
} as const;

export type WordCode = keyof typeof WORDS;
export const WORD_CODES = Object.keys(WORDS) as WordCode[];

/** Words for `code` with `params` (what main sends). */
export function say(code: WordCode, params?: Said['params']): Said {
  return params && Object.keys(params).length ? { code, params } : { code };
}

/** The parameter names a template uses, in order of appearance (`{{name}}`). */
export function placeholders(template: string): string[] {
  return [...template.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]!);
}

/** Fill a template's `{{name}}` from `params`, words inside it said by `inner` (a missing one stays visible). */
export function fill(template: string, params: Said['params'], inner: (s: Said) => string): string {
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => {
    const v = params?.[name];
    if (v === undefined) return whole;
    return typeof v === 'object' ? inner(v) : String(v);
  });
}

/** The words in English: the CLI's text, and the window's when a code is unknown to it. An unknown code shows itself. */
export function english(s: Said): string {
  const template = Object.prototype.hasOwnProperty.call(WORDS, s.code) ? WORDS[s.code as WordCode] : undefined;
  if (template === undefined) return s.code;
  return fill(template, s.params, english);
}
