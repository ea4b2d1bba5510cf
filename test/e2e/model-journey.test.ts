// The model picker, in Debian's Chromium through serve mode with the fake Anthropic server listing its models: switch
// the model mid-conversation and the next request names it; the session keeps it after a reload; the tokens and cost
// so far show beside the context meter. Axe clean; screenshots in English and Chinese.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, Page } from 'playwright';
import { tempDir, writeTree } from '../helpers/tmp.js';
import { startFakeAnthropic, type FakeServer } from '../helpers/fake-anthropic.js';
import { writeProvidersFile } from '../../main/core/agent/index.js';
import {
  buildRenderer,
  chromiumPath,
  knack,
  launchChromium,
  openUi,
  pollUntil,
  startServe,
  type Served,
} from './ui-harness.js';
import { saveScreens } from './ui-screens.js';

const skip = chromiumPath() ? false : 'Debian Chromium is not installed here (set KNACK_CHROMIUM)';

const home = tempDir('knack-e2e-model-home-');
const dataDir = join(home, 'data');
const workspace = join(tempDir('knack-e2e-model-ws-'), 'model-project');
const rendererOut = join(tempDir('knack-e2e-model-renderer-'), 'renderer');
const dirs = { home, dataDir, workspace };

let server: FakeServer;
let served: Served;
let browser: Browser;
let page: Page;

before(async () => {
  if (skip) return;
  mkdirSync(workspace, { recursive: true });
  writeTree(workspace, { 'README.md': '# model\n' });
  // Prices for both models (per million tokens), as a user writes them in providers.json.
  writeProvidersFile(dataDir, {
    providers: {},
    prices: {
      'anthropic/fake-model': { input: 3, output: 15 },
      'anthropic/fake-model-large': { input: 15, output: 75 },
    },
  });
  server = await startFakeAnthropic();
  server.setModels(['fake-model', 'fake-model-large']);
  const renderer = await buildRenderer(rendererOut);
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
  await page.getByRole('textbox', { name: 'Message' }).waitFor({ timeout: 60_000 });
});

after(async () => {
  await browser?.close();
  await served?.stop();
  await server?.close();
});

const until = (f: () => Promise<boolean>): Promise<void> => pollUntil(page, served, f, { ms: 60_000, shotDir: home });

async function seriousA11y(): Promise<string[]> {
  const r = await new AxeBuilder({ page }).analyze();
  return r.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

async function ask(text: string, answer: string): Promise<void> {
  server.script({ text: answer, usage: { input: 1000, output: 100 } });
  await page.getByRole('textbox', { name: 'Message' }).fill(text);
  await page.keyboard.press('Enter');
  await page.getByText(answer).waitFor({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Send' }).waitFor({ timeout: 60_000 });
}

test('switch the model mid-conversation: the next request names it, and the session keeps it', { skip }, async () => {
  const picker = page.getByRole('combobox', { name: 'Model' });
  await ask('first question', 'First answer.');
  assert.equal(server.requests.at(-1)!.body.model, 'fake-model');
  // 1,000 tokens in at $3/M and 100 out at $15/M.
  const spent = page.getByLabel('Used so far in this conversation');
  await spent.getByText('1,000 tokens in, 100 out · $0.0045 so far').waitFor({ timeout: 60_000 });

  assert.equal(await picker.inputValue(), 'fake-model');
  await picker.selectOption('fake-model-large');
  await until(async () => {
    const r = await knack(['sessions', 'list', '--json'], dirs);
    return /"model": "fake-model-large"/.test(r.out);
  });
  await ask('second question', 'Second answer.');
  assert.equal(server.requests.at(-1)!.body.model, 'fake-model-large', 'the next request names the model picked');
  // Plus 1,000 in at $15/M and 100 out at $75/M.
  await spent.getByText('2,000 tokens in, 200 out · $0.0270 so far').waitFor({ timeout: 60_000 });
  assert.deepEqual(await seriousA11y(), []);
  await saveScreens(page, 'model-picker');

  await page.reload();
  await page.getByText('Second answer.').waitFor({ timeout: 60_000 });
  await until(async () => (await picker.inputValue().catch(() => '')) === 'fake-model-large');
  await ask('third question', 'Third answer.');
  assert.equal(server.requests.at(-1)!.body.model, 'fake-model-large', 'the session kept its model after the reload');
  assert.ok(server.modelListings() >= 1, 'the models came from the provider’s list');
});
