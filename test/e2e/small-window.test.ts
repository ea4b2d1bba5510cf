// The chat in a 1024 × 640 window, in Debian's Chromium through serve mode: wide enough to use (most of the width,
// more with the panels folded), never a sideways scroll (a long code line scrolls inside its block), and the message
// box on screen with a long conversation above it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright';
import { journey, skip } from './journey.js';

const app = journey({
  name: 'small',
  untilMs: 60_000,
  beforeLoad: (page) => page.setViewportSize({ width: 1024, height: 640 }),
  ready: ({ page }) => page.getByRole('textbox', { name: 'Message' }).waitFor({ timeout: 60_000 }),
});

/** The page's own sideways overflow (px): what a user would have to scroll sideways to see. */
const sideways = (page: Page) =>
  page
    .locator('html')
    .evaluate((el) => Math.max(el.scrollWidth, el.lastElementChild?.scrollWidth ?? 0) - el.clientWidth);

async function chatWidth(page: Page): Promise<number> {
  return (await page.getByRole('region', { name: 'Chat' }).boundingBox())!.width;
}

/** The message box lies inside the 640 px tall viewport, whole. */
async function boxOnScreen(page: Page): Promise<void> {
  const b = (await page.getByRole('textbox', { name: 'Message' }).boundingBox())!;
  assert.ok(b.y >= 0 && b.y + b.height <= 640, `message box at y ${b.y}, height ${b.height}`);
}

test(
  'at 1024 × 640 the chat has most of the width, no sideways scroll, and the message box in view',
  { skip },
  async () => {
    const { page, server } = app;
    const width = await chatWidth(page);
    assert.ok(width >= 0.6 * 1024, `the chat is ${width} px wide of 1024`);
    assert.equal(await sideways(page), 0);
    await boxOnScreen(page);

    // A long conversation, with a code line far wider than the window.
    const wide = `\`\`\`\n${'const x = "'.padEnd(400, 'y')}";\n\`\`\``;
    for (let i = 1; i <= 4; i++) {
      server.script({ text: `Answer ${i}.\n\n${wide}\n\n${'A long paragraph of words. '.repeat(40)}` });
      await page.getByRole('textbox', { name: 'Message' }).fill(`question ${i}`);
      await page.keyboard.press('Enter');
      await page.getByText(`Answer ${i}.`).waitFor({ timeout: 60_000 });
      await page.getByRole('button', { name: 'Send', exact: true }).waitFor({ timeout: 60_000 });
    }
    assert.equal(await sideways(page), 0, 'no sideways scroll with a 400-character code line');
    await boxOnScreen(page);

    // Both panels folded: the chat takes the freed width, still with no sideways scroll.
    for (const name of ['Show or hide the skills list', 'Show or hide loaded skills and context']) {
      const b = page.getByRole('button', { name });
      if ((await b.getAttribute('aria-expanded')) !== 'false') await b.click();
      await app.until(async () => (await b.getAttribute('aria-expanded')) === 'false');
    }
    const folded = await chatWidth(page);
    assert.ok(folded >= 0.9 * 1024, `folded, the chat is ${folded} px wide of 1024`);
    assert.equal(await sideways(page), 0);
    await boxOnScreen(page);
  },
);
