// The main journey with the keyboard only, in Debian's Chromium through serve mode against the fake Anthropic server:
// name a file with @, install a P1 skill (Audit, Esc, again, Approve), toggle a skill, send a message, approve its
// tool call. Every control is reached with Tab and pressed with Enter or Space; focus moves into each dialog and
// returns where it was when Esc closes it; Ctrl+L brings the message box from every view.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Locator } from 'playwright';
import { skillMd, writeTree } from '../helpers/tmp.js';
import { journey, skip } from './journey.js';

const app = journey({
  name: 'keys',
  untilMs: 60_000,
  files: {
    '.workbuddy/skills/release-notes/SKILL.md': skillMd({
      name: 'release-notes',
      description: 'Write release notes from merged pull requests.',
      read_when: ['release notes'],
    }),
    // found on disk with a P1 finding: waits for a review
    '.workbuddy/skills/status-sync/SKILL.md': skillMd(
      { name: 'status-sync', description: 'Sync the build status.' },
      '# Sync\n\n```bash\ncurl -s https://status.example.com/api\n```\n',
    ),
  },
  // With the OS sandbox off every command is asked about: the tool call's approval is part of the journey.
  data: { 'settings.json': JSON.stringify({ sandbox: { mode: 'off' } }) },
  prepare: () => {
    writeTree(sources, {
      'fetcher/SKILL.md': skillMd(
        { name: 'fetcher', description: 'Download the data before analysing it.' },
        '# Fetch\n\n```bash\ncurl -s https://api.example.com/data\n```\n',
      ),
    });
  },
  ready: ({ page }) => page.getByRole('textbox', { name: 'Message' }).waitFor({ timeout: 60_000 }),
});
const sources = app.tempDir('knack-e2e-keys-src-');

const focused = (l: Locator): Promise<boolean> =>
  l.evaluate((el) => el === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement);

/** Press Tab until `l` has the focus (the way a keyboard user gets there); fails after `max` presses. */
async function tabTo(l: Locator, max = 80): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await focused(l).catch(() => false)) return;
    await app.page.keyboard.press('Tab');
  }
  assert.fail(`Tab never reached ${String(l)}`);
}

/** The focus is inside the open dialog. */
async function focusInDialog(): Promise<boolean> {
  return app.page
    .getByRole('dialog')
    .evaluate((d) =>
      d.contains((globalThis as unknown as { document: { activeElement: never } }).document.activeElement),
    );
}

test('Ctrl+L focuses the message box from every view', { skip }, async () => {
  const { page } = app;
  const box = page.getByRole('textbox', { name: 'Message' });
  const nav = page.getByRole('navigation', { name: 'Views' });
  for (const view of ['Sessions', 'Tools', 'Settings', 'Chat']) {
    await tabTo(nav.getByRole('button', { name: view, exact: true }));
    await page.keyboard.press('Enter');
    await page.keyboard.press('Control+l');
    await app.until(async () => (await box.count()) > 0 && (await focused(box)));
  }
});

test(
  "@ in the message box lists the folder's files; Enter puts the path, quoted, in place of the @word at the caret",
  { skip },
  async () => {
    const { page } = app;
    const box = page.getByRole('textbox', { name: 'Message' });
    writeTree(app.workspace, { 'docs/release plan.md': '# Plan\n', 'out/plan.txt': '', '.gitignore': 'out/\n' });
    await box.focus();
    await page.keyboard.type('summarise @relplan');
    const list = page.getByRole('listbox', { name: 'Files of the folder' });
    await app.until(async () => (await list.getByRole('option').allTextContents())[0] === 'docs/release plan.md');
    await page.keyboard.press('Enter');
    assert.equal(await box.inputValue(), 'summarise "docs/release plan.md" ');
    assert.equal(await list.count(), 0);
    // An @word at the caret anywhere in the box: typed at the start, the caret moved back into it with an arrow.
    await page.keyboard.type('with notes');
    await page.keyboard.press('Home');
    await page.keyboard.type('@relplan ');
    assert.equal(await list.count(), 0);
    await page.keyboard.press('ArrowLeft');
    await app.until(async () => (await list.getByRole('option').allTextContents())[0] === 'docs/release plan.md');
    await page.keyboard.press('Enter');
    const both = '"docs/release plan.md" summarise "docs/release plan.md" with notes';
    assert.equal(await box.inputValue(), both);
    assert.equal(
      await box.evaluate((el) => (el as unknown as { selectionStart: number }).selectionStart),
      '"docs/release plan.md" '.length,
    );
    // Enter right after typing picks from the answer for what is typed now, never the rows shown for "@".
    await page.keyboard.press('End');
    await page.keyboard.type(' @');
    await app.until(async () => (await list.getByRole('option').count()) > 0);
    await page.keyboard.type('relplan');
    await page.keyboard.press('Enter');
    await app.until(async () => (await box.inputValue()) === `${both} "docs/release plan.md" `);
    await page.keyboard.press('Control+a');
    await page.keyboard.press('Backspace');
  },
);

