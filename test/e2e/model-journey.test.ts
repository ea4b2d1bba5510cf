// The model picker, in Debian's Chromium through serve mode with the fake Anthropic server and a fake
// OpenAI-compatible one (a provider of the user's own in providers.json) each listing its models: switch the model
// mid-conversation and the next request names it; the session keeps it after a reload; a model of the other provider
// answers the next turn over its own wire format; the tokens and cost so far show beside the context meter; a provider
// added to providers.json by hand shows in the picker without a reload; an image attached for a model that reads none
// is refused in the window naming the model, and goes as an image block in each provider's own wire format to models
// that do, and as a note naming it to one picked later that reads none (the context meter counting the note, not the
// image). Axe clean; screenshots in English and Chinese.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeProvidersFile } from '../../main/core/agent/index.js';
import { startFakeOpenAI, type FakeServer } from '../helpers/fake-openai.js';
import { journey, seriousA11y, skip } from './journey.js';
import { saveScreens } from './ui-screens.js';

let local: FakeServer | undefined;
after(() => local?.close());

const app = journey({
  name: 'model',
  untilMs: 60_000,
  prepare: async ({ dataDir, server }) => {
    local = await startFakeOpenAI();
    local.setModels(['gpt-fake', 'gpt-fake-mini']);
    // Prices for both models (per million tokens), as a user writes them in providers.json, and a provider of their own.
    writeProvidersFile(dataDir, {
      providers: { local: { kind: 'openai', baseURL: local.url, model: 'gpt-fake', apiKey: 'sk-local-test-4567' } },
      prices: {
        'anthropic/fake-model': { input: 3, output: 15 },
        'anthropic/fake-model-large': { input: 15, output: 75 },
      },
    });
    // claude-fake-vision reads images (by its name, as Claude models do); fake-model and gpt-fake-mini do not.
    server.setModels(['fake-model', 'fake-model-large', 'claude-fake-vision']);
  },
  ready: ({ page }) => page.getByRole('textbox', { name: 'Message' }).waitFor({ timeout: 60_000 }),
});

