// One notice never hides another, in Debian's Chromium through serve mode against a fake Anthropic server: two
// failures and an info notice arrive together and all three are on screen at once (two alerts, one status); the info
// notice goes on its own, the errors stay; Retry makes the failed call again; Esc dismisses the focused notice.
// The three arrive together as they do when the connection to Knack drops with three calls on their way: the test
// stands between the page and the real server (Playwright's routeWebSocket), passes every frame through, holds back a
// message's chat.send, the new folder's sessions.remembered and a switch's skills.setEnabled, then drops the
// connection. No timing: each step waits for what a user sees.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import type { WebSocketRoute } from 'playwright';
import { skillMd, writeTree } from '../helpers/tmp.js';
import { journey, seriousA11y, shownDir, skip } from './journey.js';
import { saveScreens } from './ui-screens.js';

/** The page's side of the current connection; the methods whose frames are held back, and those held. */
let pageSide: WebSocketRoute | undefined;
const hold = new Set<string>();
const held: string[] = [];

const app = journey({
  name: 'notices',
  folder: 'alpha',
  files: { 'README.md': '# alpha\n' },
  untilMs: 60_000,
  prepare: () => {
    mkdirSync(beta, { recursive: true });
    writeTree(beta, {
      'README.md': '# beta\n',
      '.workbuddy/skills/weekly-report/SKILL.md': skillMd({
        name: 'weekly-report',
        description: 'Write the weekly report from the merged changes.',
      }),
    });
  },
  beforeLoad: (page) =>
    page.routeWebSocket(/\/ws$/, (ws) => {
      const real = ws.connectToServer();
      pageSide = ws;
      ws.onMessage((m) => {
        const method = typeof m === 'string' ? (JSON.parse(m) as { method?: string }).method : undefined;
        if (method && hold.has(method)) held.push(method);
        else real.send(m);
      });
      real.onMessage((m) => ws.send(m));
      ws.onClose(() => real.close());
      real.onClose(() => ws.close());
    }),
  ready: (a) => a.until(async () => (await a.page.title()).startsWith('alpha — ')),
});
const beta = shownDir('beta', 'knack-e2e-notices-beta-');

const notices = () => app.page.getByRole('region', { name: 'Notifications' });
const sidebar = () => app.page.getByRole('navigation', { name: 'Skills' });

async function hidesNothing(width: number, height: number): Promise<void> {
  const n = (await notices().boundingBox())!;
  assert.ok(
    n.x >= 0 && n.y >= 0 && n.x + n.width <= width && n.y + n.height <= height,
    `notices at ${JSON.stringify(n)}`,
  );
  const page = app.page;
  for (const [what, el] of [
    ['Loaded skills', page.getByRole('heading', { name: 'Loaded skills' })],
    ['Context', page.getByRole('heading', { name: 'Context', exact: true })],
    ['the message box', page.getByRole('textbox', { name: 'Message' })],
  ] as const) {
    const b = (await el.boundingBox())!;
    const apart = b.x >= n.x + n.width || n.x >= b.x + b.width || b.y >= n.y + n.height || n.y >= b.y + b.height;
    assert.ok(apart, `at ${width} × ${height} the notices ${JSON.stringify(n)} cover ${what} ${JSON.stringify(b)}`);
  }
}

test('two failures and an info notice arrive together and all three are seen', { skip }, async () => {
  const { page } = app;
  // A message on its way in alpha …
  hold.add('chat.send');
  await page.getByRole('textbox', { name: 'Message' }).fill('summarise the alpha release');
  await page.keyboard.press('Enter');
  await app.until(async () => held.includes('chat.send'));
  // … then beta opens (its remembered conversation is asked for) …
  hold.add('sessions.remembered');
  await page.getByRole('button', { name: /^Workspace .* \(switch\)$/ }).click();
  await page.getByLabel('Folder path').fill(beta);
  await page.getByRole('button', { name: 'Open', exact: true }).click();
  await app.until(async () => (await page.title()).startsWith('beta — '));
  await app.until(async () => held.includes('sessions.remembered'));
  // … and a skill's switch is pressed there.
  hold.add('skills.setEnabled');
  const sw = sidebar().getByRole('switch', { name: 'Enable weekly-report' });
  await app.until(async () => (await sw.getAttribute('aria-checked')) === 'true');
  await sw.click();
  await app.until(async () => held.includes('skills.setEnabled'));

  // The connection drops: the three calls fail together.
  hold.clear();
  assert.ok(pageSide, 'a connection to drop');
  await pageSide.close();

  const status = notices().getByRole('status');
  await status.waitFor();
  // One look at the screen, as a user takes it in: two alerts and one status, none hiding another.
  const seen = await notices().evaluate((el) =>
    [...el.querySelectorAll('[role="alert"], [role="status"]')].map(
      (n) => `${n.getAttribute('role')}: ${n.querySelector('.toast-text')?.textContent ?? ''}`,
    ),
  );
  assert.equal(seen.length, 3, seen.join('\n'));
  assert.ok(
    seen.some((s) => /^alert: A message you wrote in alpha could not be sent/.test(s)),
    seen.join('\n'),
  );
  assert.ok(
    seen.some((s) => /^alert: weekly-report could not be turned off: /.test(s)),
    seen.join('\n'),
  );
  assert.ok(
    seen.some((s) => /^status: The conversation open before could not be opened again: /.test(s)),
    seen.join('\n'),
  );
  // beta's chat answers nothing: alpha's message was not sent (its notice says so) and there is no turn to stop.
  const chat = page.getByRole('region', { name: 'Chat' });
  assert.equal(await chat.getByText('Answering…').count(), 0);
  assert.equal(await chat.getByRole('button', { name: 'Stop' }).count(), 0);
  assert.equal(await chat.getByRole('button', { name: 'Send' }).count(), 1);
  // While the pointer rests on it the info notice stays (for the screenshots and the accessibility check).
  await status.hover();
  assert.deepEqual(await seriousA11y(page), []);
  await saveScreens(page, 'notices');

  // The notices hide nothing a user needs — the right panel's headings, the message box — and are whole on screen: at
  // 1360 × 860 and in a 1024 × 640 window with the right panel shown.
  await hidesNothing(1360, 860);
  await page.setViewportSize({ width: 1024, height: 640 });
  const right = page.getByRole('button', { name: 'Show or hide loaded skills and context' });
  if ((await right.getAttribute('aria-expanded')) !== 'true') await right.click();
  await hidesNothing(1024, 640);
  await page.setViewportSize({ width: 1360, height: 860 });

  // Left alone, the info notice goes; the errors stay until dismissed.
  await page.mouse.move(5, 5);
  await app.until(async () => (await notices().getByRole('status').count()) === 0);
  assert.equal(await notices().getByRole('alert').count(), 2);

  // Retry makes the switch's call again (the next call reconnects): the skill turns off and its notice goes.
  const switchFailed = notices().getByRole('alert').filter({ hasText: 'weekly-report could not be turned off' });
  await switchFailed.getByRole('button', { name: 'Retry' }).click();
  await app.until(async () => (await sw.getAttribute('aria-checked')) === 'false');
  await app.until(async () => (await switchFailed.count()) === 0);

  // Esc on the focused notice dismisses it.
  const unsent = notices().getByRole('alert').filter({ hasText: 'could not be sent' });
  await unsent.getByRole('button', { name: 'Dismiss' }).focus();
  await page.keyboard.press('Escape');
  await app.until(async () => (await notices().getByRole('alert').count()) === 0);
});
