// Query normalisation for ranked search: how people ask ("can you…", "I'd like to…", "hi, please…") is not what
// they ask for. Turns a request into weighted terms: conversational fillers dropped, numbers and IDs dropped,
// literal values (quoted strings, URLs, paths) kept at a lower weight. Shared by ToolSearch and SkillSearch.
import { terms as sharedTerms } from './tokenize.js';

export interface WeightedTerm {
  term: string;
  weight: number;
}

export interface QueryNormalization {
  /** Weight of terms inside quoted strings, URLs and file paths: values to pass, not the task (default 0.5). */
  literalWeight?: number;
  /** Drop numbers, dates, times and ID-like tokens (default true). */
  dropNumbers?: boolean;
  /** Drop conversational fillers (default true). */
  dropFillers?: boolean;
  /**
   * Weight of the type words a value stands for (a date → "date", a clock time → "time", a URL → "url", an e-mail
   * address → "email"): the tool needs the kind of value the user gave, whatever its digits (default 0.5; 0 = off).
   */
  hintWeight?: number;
}

const MONTH =
  '(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';
const WEEKDAY = '(?:mon|tues|wednes|thurs|fri|satur|sun)day';
/** Value shapes and the type word each stands for. */
const HINTS: [RegExp, string][] = [
  [
    new RegExp(
      `\\b(?:\\d{4}[-./]\\d{1,2}[-./]\\d{1,2}|\\d{1,2}[-/.]\\d{1,2}[-/.]\\d{2,4}|${MONTH}\\.? \\d{1,2}(?:st|nd|rd|th)?|\\d{1,2}(?:st|nd|rd|th)? (?:of )?${MONTH}|${WEEKDAY}|tomorrow|yesterday|tonight|next (?:week|month|year)|this (?:week|month|year|weekend))\\b`,
      'i',
    ),
    'date',
  ],
  [/\b(?:\d{1,2}:\d{2}(?::\d{2})?\s*(?:[ap]\.?m\.?)?|\d{1,2}\s*[ap]\.?m\.?)(?![\p{L}\p{N}])/iu, 'time'],
  [/\b(?:when (?:did|was|is|were|will|does|do)|what (?:year|date|day))\b/i, 'date'],
  [/\bhttps?:\/\/\S+/i, 'url'],
  [/\b[\w.+-]+@[\w-]+\.[\w.]+/, 'email'],
];

/** Type words for the values a request contains (see QueryNormalization.hintWeight). */
export function valueHints(query: string): string[] {
  return HINTS.filter(([re]) => re.test(query)).map(([, word]) => word);
}

/**
 * Words that say how someone asks, not what for: greetings, politeness and request verbs ("tell me", "I'd
 * like"). Stemmed like index terms. Content verbs (find, get, list, show, check) stay: tools are named by them.
 */
export const REQUEST_FILLERS = new Set(
  sharedTerms(
    'hi hello hey thanks thank kindly could would should might may possible possibly let tell like love wonder ' +
      'wondering know curious able wanna gonna also really anything something someone somebody sure okay ok ' +
      "yes hmm i'm i'd i've i'll it's that's what's there's don't can't won't let's we're we'd we'll you're",
  ),
);

/** Number-ish tokens: 42, 3.5, 11th, 2pm, 10k, 0x1f, 2023-10-01 pieces; an ID is any token with 3+ digits. */
const NUMBERISH = /^(?:\d+(?:[.,:]\d+)*(?:st|nd|rd|th|am|pm|k|m|s|x|px|kg|km|mb|gb|ms)?|0x[0-9a-f]+)$/;
const ID_LIKE = /^(?=(?:.*\d){3})[a-z0-9]+$/;

export function isNumberish(term: string): boolean {
  return NUMBERISH.test(term) || ID_LIKE.test(term);
}

/** Spans of literal values: quoted strings, URLs, e-mail addresses and file paths. */
const LITERAL =
  /(["“”'‘’`「『])(?:(?!\1).){1,200}?\1|\bhttps?:\/\/\S+|\b[\w.+-]+@[\w-]+\.[\w.]+|(?:^|\s)(?:[a-zA-Z]:)?[\\/][^\s]+/gu;

/**
 * The weighted terms of a request. `tokenize` is the index's own term function (so query and index agree).
 * A term's weight is the highest any of its occurrences earns; a term both literal and plain counts as plain.
 */
export function requestTerms(
  query: string,
  tokenize: (text: string) => string[] = sharedTerms,
  opts: QueryNormalization = {},
): WeightedTerm[] {
  const literalWeight = opts.literalWeight ?? 0.5;
  const dropNumbers = opts.dropNumbers ?? true;
  const dropFillers = opts.dropFillers ?? true;
  const hintWeight = opts.hintWeight ?? 0.5;
  const weights = new Map<string, number>();
  const put = (text: string, w: number) => {
    for (const t of tokenize(text)) {
      if (dropNumbers && isNumberish(t)) continue;
      if (dropFillers && REQUEST_FILLERS.has(t)) continue;
      if ((weights.get(t) ?? 0) < w) weights.set(t, w);
    }
  };
  let last = 0;
  // An apostrophe inside a word (don't, user's) opens no quote: only quotes at a word's edge count.
  for (const m of query.matchAll(LITERAL)) {
    const at = m.index ?? 0;
    if (/^['’]/.test(m[0]) && at > 0 && /[\p{L}\p{N}]/u.test(query[at - 1]!)) continue;
    put(query.slice(last, at), 1);
    put(m[0], literalWeight);
    last = at + m[0].length;
  }
  put(query.slice(last), 1);
  if (hintWeight > 0) for (const h of valueHints(query)) put(h, hintWeight);
  const out = [...weights].map(([term, weight]) => ({ term, weight }));
  // A request that is nothing but fillers or numbers still searches for what it says.
  if (out.length === 0) return [...new Set(tokenize(query))].map((term) => ({ term, weight: 1 }));
  return out;
}