test(
  'install a P1 skill: focus moves into the dialog, Esc after Audit closes it and focus returns; then Approve',
  { skip },
  async () => {
    const { page } = app;
    const open = page.getByRole('button', { name: 'Install skill' });
    const dialog = page.getByRole('dialog', { name: 'Install a skill' });
    for (const finish of ['escape', 'approve'] as const) {
      await tabTo(open);
      await page.keyboard.press('Enter');
      await dialog.waitFor();
      assert.ok(await focusInDialog(), 'focus moved into the dialog');
      await tabTo(dialog.getByLabel('Skill folder or .zip path'));
      await page.keyboard.type(`${sources}/fetcher`);
      await tabTo(dialog.getByRole('button', { name: 'Audit' }));
      await page.keyboard.press('Enter');
      await dialog.getByText('P1 · needs your approval').waitFor({ timeout: 60_000 });
      if (finish === 'escape') {
        // The Audit button is gone from under the focus: Esc still closes the dialog, and focus returns.
        await page.keyboard.press('Escape');
        await app.until(async () => (await page.getByRole('dialog').count()) === 0);
        await app.until(() => focused(open));
        continue;
      }
      await tabTo(dialog.getByRole('button', { name: 'Approve' }));
      await page.keyboard.press('Enter');
      await dialog.getByText('fetcher is installed.').waitFor({ timeout: 60_000 });
      // Esc closes the dialog in this state too.
      await page.keyboard.press('Escape');
      await app.until(async () => (await page.getByRole('dialog').count()) === 0);
      await app.until(() => focused(open));
    }
    await page
      .getByRole('navigation', { name: 'Skills' })
      .getByRole('switch', { name: /fetcher/ })
      .waitFor();
  },
);

test('every dialog takes the focus, Esc closes it, and the focus returns where it was', { skip }, async () => {
  const { page } = app;
  const sidebar = page.getByRole('navigation', { name: 'Skills' });
  const openers: [Locator, string][] = [
    [sidebar.getByRole('button', { name: 'Trust status-sync' }), 'Review status-sync'],
    [sidebar.getByRole('button', { name: 'Trust all…' }), 'Trust all pending skills'],
  ];
  for (const [opener, name] of openers) {
    await tabTo(opener);
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name }).waitFor({ timeout: 60_000 });
    assert.ok(await focusInDialog(), `focus moved into ${name}`);
    await page.keyboard.press('Escape');
    await app.until(async () => (await page.getByRole('dialog').count()) === 0);
    await app.until(() => focused(opener));
  }
  // The command palette, from the message box: focus returns to the box.
  const box = page.getByRole('textbox', { name: 'Message' });
  await page.keyboard.press('Control+l');
  await app.until(() => focused(box));
  await page.keyboard.press('Control+k');
  await page.getByRole('dialog').waitFor();
  assert.ok(await focusInDialog(), 'focus moved into the palette');
  await page.keyboard.press('Escape');
  await app.until(async () => (await page.getByRole('dialog').count()) === 0);
  await app.until(() => focused(box));
});

test('toggle a skill with Space', { skip }, async () => {
  const { page } = app;
  const sw = page.getByRole('navigation', { name: 'Skills' }).getByRole('switch', { name: /release-notes/ });
  const before = await sw.getAttribute('aria-checked');
  await tabTo(sw);
  await page.keyboard.press('Space');
  await app.until(async () => (await sw.getAttribute('aria-checked')) !== before);
  await page.keyboard.press('Space');
  await app.until(async () => (await sw.getAttribute('aria-checked')) === before);
});

test('send a message and approve its tool call from the keyboard', { skip }, async () => {
  const { page, server } = app;
  server.script(
    { text: 'Checking the tree.', toolCalls: [{ name: 'bash', input: { command: 'git status' } }] },
    { text: 'All done here.' },
  );
  await page.keyboard.press('Control+l');
  const box = page.getByRole('textbox', { name: 'Message' });
  await app.until(() => focused(box));
  await page.keyboard.type('what changed?');
  await page.keyboard.press('Enter');
  const card = page.getByRole('region', { name: 'Approval for bash' }).last();
  await card.waitFor({ timeout: 60_000 });
  await tabTo(card.getByRole('button', { name: 'Allow once' }));
  await page.keyboard.press('Enter');
  await page.getByText('All done here.').waitFor({ timeout: 60_000 });
  assert.equal(server.requests.length, 2);
  assert.deepEqual(app.ui.problems, []);
});
