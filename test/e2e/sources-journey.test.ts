// Skills from a git repository in Debian's Chromium through serve mode: Install → From a repository or marketplace →
// pick two of five skills → review → Approve → both in the sidebar, the source on the detail page; then the source
// widens one skill's permissions, the Updates badge shows the permission diff, and the update is approved.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright';
import { skillMd, tempDir, writeTree } from '../helpers/tmp.js';
import { makeRepo, type TestRepo } from '../helpers/git-repos.js';
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

const home = tempDir('knack-e2e-src-home-');
const dataDir = join(home, 'data');
const workspace = join(tempDir('knack-e2e-src-ws-'), 'src-project');
const repos = tempDir('knack-e2e-src-repos-');
const rendererOut = join(tempDir('knack-e2e-src-renderer-'), 'renderer');

const fm = (name: string, network: boolean) =>
  skillMd(`name: ${name}\ndescription: The ${name} skill\npermissions:\n  tools: [read_file]\n  network: ${network}`);

let repo: TestRepo;
let server: FakeServer;
let served: Served;
let browser: Browser;
let ui: Ui;
let page: Page;

before(async () => {
  if (skip) return;
  mkdirSync(workspace, { recursive: true });
  writeTree(workspace, { 'README.md': '# sources\n' });
  repo = makeRepo(repos, 'five', {
    'skills/alpha/SKILL.md': fm('alpha', false),
    'skills/beta/SKILL.md': fm('beta', false),
    'skills/gamma/SKILL.md': fm('gamma', false),
    'skills/delta/SKILL.md': fm('delta', false),
    'skills/epsilon/SKILL.md': fm('epsilon', false),
  });
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
  ui = await openUi(browser, served.url);
  page = ui.page;
  await until(async () => (await page.title()).startsWith('src-project — '));
});

after(async () => {
  await browser?.close();
  await served?.stop();
  await server?.close();
});

const until = (f: () => Promise<boolean>): Promise<void> => pollUntil(page, served, f, { shotDir: home });
const sidebar = () => page.getByRole('navigation', { name: 'Skills' });

test(
  'Install → From a repository → pick two of five → review → Approve: both in the sidebar, source on the detail page',
  { skip },
  async () => {
    await page.getByRole('button', { name: 'Install skill' }).click();
    const dialog = page.getByRole('dialog', { name: 'Install a skill' });
    await dialog.getByRole('tab', { name: 'From a repository or marketplace' }).click();
    await dialog.getByLabel('Repository or marketplace').fill(repo.url);
    await dialog.getByRole('button', { name: 'Fetch' }).click();
    const list = dialog.getByRole('list', { name: 'Skills in this source' });
    await list.getByRole('listitem').nth(4).waitFor();
    assert.equal(await list.getByRole('listitem').count(), 5);
    assert.equal(await list.getByText('P2 · clean').count(), 5);
    const pick = (name: string) =>
      list
        .getByRole('listitem')
        .filter({ hasText: `The ${name} skill` })
        .getByRole('checkbox')
        .check();
    await pick('beta');
    await pick('delta');
    await dialog.getByRole('button', { name: 'Review 2 skills' }).click();
    const review = dialog.getByRole('list', { name: 'Review before installing' });
    await review.getByText('beta', { exact: true }).waitFor();
    await review.getByText('delta', { exact: true }).waitFor();
    await dialog.getByRole('button', { name: 'Approve' }).click();
    await until(async () => (await dialog.getByText('installed', { exact: true }).count()) === 2);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await sidebar().getByRole('switch', { name: 'Enable beta' }).waitFor();
    await sidebar().getByRole('switch', { name: 'Enable delta' }).waitFor();
    assert.equal(await sidebar().getByRole('switch', { name: 'Enable alpha' }).count(), 0);
    await sidebar().getByText('beta', { exact: true }).click();
    const origin = page.getByRole('region', { name: 'Source' });
    await origin.getByText(repo.url).waitFor();
    await origin.getByText('skills/beta').waitFor();
    const lock = JSON.parse(readFileSync(join(workspace, '.workbuddy', 'skills.lock.json'), 'utf8'));
    assert.deepEqual(Object.keys(lock.skills), ['beta', 'delta']);
    assert.deepEqual(ui.problems, []);
  },
);

test(
  'an update that turns the network on shows the permission diff under Updates and waits for Approve',
  { skip },
  async () => {
    const next = repo.commit({ 'skills/beta/SKILL.md': fm('beta', true) });
    await sidebar().getByRole('button', { name: 'Check for updates' }).click();
    const badge = sidebar().getByRole('button', { name: 'Updates: 1' });
    await badge.waitFor();
    await badge.click();
    const dialog = page.getByRole('dialog', { name: 'Skill updates' });
    const item = dialog.getByRole('region', { name: 'beta' });
    await item
      .getByText(/network/)
      .first()
      .waitFor();
    await item.getByText('~ SKILL.md').waitFor();
    await item.getByRole('button', { name: 'Update' }).click();
    await item.getByText('waits for your approval', { exact: false }).waitFor();
    assert.match(readFileSync(join(workspace, '.workbuddy', 'skills', 'beta', 'SKILL.md'), 'utf8'), /network: false/);
    await item.getByRole('button', { name: 'Approve' }).click();
    await item.getByText('installed', { exact: true }).waitFor();
    assert.match(readFileSync(join(workspace, '.workbuddy', 'skills', 'beta', 'SKILL.md'), 'utf8'), /network: true/);
    const lock = JSON.parse(readFileSync(join(workspace, '.workbuddy', 'skills.lock.json'), 'utf8'));
    assert.equal(lock.skills.beta.commit, next);
    assert.deepEqual(ui.problems, []);
  },
);