async function ask(text: string, answer: string): Promise<void> {
  const { page, server } = app;
  server.script({ text: answer, usage: { input: 1000, output: 100 } });
  await page.getByRole('textbox', { name: 'Message' }).fill(text);
  await page.keyboard.press('Enter');
  await page.getByText(answer).waitFor({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Send' }).waitFor({ timeout: 60_000 });
}

test('switch the model mid-conversation: the next request names it, and the session keeps it', { skip }, async () => {
  const { page, server } = app;
  const picker = page.getByRole('combobox', { name: 'Model' });
  await ask('first question', 'First answer.');
  assert.equal(server.requests.at(-1)!.body.model, 'fake-model');
  // 1,000 tokens in at $3/M and 100 out at $15/M.
  const spent = page.getByLabel('Used so far in this conversation');
  await spent.getByText('1,000 tokens in, 100 out · $0.0045 so far').waitFor({ timeout: 60_000 });

  assert.equal(await picker.inputValue(), '["anthropic","fake-model"]');
  assert.deepEqual(await picker.locator('optgroup').evaluateAll((gs) => gs.map((g) => g.getAttribute('label'))), [
    'Anthropic (in use)',
    'local',
  ]);
  await picker.selectOption('fake-model-large');
  await app.until(async () => {
    const r = await app.knack(['sessions', 'list', '--json']);
    return /"model": "fake-model-large"/.test(r.out);
  });
  await ask('second question', 'Second answer.');
  assert.equal(server.requests.at(-1)!.body.model, 'fake-model-large', 'the next request names the model picked');
  // Plus 1,000 in at $15/M and 100 out at $75/M.
  await spent.getByText('2,000 tokens in, 200 out · $0.0270 so far').waitFor({ timeout: 60_000 });
  assert.deepEqual(await seriousA11y(page), []);
  await saveScreens(page, 'model-picker');

  await page.reload();
  await page.getByText('Second answer.').waitFor({ timeout: 60_000 });
  await app.until(async () => (await picker.inputValue().catch(() => '')) === '["anthropic","fake-model-large"]');
  await ask('third question', 'Third answer.');
  assert.equal(server.requests.at(-1)!.body.model, 'fake-model-large', 'the session kept its model after the reload');
  assert.ok(server.modelListings() >= 1, 'the models came from the provider’s list');

  // Another provider's model: the next turn goes to that provider, over its own wire format, naming the model.
  await picker.selectOption({ label: 'gpt-fake-mini' });
  await picker.getByRole('option', { name: 'gpt-fake-mini (in use)' }).waitFor({ state: 'attached', timeout: 60_000 });
  local!.script({ text: 'Fourth answer.' });
  await page.getByRole('textbox', { name: 'Message' }).fill('fourth question');
  await page.keyboard.press('Enter');
  await page.getByText('Fourth answer.').waitFor({ timeout: 60_000 });
  assert.equal(local!.requests.at(-1)!.body.model, 'gpt-fake-mini');
  assert.ok(local!.modelListings() >= 1, 'its models came from its own list');
});

test('a provider added to providers.json by hand shows in the picker, without a reload', { skip }, async () => {
  const { page, dataDir } = app;
  let loads = 0;
  page.on('load', () => loads++);
  const picker = page.getByRole('combobox', { name: 'Model' });
  const groups = () => picker.locator('optgroup').evaluateAll((gs) => gs.map((g) => g.getAttribute('label')));
  assert.ok(!(await groups()).includes('lab'));
  writeProvidersFile(dataDir, {
    providers: {
      local: { kind: 'openai', baseURL: local!.url, model: 'gpt-fake', apiKey: 'sk-local-test-4567' },
      lab: { kind: 'openai', baseURL: local!.url, model: 'gpt-fake-mini', apiKey: 'sk-lab-test-8901' },
    },
  });
  await app.until(async () => (await groups()).includes('lab'));
  assert.equal(loads, 0, 'the page was not reloaded');
});

/** A 1×1 PNG, as a user attaches one. */
const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

/** Attach `name` (PIXEL) with the paperclip, through the browser's file chooser. */
async function attachPixel(name: string): Promise<void> {
  const { page } = app;
  const [chooser] = await Promise.all([
    page.waitForEvent('filechooser', { timeout: 60_000 }),
    page.getByRole('button', { name: 'Attach files' }).click(),
  ]);
  await chooser.setFiles({ name, mimeType: 'image/png', buffer: Buffer.from(PIXEL, 'base64') });
  await page.getByRole('list', { name: 'Files going with your message' }).getByText(name).waitFor({ timeout: 60_000 });
}

test(
  'an image: refused naming a model that reads none, sent as an image block to Anthropic and OpenAI models that do',
  { skip },
  async () => {
    const { page, server, dataDir } = app;
    const picker = page.getByRole('combobox', { name: 'Model' });
    const box = page.getByRole('textbox', { name: 'Message' });
    // gpt-fake-mini (the model in use) reads no images: the window says so, nothing is sent, the image stays attached.
    assert.equal(await picker.inputValue(), '["local","gpt-fake-mini"]');
    const asked = local!.requests.length;
    await attachPixel('pixel.png');
    await box.fill('What colour is this pixel?');
    await page.keyboard.press('Enter');
    await page
      .getByRole('alert')
      .getByText('pixel.png is an image, and the model gpt-fake-mini does not read images', { exact: false })
      .waitFor({ timeout: 60_000 });
    assert.equal(local!.requests.length, asked, 'nothing went to the provider');
    await page.getByRole('list', { name: 'Files going with your message' }).getByText('pixel.png').waitFor();
    assert.equal(await box.inputValue(), 'What colour is this pixel?');
    assert.deepEqual(await seriousA11y(page), []);

    // A Claude model reads it: the Messages API request carries an image block (base64 source) before the words.
    await picker.selectOption('["anthropic","claude-fake-vision"]');
    await picker
      .getByRole('option', { name: 'claude-fake-vision (in use)' })
      .waitFor({ state: 'attached', timeout: 60_000 });
    server.script({ text: 'A red pixel.' });
    await box.press('Enter');
    await page.getByText('A red pixel.').waitFor({ timeout: 60_000 });
    const claude = server.requests.at(-1)!;
    assert.equal(claude.body.model, 'claude-fake-vision');
    assert.deepEqual(claude.images, [{ mediaType: 'image/png', data: PIXEL }]);
    const last = (claude.body.messages as { role: string; content: { type: string }[] }[]).at(-1)!;
    assert.deepEqual(
      last.content.map((b) => b.type),
      ['image', 'text'],
    );
    await page.getByRole('list', { name: 'Files sent with this message' }).getByText('pixel.png').waitFor();

    // An OpenAI-compatible model its provider says reads images (providers.json `vision`): an image_url data URL,
    // for the image sent before and the new one.
    writeProvidersFile(dataDir, {
      providers: {
        local: { kind: 'openai', baseURL: local!.url, model: 'gpt-fake', apiKey: 'sk-local-test-4567', vision: true },
      },
    });
    await picker.selectOption('["local","gpt-fake"]');
    await picker.getByRole('option', { name: 'gpt-fake (in use)' }).waitFor({ state: 'attached', timeout: 60_000 });
    await page.getByRole('button', { name: 'Send', exact: true }).waitFor({ timeout: 60_000 });
    await attachPixel('second.png');
    await box.fill('And this one?');
    local!.script({ text: 'Red as well.' });
    await box.press('Enter');
    await page.getByText('Red as well.').waitFor({ timeout: 60_000 });
    const gpt = local!.requests.at(-1)!;
    assert.equal(gpt.body.model, 'gpt-fake');
    assert.deepEqual(gpt.images, [
      { mediaType: 'image/png', data: PIXEL },
      { mediaType: 'image/png', data: PIXEL },
    ]);
    const parts = (gpt.body.messages as { role: string; content: string | { type: string }[] }[]).at(-1)!.content;
    assert.ok(
      Array.isArray(parts) && parts.some((b) => b.type === 'image_url'),
      'an image_url part in the last message',
    );

    // Back to a model that reads no images: the window says so, and the conversation goes on, the earlier images going
    // as notes naming them (an image block would make a real provider refuse the whole request). The context meter
    // counts what this model is sent: the two images as short notes, no longer about 1,600 tokens each.
    const history = async () =>
      Number(
        /History: ([\d,]+)/.exec((await page.getByText(/^History: /).textContent()) ?? '')?.[1]?.replace(/,/g, '') ??
          NaN,
      );
    await app.until(async () => (await history()) > 2 * 1600);
    await picker.selectOption('["anthropic","fake-model"]');
    await picker.getByRole('option', { name: 'fake-model (in use)' }).waitFor({ state: 'attached', timeout: 60_000 });
    await page
      .getByText('fake-model does not read images: the 2 images sent earlier in this conversation', { exact: false })
      .waitFor({ timeout: 60_000 });
    await app.until(async () => (await history()) < 1600);
    server.script({ text: 'I cannot see images.' });
    await box.fill('Describe them again.');
    await box.press('Enter');
    await page.getByText('I cannot see images.').waitFor({ timeout: 60_000 });
    const text = server.requests.at(-1)!;
    assert.equal(text.body.model, 'fake-model');
    assert.deepEqual(text.images, []);
    assert.deepEqual(
      text.files.map((f) => f.name),
      ['pixel.png', 'second.png'],
    );
  },
);
