// Save as skill, in Debian's Chromium through serve mode with the fake Anthropic server: a task that makes three tool
// calls offers Save as skill; the model's draft opens in the editor beside its audit; installed in the project scope
// it appears in the sidebar marked as the agent's, and a matching message in a new chat loads it. Axe clean on the
// editor; screenshots of it in English and Chinese.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { journey, seriousA11y, skip } from './journey.js';
import { saveScreens } from './ui-screens.js';

const app = journey({
  name: 'save-skill',
  untilMs: 90_000,
  files: { 'notes.txt': 'The release is on Friday.\n', 'README.md': '# save-skill\n' },
  ready: ({ page }) => page.getByRole('textbox', { name: 'Message' }).waitFor({ timeout: 90_000 }),
});

const DRAFT = {
  name: 'release-day',
  description: 'Find the release day in notes.txt. Use when asked when the release is.',
  read_when: ['when is the release'],
  steps: '1. Read notes.txt.\n2. Find the line that names the day.\n3. Answer with the day. RELEASE-DAY-STEPS',
};

test(
  'a three-call task saved as a skill shows in the sidebar as the agent’s and loads on a matching message',
  { skip },
  async () => {
    const { page, server } = app;
    server.script(
      { toolCalls: [{ id: 'c1', name: 'list_dir', input: { path: '.' } }] },
      { toolCalls: [{ id: 'c2', name: 'read_file', input: { path: 'notes.txt' } }] },
      { toolCalls: [{ id: 'c3', name: 'grep', input: { pattern: 'Friday', path: 'notes.txt' } }] },
      { text: 'The release is on Friday.' },
    );
    await page.getByRole('textbox', { name: 'Message' }).fill('when is the release? look in the notes');
    await page.keyboard.press('Enter');
    const offer = page.getByRole('button', { name: 'Save as skill' });
    await offer.waitFor({ timeout: 90_000 });

    server.script({ text: JSON.stringify(DRAFT) });
    await offer.click();
    const dialog = page.getByRole('dialog', { name: 'Save as skill' });
    const editor = dialog.getByRole('textbox', { name: 'SKILL.md' });
    await editor.waitFor({ timeout: 90_000 });
    const text = await editor.inputValue();
    assert.match(text, /name: release-day/);
    assert.match(text, /permissions:\n {2}tools:\n {4}- grep\n {4}- list_dir\n {4}- read_file\n/);
    assert.match(text, /agent_created: true/);
    assert.deepEqual(server.requests.at(-1)!.body.tools ?? [], [], 'the draft is asked for without tools');
    await dialog.getByRole('region', { name: 'Audit of the draft' }).waitFor();
    assert.deepEqual(await seriousA11y(page), []);
    await saveScreens(page, 'save-skill');

    await dialog.getByRole('combobox', { name: 'Save to' }).selectOption('project');
    await dialog.getByRole('button', { name: 'Install' }).click();
    const saved = dialog.getByText(/Saved as release-day/);
    const approve = dialog.getByRole('button', { name: 'Approve' });
    await saved.or(approve).waitFor({ timeout: 90_000 });
    if (await approve.isVisible()) await approve.click();
    await saved.waitFor({ timeout: 90_000 });
    const file = join(app.workspace, '.workbuddy', 'skills', 'release-day', 'SKILL.md');
    assert.match(readFileSync(file, 'utf8'), /agent_created: true/);
    await dialog.getByRole('button', { name: 'Close' }).click();

    const sidebar = page.getByRole('navigation', { name: 'Skills' });
    await sidebar.getByText('release-day', { exact: true }).waitFor({ timeout: 90_000 });
    await sidebar.getByText('by the agent').waitFor({ timeout: 90_000 });

    // A new chat: a message that matches its trigger loads it, and the model gets its steps.
    await page.getByRole('button', { name: 'New chat' }).click();
    server.script({ text: 'Friday again.' });
    await page.getByRole('textbox', { name: 'Message' }).fill('when is the release this time?');
    await page.keyboard.press('Enter');
    await page.getByText('Friday again.').waitFor({ timeout: 90_000 });
    await page
      .getByRole('log')
      .getByText(/release-day/)
      .first()
      .waitFor({ timeout: 90_000 });
    assert.match(JSON.stringify(server.requests.at(-1)!.body.system), /RELEASE-DAY-STEPS/);
  },
);
