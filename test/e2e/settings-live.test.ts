// Settings files edited by hand while the window is open, in Debian's Chromium through serve mode: the Settings page
// and the header hear workspace.changed and show the new settings problems and ceiling, without a reload. No timing:
// each step waits for what a user sees.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
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
  type Ui,
} from './ui-harness.js';

const skip = chromiumPath() ? false : 'Debian Chromium is not installed here (set KNACK_CHROMIUM)';

const home = tempDir('knack-e2e-live-home-');
const dataDir = join(home, 'data');
const workspace = join(tempDir('knack-e2e-live-ws-'), 'live-project');
const rendererOut = join(tempDir('knack-e2e-live-renderer-'), 'renderer');

let server: FakeServer;
let served: Served;
let browser: Browser;
let ui: Ui;
let page: Page;
let loads = 0;

before(async () => {
  if (skip) return;
  mkdirSync(workspace, { recursive: true });
  writeTree(workspace, { 'README.md': '# live\n' });
  server = await startFakeAnthropic();
  served = await startServe({
    renderer: await buildRenderer(rendererOut),
    workspace,
    home,
    dataDir,
    args: ['--provider', 'anthropic', '--model', 'fake-model', '--base-url', server.url],
    env: { ANTHROPIC_API_KEY: 'sk-ant-test-0123456789' },
  });
  browser = await launchChromium();
  ui = await openUi(browser, 'about:blank');
  page = ui.page;
  page.on('load', () => loads++);
  await page.goto(served.url);
  await until(async () => (await page.title()).startsWith('live-project — '));
});

after(async () => {
  await browser?.close();
  await served?.stop();
  await server?.close();
});

const until = (f: () => Promise<boolean>): Promise<void> => pollUntil(page, served, f, { shotDir: home });

/** Save as editors do: a new file renamed over the old one. */
function save(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(`${file}.swp`, text);
  renameSync(`${file}.swp`, file);
}

const problems = () => page.locator('.warnings li');
const badge = () => page.locator('header').getByRole('button', { name: /^Settings problems: \d+$/ });
const network = () => page.getByRole('checkbox', { name: 'Allow network access' });

test(
  'with the window on Settings, a workspace settings file that asks for the network shows its problem line on the page and in the header, without a reload',
  { skip },
  async () => {
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    await until(async () => (await network().count()) === 1);
    assert.equal(await problems().count(), 0);
    assert.equal(await badge().count(), 0);

    save(
      join(workspace, '.workbuddy', 'settings.json'),
      '{\n  "policy": {\n    "ceiling": { "network": true }\n  }\n}\n',
    );
    await until(async () => (await problems().filter({ hasText: 'policy.ceiling.network' }).count()) === 1);
    const line = await problems().filter({ hasText: 'policy.ceiling.network' }).innerText();
    assert.ok(
      line.startsWith(`${join(workspace, '.workbuddy', 'settings.json')}:3: warning: policy.ceiling.network:`),
      line,
    );
    assert.match(line, /cannot turn the network on/);
    assert.equal(await badge().innerText(), 'Settings problems: 1');
    assert.equal(await network().isChecked(), false, 'the network stays off');

    // The user turns the network on in their own file: the checkbox follows, the workspace's wish is no longer a problem.
    save(join(dataDir, 'settings.json'), JSON.stringify({ policy: { ceiling: { network: true } } }));
    await until(async () => (await network().isChecked()) && (await problems().count()) === 0);
    await until(async () => (await badge().count()) === 0);
    assert.equal(loads, 1, 'the page was never reloaded');
  },
);

test(
  'in another view, a broken user settings file shows in the header; its line is on the Settings page, and it gives nothing back',
  { skip },
  async () => {
    await page.getByRole('button', { name: 'Chat', exact: true }).click();
    save(join(dataDir, 'settings.json'), '{\n  "policy": {\n    "ceiling": { "network": false, }\n  }\n}\n');
    await until(async () => (await badge().count()) === 1);
    await badge().click();
    await until(async () => (await problems().count()) > 0);
    const lines = await problems().allInnerTexts();
    assert.ok(
      lines.some((l) => l.startsWith(`${join(dataDir, 'settings.json')}:3:`) && l.includes(': invalid JSON: ')),
      lines.join('\n'),
    );
    assert.ok(
      lines.some((l) => /not applied/.test(l)),
      lines.join('\n'),
    );
    // Until it is fixed, a broken file can only take permissions away (fail closed): the page shows the network off.
    await until(async () => !(await network().isChecked()));
    assert.equal(loads, 1);
    assert.deepEqual(ui.problems, []);
  },
);
