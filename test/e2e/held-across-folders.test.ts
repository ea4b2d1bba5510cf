// A message that could not be sent after the user switched folders, in Debian's Chromium through serve mode against
// a fake Anthropic server: a notice names the folder it was written in, the other folder's box stays empty, and on
// return the message is back in its conversation's box (a new chat's, or a stored conversation opened again).
// The send fails as it does when the connection to Knack drops while the call is on its way: the test stands between
// the page and the real server (Playwright's routeWebSocket), passes every frame through, holds back the one chat.send
// frame until the user has switched folders, then drops the connection. No timing: each step waits for what a user sees.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page, WebSocketRoute } from 'playwright';
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

const home = tempDir('knack-e2e-held-home-');
const folders = tempDir('knack-e2e-held-ws-');
const alpha = join(folders, 'alpha');
const beta = join(folders, 'beta');
const rendererOut = join(tempDir('knack-e2e-held-renderer-'), 'renderer');

let server: FakeServer;
let served: Served;
let browser: Browser;
let ui: Ui;
let page: Page;

/** The page's side of the current connection, and what to do with a chat.send frame (pass it, or hold it back). */
let pageSide: WebSocketRoute | undefined;
let holdSends = false;
const heldSends: string[] = [];

before(async () => {
  if (skip) return;
  for (const [dir, name] of [
    [alpha, 'alpha'],
    [beta, 'beta'],
  ] as const) {
    mkdirSync(dir, { recursive: true });
    writeTree(dir, { 'README.md': `# ${name}\n` });
  }
  server = await startFakeAnthropic();
  served = await startServe({
    renderer: await buildRenderer(rendererOut),
    workspace: alpha,
    home,
    dataDir: join(home, 'data'),
    args: ['--provider', 'anthropic', '--model', 'fake-model', '--base-url', server.url],
    env: { ANTHROPIC_API_KEY: 'sk-ant-test-0123456789' },
  });
  browser = await launchChromium();
  ui = await openUi(browser, 'about:blank');
  page = ui.page;
  await page.routeWebSocket(/\/ws$/, (ws) => {
    const real = ws.connectToServer();
    pageSide = ws;
    ws.onMessage((m) => {
      if (holdSends && typeof m === 'string' && (JSON.parse(m) as { method?: string }).method === 'chat.send')
        heldSends.push(m);
      else real.send(m);
    });
    real.onMessage((m) => ws.send(m));
    ws.onClose(() => real.close());
    real.onClose(() => ws.close());
  });
  await page.goto(served.url);
  await until(async () => (await page.title()).startsWith('alpha — '));
});

after(async () => {
  await browser?.close();
  await served?.stop();
  await server?.close();
});

const until = (f: () => Promise<boolean>): Promise<void> => pollUntil(page, served, f);

const box = () => page.getByRole('textbox', { name: 'Message' });
const log = () => page.getByRole('log', { name: 'Conversation' });

async function switchTo(dir: string, name: string): Promise<void> {
  await page.getByRole('button', { name: /^Workspace .* \(switch\)$/ }).click();
  await page.getByLabel('Folder path').fill(dir);
  await page.getByRole('button', { name: 'Open', exact: true }).click();
  await until(async () => (await page.title()).startsWith(`${name} — `));
}

/** Send `text` with its chat.send frame held back on its way to Knack; resolves once the frame is held. */
async function sendHeld(text: string): Promise<void> {
  holdSends = true;
  await box().fill(text);
  await page.keyboard.press('Enter');
  await until(async () => heldSends.length === 1);
  holdSends = false;
  // On screen as sent (the window does not know yet that it will never arrive).
  await log().getByText(text).waitFor();
}

/** The connection drops with the held call unanswered: that call fails (`unavailable`), and the next call reconnects. */
async function dropConnection(): Promise<void> {
  assert.ok(pageSide, 'a connection to drop');
  heldSends.length = 0;
  await pageSide.close();
}

test(
  "a new chat's message: the notice names its folder, the other folder's box is empty, and back in its folder the text is in the box",
  { skip },
  async () => {
    await sendHeld('summarise the alpha release');
    await switchTo(beta, 'beta');
    await dropConnection();
    const notice = page.getByRole('alert').filter({ hasText: 'could not be sent' });
    await notice.waitFor();
    assert.match((await notice.textContent()) ?? '', /in alpha could not be sent: it is kept in its message box there/);
    assert.equal(await box().inputValue(), '', "not in the other folder's box");
    assert.equal(await log().getByText('summarise the alpha release').count(), 0, 'nor in its conversation');
    await switchTo(alpha, 'alpha');
    await until(async () => (await box().inputValue()) === 'summarise the alpha release');
    assert.equal(
      server.requests.filter((r) => JSON.stringify(r.body).includes('summarise the alpha release')).length,
      0,
      'it never reached the model',
    );
    await box().fill('');
  },
);

test(
  "a stored conversation's message: back in its folder, that conversation opens again with the text in its box",
  { skip },
  async () => {
    await page.getByRole('button', { name: 'New chat' }).click();
    server.script({ text: 'Tagged v1.' });
    await box().fill('tag the release v1');
    await page.keyboard.press('Enter');
    await log().getByText('Tagged v1.').waitFor();
    await page.getByRole('button', { name: 'Send' }).waitFor();

    await sendHeld('and tag it v2 as well');
    await switchTo(beta, 'beta');
    await dropConnection();
    await page
      .getByRole('alert')
      .filter({ hasText: /in alpha could not be sent/ })
      .waitFor();
    assert.equal(await box().inputValue(), '');
    assert.equal(await log().getByText('Tagged v1.').count(), 0, 'beta shows a chat of its own');

    await switchTo(alpha, 'alpha');
    // The conversation it was written in is on screen again (read back from the engine), its text in the box.
    await log().getByText('Tagged v1.').waitFor();
    await log().getByText('tag the release v1').waitFor();
    await until(async () => (await box().inputValue()) === 'and tag it v2 as well');
    assert.equal(
      await log().getByText('and tag it v2 as well').count(),
      0,
      'the unsent message is not in the conversation',
    );
    // Sent again from there, it goes on in that conversation.
    server.script({ text: 'Tagged v2.' });
    await box().press('Enter');
    await log().getByText('Tagged v2.').waitFor();
    assert.match(
      JSON.stringify(server.requests.at(-1)!.body),
      /tag the release v1[\s\S]*Tagged v1\.[\s\S]*and tag it v2 as well/,
    );
    assert.deepEqual(ui.problems, []);
  },
);
