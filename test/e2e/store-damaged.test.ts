// A damaged knack.db seen from the window, in Debian's Chromium through serve mode: the file is set aside whole, the
// server's log names it in one line, and a banner with its path stays over every view, in English and in Chinese,
// until its button acknowledges it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright';
import { tempDir, writeTree } from '../helpers/tmp.js';
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

const skip = chromiumPath() ? false : 'Debian Chromium is not installed here (set KNACK_CHROMIUM)';

const home = tempDir('knack-e2e-damaged-home-');
const dataDir = join(home, 'data');
const workspace = join(tempDir('knack-e2e-damaged-ws-'), 'damaged-project');
const rendererOut = join(tempDir('knack-e2e-damaged-renderer-'), 'renderer');
const GARBLED = 'a sync tool wrote this over the database\n'.repeat(200);

let served: Served;
let browser: Browser;
let page: Page;

before(async () => {
  if (skip) return;
  mkdirSync(workspace, { recursive: true });
  writeTree(workspace, { 'README.md': '# damaged\n' });
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(join(dataDir, 'knack.db'), GARBLED);
  served = await startServe({ renderer: await buildRenderer(rendererOut), workspace, home, dataDir });
  browser = await launchChromium();
  page = (await openUi(browser, 'about:blank')).page;
  await page.goto(served.url);
  await until(async () => (await page.title()).startsWith('damaged-project — '));
});

after(async () => {
  await browser?.close();
  await served?.stop();
});

const until = (f: () => Promise<boolean>): Promise<void> => pollUntil(page, served, f, { shotDir: home });
const banner = () => page.locator('.store-banner');

test(
  'a garbled knack.db: set aside whole, named in the log, and a banner with its path in both languages',
  { skip },
  async () => {
    await until(async () => (await banner().count()) === 1);
    const text = await banner().innerText();
    const moved = /set aside whole as (\S+knack\.db\.damaged-\d{8}T\d{6}Z)/.exec(text)?.[1];
    assert.ok(moved, text);
    assert.match(text, /every tool call asks/);
    assert.equal(readFileSync(moved, 'utf8'), GARBLED, 'the damaged file is kept byte for byte');
    assert.ok(existsSync(join(dataDir, 'knack.db')), 'a new database took its place');
    // One line in the server's log names it.
    assert.equal(
      served
        .stderr()
        .split('\n')
        .filter((l) => l.includes(moved)).length,
      1,
      served.stderr(),
    );
    // Another view: the banner stays.
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    assert.equal(await banner().count(), 1);
    // In Chinese, with the same path.
    await page.getByRole('button', { name: 'Switch language to 中文' }).click();
    await until(async () => (await banner().innerText()).includes('数据库已损坏'));
    assert.ok((await banner().innerText()).includes(moved));
    // Its button acknowledges it (no command line): the banner goes, the engine agrees, the file set aside stays.
    await banner().getByRole('button', { name: '已知晓，使用新的数据库' }).click();
    await until(async () => (await banner().count()) === 0);
    const r = await knack(['store', 'status', '--json'], { home, dataDir, workspace });
    assert.deepEqual((JSON.parse(r.out) as { damage: unknown[] }).damage, [], r.err);
    assert.equal(readFileSync(moved, 'utf8'), GARBLED, 'the damaged file stays where it is');
    await page.reload();
    await until(async () => (await page.title()).startsWith('damaged-project — '));
    assert.equal(await banner().count(), 0, 'acknowledged for good, not only in this window');
  },
);
