// Sessions managed from the window, in Debian's Chromium through serve mode with the fake Anthropic server: search for
// a word of an old answer, rename a conversation, delete one after confirming; the engine's store (read with the CLI)
// agrees, and a reload shows the same. Axe clean; screenshots of the search in English and Chinese.
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
  knack,
  launchChromium,
  openUi,
  pollUntil,
  startServe,
  type Served,
} from './ui-harness.js';
import { saveScreens } from './ui-screens.js';

const skip = chromiumPath() ? false : 'Debian Chromium is not installed here (set KNACK_CHROMIUM)';

const home = tempDir('knack-e2e-sessions-home-');
const dataDir = join(home, 'data');
const workspace = join(tempDir('knack-e2e-sessions-ws-'), 'sessions-project');
const rendererOut = join(tempDir('knack-e2e-sessions-renderer-'), 'renderer');
const dirs = { home, dataDir, workspace };

let server: FakeServer;
let served: Served;
let browser: Browser;
let page: Page;

before(async () => {
  if (skip) return;
  mkdirSync(workspace, { recursive: true });
  writeTree(workspace, { 'README.md': '# sessions\n' });
  server = await startFakeAnthropic();
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
const views = () => page.getByRole('navigation', { name: 'Views' });
const sessions = () => page.getByRole('region', { name: 'Sessions' });

async function seriousA11y(): Promise<string[]> {
  const r = await new AxeBuilder({ page }).analyze();
  return r.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

async function ask(text: string, answer: string): Promise<void> {
  server.script({ text: answer });
  await page.getByRole('textbox', { name: 'Message' }).fill(text);
  await page.keyboard.press('Enter');
  await page.getByText(answer).waitFor({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Send' }).waitFor({ timeout: 60_000 });
}

test('search sessions for a word of an old answer, rename one and delete one', { skip }, async () => {
  await ask('how do I rotate the keys?', 'Rotate them with the walrus procedure, then restart.');
  await page.getByRole('button', { name: 'New chat' }).click();
  await ask('when is lunch?', 'Lunch is at noon.');

  await views().getByRole('button', { name: 'Sessions' }).click();
  await sessions().getByText('when is lunch?').waitFor();
  await sessions().getByRole('searchbox', { name: 'Search sessions' }).fill('walrus');
  await sessions().getByText('1 session found').waitFor({ timeout: 60_000 });
  const rows = sessions().getByRole('listitem');
  assert.equal(await rows.count(), 1);
  assert.match(
    (await rows.first().textContent()) ?? '',
    /how do I rotate the keys\?.*answer: Rotate them with the walrus/,
  );
  assert.equal(await rows.first().locator('mark').textContent(), 'walrus');
  assert.deepEqual(await seriousA11y(), []);
  await saveScreens(page, 'session-search');

  await sessions().getByRole('searchbox').fill('');
  await sessions().getByText('when is lunch?').waitFor();
  await sessions().getByRole('button', { name: 'Rename when is lunch?' }).click();
  const title = sessions().getByRole('textbox', { name: 'New title for when is lunch?' });
  await title.fill('Team lunch');
  await title.press('Enter');
  await sessions().getByText('Team lunch', { exact: true }).waitFor();

  await sessions().getByRole('button', { name: 'Delete Team lunch' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete this session?' });
  await dialog.getByText('“Team lunch” and its 2 messages').waitFor();
  assert.deepEqual(await seriousA11y(), []);
  await dialog.getByRole('button', { name: 'Delete session' }).click();
  await until(async () => (await sessions().getByText('Team lunch').count()) === 0);

  // The engine's store agrees: one session left, under its first message; the deleted one's words are found no more.
  const list = await knack(['sessions', 'list', '--json'], dirs);
  assert.equal(list.code, 0, list.err);
  assert.deepEqual(
    (JSON.parse(list.out) as { title: string }[]).map((s) => s.title),
    ['how do I rotate the keys?'],
  );
  const gone = await knack(['sessions', 'search', 'noon'], dirs);
  assert.match(gone.out, /no session holds "noon"/);

  await page.reload();
  await views().getByRole('button', { name: 'Sessions' }).click();
  await sessions().getByText('how do I rotate the keys?').waitFor({ timeout: 60_000 });
  assert.equal(await sessions().getByText('Team lunch').count(), 0);
});
