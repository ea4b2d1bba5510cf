// What the UI bench and the UI profile stream: a long Markdown answer (prose, lists, code, tables) cut into small
// chunks, the page script that records long tasks and frame gaps, and a wait that does not load the page.
import type { Page } from 'playwright';

export const WORDS =
  'review commit deploy test build lint format database query schema migrate release branch merge docs api cache index search render parse compile bundle profile trace log metric alert backup restore'.split(
    ' ',
  );

/** About `chars` characters of varied Markdown (≈ chars / 4 tokens), in 14-character stream chunks. */
export function longAnswer(chars = 80_000): string[] {
  const parts: string[] = [];
  let size = 0;
  for (let s = 0; size < chars; s++) {
    const section = [
      `## Section ${s}\n\nThis part explains how the ${WORDS[s % WORDS.length]} step works and why it matters for the release. It has **bold**, \`code\` and a [link](https://example.com/${s}).\n\n`,
      `- first point about ${WORDS[(s + 1) % WORDS.length]}\n- second point about ${WORDS[(s + 2) % WORDS.length]}\n- third point\n\n`,
      '```ts\n' +
        Array.from({ length: 8 }, (_, i) => `const v${i} = compute(${i}, "${WORDS[(s + i) % WORDS.length]}");`).join(
          '\n',
        ) +
        '\n```\n\n',
      s % 10 === 0 ? '| a | b | c |\n|---|---|---|\n| 1 | 2 | 3 |\n| 4 | 5 | 6 |\n\n' : '',
    ].join('');
    parts.push(section);
    size += section.length;
  }
  const text = parts.join('').slice(0, chars);
  const chunks: string[] = [];
  for (let i = 0; i < text.length; i += 14) chunks.push(text.slice(i, i + 14));
  return chunks;
}

/** Init script: long tasks (> 50 ms) into window.__lt, animation-frame gaps into window.__frames while `on`. */
export const OBSERVE = `
  window.__lt = [];
  new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__lt.push({ start: e.startTime, ms: e.duration }); }).observe({ type: 'longtask', buffered: true });
  window.__frames = { on: false, gaps: [] };
  let last = 0;
  const tick = (t) => { if (window.__frames.on && last) window.__frames.gaps.push(t - last); last = t; requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
`;

/**
 * Wait until the page has an element matching `selector`, polled every 250 ms from Node. Playwright's role locators
 * walk the page's accessibility tree on every animation frame, which on a long transcript makes long tasks itself.
 */
export async function until(page: Page, selector: string, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (
    !(await page.evaluate(
      (s) => !!(globalThis as unknown as { document: { querySelector(s: string): unknown } }).document.querySelector(s),
      selector,
    ))
  ) {
    if (Date.now() > end) throw new Error(`${selector} did not appear within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
