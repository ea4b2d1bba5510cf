// The check the Chinese journeys make on every screen: the page's visible text, read from the page itself, holds no
// English sentence, a run of three or more English words.
//
// What may stay English (the allow-list, by where it is shown): code, commands, paths and rule patterns (`code`,
// `pre`, `kbd`, the offending line of a finding); what another party said in its own words, shown in code (a
// provider's error, a connection's, a YAML parser's message); what a skill says of itself (its description, its
// SKILL.md shown on its page and in the editor); what an MCP server says of its tools (`data-own-words`); names (skills,
// tools, models, providers), which are single words and never make a run.
import type { Page } from 'playwright';

/** Shown as is in any language: code, commands, paths, rule patterns, what skills and MCP servers say of themselves. */
const ALLOWED = [
  'code',
  'pre',
  'kbd',
  '.excerpt',
  '.skill-desc',
  '.skill-body',
  '[data-skill-text]',
  '[data-own-words]',
];

/** The page's visible text, one entry per text node, leaving out what ALLOWED names. */
export async function visibleTexts(page: Page): Promise<string[]> {
  return page.evaluate((allowed) => {
    // page globals (this file compiles for Node, without the DOM library)
    interface El {
      closest(s: string): El | null;
      checkVisibility(): boolean;
    }
    interface TextNode {
      textContent: string | null;
      parentElement: El | null;
    }
    const d = (
      globalThis as unknown as {
        document: {
          body: unknown;
          createTreeWalker(root: unknown, what: number): { nextNode(): TextNode | null };
        };
      }
    ).document;
    const walker = d.createTreeWalker(d.body, 4 /* NodeFilter.SHOW_TEXT */);
    const out: string[] = [];
    const skipSel = allowed.join(', ');
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = n.textContent?.trim();
      const el = n.parentElement;
      if (!text || !el || el.closest(skipSel) || !el.checkVisibility()) continue;
      out.push(text);
    }
    return out;
  }, ALLOWED);
}

/** English sentences on screen: three or more English words in a row (words of letters only: a path or code breaks a run). */
export async function englishOnScreen(page: Page): Promise<string[]> {
  const found: string[] = [];
  for (const text of await visibleTexts(page)) {
    let run: string[] = [];
    for (const token of [...text.split(/\s+/), '']) {
      if (/^[("“'‘]?[A-Za-z]+(?:'[a-z]+)?[.,:;!?)"”'’…]*$/.test(token)) run.push(token);
      else {
        if (run.length >= 3) found.push(`${run.join(' ')}   (in: ${text.slice(0, 120)})`);
        run = [];
      }
    }
  }
  return found;
}
