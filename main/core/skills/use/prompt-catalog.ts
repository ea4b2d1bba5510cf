// The skill catalog as prompt text: compact, escaped `name: summary` lines inside a token budget (real tokenizer).
// Over budget: shorten summaries first (least relevant first), then drop the least relevant entries; report both.
import { DEFAULT_SETTINGS, type Settings } from '../../config/index.js';
import { countTokens } from '../../base/index.js';
import { nameKey } from '../../base/index.js';
import { TIER_RANK, type CatalogEntry } from '../format/index.js';

export interface PromptCatalogOptions {
  /** Budget in tokens; default from settings (budgetTokens, or budgetFraction × contextWindow). */
  budgetTokens?: number;
  settings?: Settings['catalog'];
  /** Higher = more relevant (kept longer). Overrides `query`. */
  relevance?: (entry: CatalogEntry) => number;
  /** The user's request: entries sharing words with it rank higher. */
  query?: string;
  /** A shortened summary keeps at most this many characters (default 80). */
  shortChars?: number;
}

export interface PromptCatalog {
  text: string;
  tokens: number;
  budget: number;
  /** Names listed, in the order they appear. */
  included: string[];
  /** Names listed with a shortened summary. */
  shortened: string[];
  /** Names left out to fit the budget (still reachable through SkillSearch). */
  dropped: string[];
}

const HEADER = '<available_skills>\n';
const FOOTER = '</available_skills>';

/** Escape text for the prompt's XML-ish block. */
export function escapePrompt(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** One catalog line: `name: summary`, whitespace collapsed, escaped. */
export function catalogLine(name: string, summary: string): string {
  return `${escapePrompt(name)}: ${escapePrompt(summary.replace(/\s+/g, ' ').trim())}\n`;
}

/** First sentence, at most `max` characters, cut on a word boundary with an ellipsis. */
export function shortenSummary(summary: string, max: number): string {
  const flat = summary.replace(/\s+/g, ' ').trim();
  const sentence = /^(.+?[.!?。！？])(\s|$)/u.exec(flat)?.[1] ?? flat;
  if ([...sentence].length <= max) return sentence;
  const cut = [...sentence].slice(0, max - 1).join('');
  const sp = cut.lastIndexOf(' ');
  return (sp > max / 2 ? cut.slice(0, sp) : cut).replace(/[\s,;:]+$/, '') + '…';
}

export function defaultBudget(settings: Settings['catalog']): number {
  return settings.budgetTokens ?? Math.floor(settings.contextWindow * settings.budgetFraction);
}

function words(s: string): Set<string> {
  return new Set(
    s
      .normalize('NFKC')
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w.length > 2),
  );
}

/** Default ranking: words shared with the query, then tier (project first), then name order. */
function queryRelevance(query: string | undefined): (e: CatalogEntry) => number {
  const q = query ? words(query) : new Set<string>();
  return (e) => {
    let hits = 0;
    if (q.size)
      for (const w of words(`${e.manifest.name} ${e.manifest.description} ${e.manifest.readWhen.join(' ')}`))
        if (q.has(w)) hits++;
    return hits * 10 + TIER_RANK[e.tier];
  };
}

function dropNote(n: number): string {
  return `(${n} more skill${n === 1 ? '' : 's'} not listed: use SkillSearch to find them)\n`;
}

/**
 * Build the catalog text for the prompt from enabled, unshadowed entries (others are ignored).
 * Entries are listed in name order; relevance only decides what is shortened or dropped.
 */
export function buildPromptCatalog(entries: CatalogEntry[], opts: PromptCatalogOptions = {}): PromptCatalog {
  const settings = opts.settings ?? DEFAULT_SETTINGS.catalog;
  const budget = opts.budgetTokens ?? defaultBudget(settings);
  const shortChars = opts.shortChars ?? 80;
  const usable = entries.filter((e) => e.enabled && !e.shadowedBy);
  usable.sort((a, b) => (nameKey(a.manifest.name) < nameKey(b.manifest.name) ? -1 : 1));
  const rel = opts.relevance ?? queryRelevance(opts.query);
  const items = usable.map((e, i) => {
    const line = catalogLine(e.manifest.name, e.manifest.description);
    return { e, i, score: rel(e), line, tokens: countTokens(line), short: false, dropped: false };
  });
  // Least relevant first; ties broken by later name first so earlier names survive.
  const ascending = [...items].sort((a, b) => a.score - b.score || b.i - a.i);
  const frame = countTokens(HEADER + FOOTER);
  let total = frame + items.reduce((s, x) => s + x.tokens, 0);
  const shortened: string[] = [];
  const dropped: string[] = [];
  const render = (): string => {
    const kept = items.filter((x) => !x.dropped);
    const note = dropped.length ? dropNote(dropped.length) : '';
    return kept.length || note ? HEADER + kept.map((x) => x.line).join('') + note + FOOTER : '';
  };
  if (total > budget) {
    for (const x of ascending) {
      if (total <= budget) break;
      const s = catalogLine(x.e.manifest.name, shortenSummary(x.e.manifest.description, shortChars));
      const t = countTokens(s);
      if (t < x.tokens) {
        total -= x.tokens - t;
        x.line = s;
        x.tokens = t;
        x.short = true;
        shortened.push(x.e.manifest.name);
      }
    }
  }
  // Drop until the real count of the rendered text (note included) fits.
  let text = render();
  let tokens = countTokens(text);
  for (const x of ascending) {
    if (tokens <= budget) break;
    x.dropped = true;
    dropped.push(x.e.manifest.name);
    total -= x.tokens;
    // Cheap estimate first; recount the real text only when the estimate says it may fit.
    if (total + countTokens(dropNote(dropped.length)) <= budget + 2) {
      text = render();
      tokens = countTokens(text);
    }
  }
  if (tokens > budget) {
    text = render();
    tokens = countTokens(text);
  }
  const kept = items.filter((x) => !x.dropped);
  if (kept.length === 0 && tokens > budget) {
    text = '';
    tokens = 0;
  }
  return {
    text,
    tokens,
    budget,
    included: kept.map((x) => x.e.manifest.name),
    shortened: shortened.filter((n) => !dropped.includes(n)),
    dropped,
  };
}
