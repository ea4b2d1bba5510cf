// How an answer ends, in Debian's Chromium through serve mode with the fake Anthropic server: a connection dropped
// mid-answer is marked interrupted with its text kept, and Retry finishes the answer; a stalled stream times out (a
// short stall limit in settings.json); a message with no model set up says so at once, with the way to the setup steps.
// Each of these screens is checked with axe.
// No timing: each step waits for what a user sees.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { journey, seriousA11y, skip } from './journey.js';
import { saveScreens } from './ui-screens.js';

const app = journey({
  name: 'ends',
  // A short stall limit, as a user would set it: long enough that a loaded machine's pause in the middle of a streaming
  // answer is not taken for a stall (5 s was, at load 15-20), short enough for the stall test to wait it out.
  data: { 'settings.json': JSON.stringify({ agent: { stallSeconds: 15 } }) },
  ready: async ({ page }) => {
    await page.getByRole('textbox', { name: 'Message' }).waitFor();
    // The window is ready once the sandbox has started (its badge says so): its start blocks the engine for a moment,
    // which under load would eat into this test's stall limit.
    await page.getByRole('button', { name: 'Sandboxed' }).waitFor({ timeout: 120_000 });
  },
});
/** The home of a Knack with no model set up. */
const bare = join(app.tempDir('knack-e2e-ends-bare-'), 'home');

const words = (from: number, to: number): string[] => Array.from({ length: to - from }, (_, i) => `word${from + i} `);

async function send(text: string): Promise<void> {
  await app.page.getByRole('textbox', { name: 'Message' }).fill(text);
  await app.page.keyboard.press('Enter');
}

test(
  'a connection dropped after 399 of 600 words is marked interrupted, its text kept; Retry finishes the answer',
  { skip },
  async () => {
    app.server.script({ chunks: words(0, 399), dropAfterChunks: true, chunkDelayMs: 2 }, { chunks: words(0, 600) });
    await send('tell me 600 words');
    const log = app.page.getByRole('log', { name: 'Conversation' });
    const end = log.locator('.answer-end.interrupted');
    await end.waitFor({ timeout: 120_000 });
    // Said once: the lead, then how (the reason), not the same sentence twice.
    assert.match(
      (await end.textContent()) ?? '',
      /^Interrupted: the connection to anthropic was lost before the answer/,
    );
    assert.equal(((await end.textContent()) ?? '').split('was lost before the answer').length, 2);
    assert.ok(((await log.textContent()) ?? '').includes('word398'));
    // Said once: not also as a notice.
    assert.equal(await log.locator('.notice.error').count(), 0);
    assert.deepEqual(await seriousA11y(app.page), []);
    await saveScreens(app.page, 'chat-interrupted');
    await end.getByRole('button', { name: 'Retry' }).click();
    await log.getByText(/word599/).waitFor();
    await app.page.getByRole('button', { name: 'Send' }).waitFor();
    assert.equal(await end.getByRole('button', { name: 'Retry' }).count(), 0);
    assert.equal(app.server.requests.length, 2);
    assert.equal(
      JSON.stringify(app.server.requests[1]!.body.messages),
      JSON.stringify(app.server.requests[0]!.body.messages),
    );
  },
);

test('a stream that stalls past the limit is marked timed out, with Retry', { skip }, async () => {
  app.server.script({ chunks: ['half an answer '], hang: true });
  await send('and now?');
  const end = app.page.getByRole('log', { name: 'Conversation' }).locator('.answer-end.timeout');
  await end.waitFor({ timeout: 120_000 });
  assert.match(
    (await end.textContent()) ?? '',
    /Timed out — the model sent nothing for too long\..*sent nothing for 15 s/,
  );
  await end.getByRole('button', { name: 'Retry' }).waitFor();
  assert.deepEqual(await seriousA11y(app.page), []);
});

// A provider error ends the answer as failed, with the provider's reason. An HTTP 500 or 529 is retried by the SDK
// (twice) before it fails: a journey that scripts one such reply sees the retry answered (the fake server echoes when
// its script is empty), not a failure. So the HTTP case scripts one reply per attempt.
test(
  'a provider failure mid-answer, or one that outlasts the retries, is marked failed with its reason and Retry',
  { skip },
  async () => {
    app.server.script({ chunks: words(0, 40), failAfterChunks: 40, errorType: 'overloaded_error' });
    await send('a failing answer');
    const log = app.page.getByRole('log', { name: 'Conversation' });
    const failed = log.locator('.answer-end.failed');
    await failed.first().waitFor({ timeout: 120_000 });
    assert.match((await failed.first().textContent()) ?? '', /The answer failed\..*anthropic is overloaded/);
    assert.ok(((await log.textContent()) ?? '').includes('word39'));
    await failed.first().getByRole('button', { name: 'Retry' }).waitFor();
    assert.deepEqual(await seriousA11y(app.page), []);

    const before = app.server.requests.length;
    app.server.script({ status: 500 }, { status: 500 }, { status: 500 });
    await send('and again');
    await app.until(async () => (await failed.count()) === 2);
    assert.match((await failed.nth(1).textContent()) ?? '', /anthropic had an internal error \(500\)/);
    assert.equal(app.server.requests.length - before, 3);
    await failed.nth(1).getByRole('button', { name: 'Retry' }).waitFor();
    assert.deepEqual(await seriousA11y(app.page), []);
  },
);

test(
  'with no model set up, a message says "No model is set up" at once, with a button to the setup steps',
  { skip },
  async () => {
    await app.start({
      home: bare,
      dataDir: join(bare, 'data'),
      model: false,
      env: { ANTHROPIC_API_KEY: '', OPENAI_API_KEY: '' },
    });
    await send('hello?');
    const end = app.page.getByRole('log', { name: 'Conversation' }).locator('.answer-end.no_model');
    await end.waitFor();
    assert.match((await end.textContent()) ?? '', /No model is set up/);
    assert.deepEqual(await seriousA11y(app.page), []);
    await end.getByRole('button', { name: 'Set up a model' }).click();
    // The setup steps, at the provider; Cancel leaves Settings on screen.
    await app.page.getByRole('heading', { name: 'Choose a model provider' }).waitFor();
    await app.page.getByRole('button', { name: 'Cancel' }).click();
    await app.until(async () => (await app.page.getByRole('heading', { name: 'Settings' }).count()) > 0);
  },
);
