// How an answer ends, in Debian's Chromium through serve mode with the fake Anthropic server: a connection dropped
// mid-answer is marked interrupted with its text kept, and Retry finishes the answer; a stalled stream times out (a
// short stall limit in settings.json); a message with no model set up says so at once, with the way to the setup steps.
// Each of these screens is checked with axe.
// No timing: each step waits for what a user sees.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, Page } from 'playwright';
import { tempDir, writeTree } from '../helpers/tmp.js';
import { startFakeAnthropic, type FakeServer } from '../helpers/fake-anthropic.js';
import {
  buildRenderer,
  chromiumPath,
  launchChromium,
  openUi,
  pollUntil,
  startServe,
  type Served,
} from './ui-harness.js';
import { saveScreens } from './ui-screens.js';

const skip = chromiumPath() ? false : 'Debian Chromium is not installed here (set KNACK_CHROMIUM)';

const home = tempDir('knack-e2e-ends-home-');
const dataDir = join(home, 'data');
const workspace = join(tempDir('knack-e2e-ends-ws-'), 'ends-project');
const rendererOut = join(tempDir('knack-e2e-ends-renderer-'), 'renderer');

let server: FakeServer;
let renderer: string;
let served: Served;
let browser: Browser;
let page: Page;

before(async () => {
  if (skip) return;
  mkdirSync(workspace, { recursive: true });
  writeTree(workspace, { 'README.md': '# ends\n' });
  // A short stall limit, as a user would set it.
  writeTree(dataDir, { 'settings.json': JSON.stringify({ agent: { stallSeconds: 5 } }) });
  server = await startFakeAnthropic();
  renderer = await buildRenderer(rendererOut);
  served = await startServe({
    renderer,
    workspace,
    home,
    dataDir,
    args: ['--provider', 'anthropic', '--model', 'fake-model', '--base-url', server.url],
    env: { ANTHROPIC_API_KEY: 'sk-ant-test-0123456789' },
  });
  browser = await launchChromium();
  page = (await openUi(browser, served.url)).page;
  await page.getByRole('textbox', { name: 'Message' }).waitFor();
  // The window is ready once the sandbox has started (its badge says so): its start blocks the engine for a moment,
  // which under load would eat into this test's 5 s stall limit.
  await page.getByRole('button', { name: 'Sandboxed' }).waitFor({ timeout: 120_000 });
});

after(async () => {
  await browser?.close();
  await served?.stop();
  await server?.close();
});

const until = (f: () => Promise<boolean>): Promise<void> => pollUntil(page, served, f, { shotDir: home });
const words = (from: number, to: number): string[] => Array.from({ length: to - from }, (_, i) => `word${from + i} `);

/** Serious or critical accessibility problems axe finds on the page as it is now. */
async function seriousA11y(p: Page): Promise<string[]> {
  const r = await new AxeBuilder({ page: p }).analyze();
  return r.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

async function send(text: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Message' }).fill(text);
  await page.keyboard.press('Enter');
}

test(
  'a connection dropped after 399 of 600 words is marked interrupted, its text kept; Retry finishes the answer',
  { skip },
  async () => {
    server.script({ chunks: words(0, 399), dropAfterChunks: true, chunkDelayMs: 2 }, { chunks: words(0, 600) });
    await send('tell me 600 words');
    const log = page.getByRole('log', { name: 'Conversation' });
    const end = log.locator('.answer-end.interrupted');
    await end.waitFor({ timeout: 120_000 });
    assert.match(
      (await end.textContent()) ?? '',
      /Interrupted — the connection was lost before the answer was complete\./,
    );
    assert.match((await end.textContent()) ?? '', /connection to anthropic was lost/);
    assert.ok(((await log.textContent()) ?? '').includes('word398'));
    // Said once: not also as a notice.
    assert.equal(await log.locator('.notice.error').count(), 0);
    assert.deepEqual(await seriousA11y(page), []);
    await saveScreens(page, 'chat-interrupted');
    await end.getByRole('button', { name: 'Retry' }).click();
    await log.getByText(/word599/).waitFor();
    await page.getByRole('button', { name: 'Send' }).waitFor();
    assert.equal(await end.getByRole('button', { name: 'Retry' }).count(), 0);
    assert.equal(server.requests.length, 2);
    assert.equal(JSON.stringify(server.requests[1]!.body.messages), JSON.stringify(server.requests[0]!.body.messages));
  },
);

test('a stream that stalls past the limit is marked timed out, with Retry', { skip }, async () => {
  server.script({ chunks: ['half an answer '], hang: true });
  await send('and now?');
  const end = page.getByRole('log', { name: 'Conversation' }).locator('.answer-end.timeout');
  await end.waitFor();
  assert.match(
    (await end.textContent()) ?? '',
    /Timed out — the model sent nothing for too long\..*sent nothing for 5 s/,
  );
  await end.getByRole('button', { name: 'Retry' }).waitFor();
  assert.deepEqual(await seriousA11y(page), []);
});

// A provider error ends the answer as failed, with the provider's reason. An HTTP 500 or 529 is retried by the SDK
// (twice) before it fails: a journey that scripts one such reply sees the retry answered (the fake server echoes when
// its script is empty), not a failure. So the HTTP case scripts one reply per attempt.
test(
  'a provider failure mid-answer, or one that outlasts the retries, is marked failed with its reason and Retry',
  { skip },
  async () => {
    server.script({ chunks: words(0, 40), failAfterChunks: 40, errorType: 'overloaded_error' });
    await send('a failing answer');
    const log = page.getByRole('log', { name: 'Conversation' });
    const failed = log.locator('.answer-end.failed');
    await failed.first().waitFor({ timeout: 120_000 });
    assert.match((await failed.first().textContent()) ?? '', /The answer failed\..*anthropic is overloaded/);
    assert.ok(((await log.textContent()) ?? '').includes('word39'));
    await failed.first().getByRole('button', { name: 'Retry' }).waitFor();
    assert.deepEqual(await seriousA11y(page), []);

    const before = server.requests.length;
    server.script({ status: 500 }, { status: 500 }, { status: 500 });
    await send('and again');
    await until(async () => (await failed.count()) === 2);
    assert.match((await failed.nth(1).textContent()) ?? '', /anthropic had an internal error \(500\)/);
    assert.equal(server.requests.length - before, 3);
    await failed.nth(1).getByRole('button', { name: 'Retry' }).waitFor();
    assert.deepEqual(await seriousA11y(page), []);
  },
);

test(
  'with no model set up, a message says "No model is set up" at once, with a button to the setup steps',
  { skip },
  async () => {
    await browser.close();
    await served.stop();
    const bare = join(tempDir('knack-e2e-ends-bare-'), 'home');
    served = await startServe({
      renderer,
      workspace,
      home: bare,
      dataDir: join(bare, 'data'),
      env: { ANTHROPIC_API_KEY: '', OPENAI_API_KEY: '' },
    });
    browser = await launchChromium();
    page = (await openUi(browser, served.url)).page;
    await send('hello?');
    const end = page.getByRole('log', { name: 'Conversation' }).locator('.answer-end.no_model');
    await end.waitFor();
    assert.match((await end.textContent()) ?? '', /No model is set up/);
    assert.deepEqual(await seriousA11y(page), []);
    await end.getByRole('button', { name: 'Set up a model' }).click();
    // The setup steps, at the provider; Cancel leaves Settings on screen.
    await page.getByRole('heading', { name: 'Choose a model provider' }).waitFor();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await until(async () => (await page.getByRole('heading', { name: 'Settings' }).count()) > 0);
  },
);
