// The first run in Debian's Chromium through serve mode, started as `npm start` starts it (in Knack's own folder, no
// --workspace, no provider, no key): the setup flow opens a folder, picks Anthropic pointed at the fake server, refuses
// a wrong key with Anthropic's own 401 words, passes with the right one (stored in providers.json, mode 600, never on the
// page), and the first message gets its answer. The header says Sandboxed; with no bubblewrap on PATH it says Not
// sandboxed and a banner says every command will ask. axe on every new screen. No timing: each step waits for what a
// user sees.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { journey, seriousA11y as serious, skip } from './journey.js';
import { saveScreens } from './ui-screens.js';

const RIGHT = 'sk-ant-right-key-0123456789';
const WRONG = 'sk-ant-wrong-key-9876543210';
/** No key anywhere in the environment: nothing is set up. */
const NO_KEYS = Object.fromEntries(
  [
    'ANTHROPIC_API_KEY',
    'OPENAI_API_KEY',
    'DEEPSEEK_API_KEY',
    'DASHSCOPE_API_KEY',
    'MOONSHOT_API_KEY',
    'KIMI_API_KEY',
    'ZHIPUAI_API_KEY',
    'ZHIPU_API_KEY',
    'OPENROUTER_API_KEY',
  ].map((k) => [k, '']),
);

const app = journey({
  name: 'first',
  prepare: ({ server }) => server.requireKey(RIGHT),
  // Each test starts serve as it needs it (app.start).
  serve: false,
});
const { dataDir, workspace } = app;
/** A PATH with node alone: no bubblewrap. */
const bin = app.tempDir('knack-e2e-first-bin-');

test('first run to the first answer, including a wrong key whose error is shown', { skip }, async () => {
  await app.start({ workspace: false, model: false, env: NO_KEYS });
  const { page, served, server } = app;
  assert.match(served.stderr(), /not opening Knack's own folder/);

  await page.getByRole('heading', { name: 'Welcome to Knack' }).waitFor();
  await page.getByRole('heading', { name: 'Open a folder to work in' }).waitFor();
  assert.deepEqual(await serious(page), []);
  await saveScreens(page, 'first-run-folder');
  await page.getByLabel('Folder path').fill(workspace);
  await page.getByRole('button', { name: 'Open', exact: true }).click();

  await page.getByRole('heading', { name: 'Choose a model provider' }).waitFor();
  for (const name of ['Anthropic', 'OpenAI', 'DeepSeek', 'Ollama (local)', 'LM Studio (local)', 'vLLM (self-hosted)'])
    await page.getByRole('radio', { name }).waitFor();
  await page.getByRole('radio', { name: 'Anthropic' }).check();
  await page.locator('.setup').getByLabel('Model').fill('fake-model');
  await page.locator('.setup').getByLabel('Base URL').fill(server.url);
  assert.deepEqual(await serious(page), []);
  await saveScreens(page, 'first-run-provider');
  await page.getByRole('button', { name: 'Continue' }).click();

  await page.getByRole('heading', { name: 'Paste the key and test the connection' }).waitFor();
  await page.getByLabel('API key for Anthropic').fill(WRONG);
  await page.getByRole('button', { name: 'Test connection' }).click();
  const alert = page.locator('.setup-fail');
  await alert.waitFor();
  const said = (await alert.textContent()) ?? '';
  assert.match(said, /The key was refused\. \(HTTP 401\)/);
  assert.match(said, /Anthropic says: “?invalid x-api-key/);
  assert.ok(await page.getByRole('button', { name: 'Continue' }).isDisabled());
  assert.deepEqual(await serious(page), []);
  await saveScreens(page, 'first-run-wrong-key');

  await page.getByLabel('API key for Anthropic').fill(RIGHT);
  await page.getByRole('button', { name: 'Test connection' }).click();
  await page.getByText('Connected: fake-model at Anthropic answered.').waitFor();
  assert.equal(await alert.count(), 0);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByText('fake-model at Anthropic answers. Messages in this folder go to it.').waitFor();
  assert.deepEqual(await serious(page), []);
  await saveScreens(page, 'first-run-done');
  await page.getByRole('button', { name: 'Start chatting' }).click();

  // The chat, with the box focused; the first message gets its answer from the model just set up.
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.waitFor();
  await app.until(async () => box.evaluate((el) => el === el.ownerDocument.activeElement));
  await page.getByRole('button', { name: 'Sandboxed' }).waitFor();
  await box.fill('hello there');
  await page.keyboard.press('Enter');
  await page.getByRole('log', { name: 'Conversation' }).getByText('ok: hello there').waitFor();

  // Two tests (wrong, right) and the message: each with the key typed last; none of them retried.
  const keys = server.requests.map((r) => r.headers['x-api-key'] ?? String(r.headers.authorization).slice(7));
  assert.deepEqual(keys, [WRONG, RIGHT, RIGHT]);
  assert.equal(server.requests[1]!.body.max_tokens, 1);
  // Stored where serve mode keeps keys (providers.json, readable by the user alone); never on the page.
  const file = join(dataDir, 'providers.json');
  assert.equal(statSync(file).mode & 0o777, 0o600);
  const providers = JSON.parse(readFileSync(file, 'utf8')) as {
    default: string;
    providers: Record<string, { apiKey?: string; baseURL?: string; model?: string }>;
  };
  assert.equal(providers.default, 'anthropic');
  assert.deepEqual(providers.providers.anthropic, { model: 'fake-model', baseURL: server.url, apiKey: RIGHT });
  assert.ok(!(await page.content()).includes(RIGHT));
  assert.ok(!served.stderr().includes(RIGHT));
  assert.ok(!served.stderr().includes(WRONG));
  await app.stop();
});

test(
  'with no bubblewrap on PATH: "Not sandboxed", a banner that every command will ask, and the fix in Settings',
  { skip },
  async () => {
    symlinkSync(process.execPath, join(bin, 'node'));
    await app.start({ model: false, env: { PATH: bin } });
    const { page } = app;
    const badge = page.getByRole('button', { name: 'Not sandboxed' });
    await badge.waitFor();
    const banner = page.locator('.sandbox-banner');
    await banner.waitFor();
    const text = (await banner.textContent()) ?? '';
    assert.match(text, /Not sandboxed: every command will ask before it runs\./);
    assert.match(text, /bubblewrap \(bwrap\)(, [^,]+)* not installed/);
    assert.match(text, /apt install bubblewrap socat ripgrep/);
    await badge.click();
    const section = page.locator('.sandbox-settings');
    await section.waitFor();
    // Opened at its Sandbox section, not at the top of the page.
    const heading = page.getByRole('heading', { name: 'Sandbox', exact: true });
    await app.until(async () => {
      const b = await heading.boundingBox();
      return !!b && b.y >= 0 && b.y + b.height <= page.viewportSize()!.height;
    });
    assert.match(
      (await section.textContent()) ?? '',
      /The OS sandbox \(bubblewrap\) is not available here\. Every command asks before it runs\./,
    );
    assert.deepEqual(await serious(page), []);
    await saveScreens(page, 'sandbox-unavailable');
  },
);
