// Files in and messages you can edit and regenerate, in Debian's Chromium through serve mode with the fake Anthropic
// server: drop a text file and ask about it (the request carries it); edit the first message and see the branch, then
// switch back; regenerate an answer; reload, then restart serve, and find the conversation on the version it was on;
// reload and find the transcript where you were in it, or at the bottom when you followed the answer.
// Axe clean; screenshots of attachments and branches in English and Chinese.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RecordedRequest } from '../helpers/fake-provider.js';
import { journey, seriousA11y, skip } from './journey.js';
import { saveScreens } from './ui-screens.js';

const app = journey({
  name: 'convo',
  untilMs: 60_000,
  ready: ({ page }) => page.getByRole('textbox', { name: 'Message' }).waitFor({ timeout: 60_000 }),
});

const NOTES = 'release: Friday 14:00\nowner: Li Lei\n';

/** The user's words and the model's replies a request carried (attached files as [file NAME]). */
function said(req: RecordedRequest): string[] {
  return (req.body.messages as { role: string; content: string | { type: string; text?: string }[] }[]).map(
    (m) =>
      `${m.role}: ${
        typeof m.content === 'string'
          ? m.content
          : m.content
              .map((b) => (b.text?.startsWith('<attachment ') ? `[file ${/name="([^"]*)"/.exec(b.text)![1]}]` : b.text))
              .join('')
      }`,
  );
}

async function answered(text: string): Promise<void> {
  await app.page.getByText(text).first().waitFor({ timeout: 60_000 });
  await app.page.getByRole('button', { name: 'Send', exact: true }).waitFor({ timeout: 60_000 });
}

test('drop a text file on the chat and ask about it: the request carries the file', { skip }, async () => {
  const { page, server } = app;
  const chat = page.getByRole('region', { name: 'Chat' });
  // A real drop event with a DataTransfer holding a File, as the browser makes one for a file dragged from the desktop.
  const dt = await page.evaluateHandle(`(() => {
    const dt = new DataTransfer();
    dt.items.add(new File([${JSON.stringify(NOTES)}], 'notes.txt', { type: 'text/plain' }));
    return dt;
  })()`);
  await chat.dispatchEvent('dragover', { dataTransfer: dt });
  await chat.dispatchEvent('drop', { dataTransfer: dt });
  const attached = page.getByRole('list', { name: 'Files going with your message' });
  await attached.getByText('notes.txt').waitFor({ timeout: 60_000 });
  await page.getByRole('textbox', { name: 'Message' }).fill('When is the release?');
  assert.deepEqual(await seriousA11y(page), []);
  await saveScreens(page, 'attachments');
  server.script({ text: 'The release is on Friday at 14:00.' });
  await page.keyboard.press('Enter');
  await answered('The release is on Friday at 14:00.');
  const req = server.requests.at(-1)!;
  assert.deepEqual(req.files, [{ name: 'notes.txt', size: `${NOTES.length} bytes`, text: NOTES.trimEnd() + '\n' }]);
  await page.getByRole('list', { name: 'Files sent with this message' }).getByText('notes.txt').waitFor();
  assert.equal(await attached.count(), 0, 'the box holds no file after sending');
});

test(
  'edit the first message: the conversation branches there, and the old branch is one click back',
  { skip },
  async () => {
    const { page, server } = app;
    server.script({ text: 'Li Lei owns it.' });
    await page.getByRole('textbox', { name: 'Message' }).fill('Who owns it?');
    await page.keyboard.press('Enter');
    await answered('Li Lei owns it.');

    const first = page.getByRole('article', { name: 'You' }).first();
    await first.getByRole('button', { name: 'Edit' }).click();
    const box = page.getByRole('textbox', { name: 'Edit your message' });
    await page.getByRole('list', { name: 'Files going with the edit' }).getByText('notes.txt').waitFor();
    await box.fill('Summarise the notes.');
    server.script({ text: 'A Friday release, owned by Li Lei.' });
    await page.getByRole('button', { name: 'Send edit' }).click();
    await answered('A Friday release, owned by Li Lei.');
    // The edit went with the edited message's file; the old question, its answer and the second turn are not in the
    // request.
    assert.deepEqual(said(server.requests.at(-1)!), ['user: [file notes.txt]Summarise the notes.']);
    assert.equal(await page.getByText('Li Lei owns it.').count(), 0);
    const versions = page.getByRole('group', { name: 'Versions of your message' });
    await versions.getByText('2 / 2').waitFor({ timeout: 60_000 });
    assert.deepEqual(await seriousA11y(page), []);
    await saveScreens(page, 'branches');

    // Back to the first version: the whole old branch is there again.
    await versions.getByRole('button', { name: 'Previous version' }).click();
    await page.getByText('Li Lei owns it.').waitFor({ timeout: 60_000 });
    await versions.getByText('1 / 2').waitFor();
    await page.getByText('When is the release?').waitFor();
    await page.getByRole('list', { name: 'Files sent with this message' }).getByText('notes.txt').waitFor();
  },
);

test('regenerate an answer: a sibling answer, and the request does not carry the old one', { skip }, async () => {
  const { page, server } = app;
  server.script({ text: 'Li Lei is the owner.' });
  const answers = page.getByRole('article', { name: 'Knack' });
  await answers.last().getByRole('button', { name: 'Regenerate' }).click();
  await answered('Li Lei is the owner.');
  assert.equal(await page.getByText('Li Lei owns it.').count(), 0);
  assert.deepEqual(said(server.requests.at(-1)!), [
    'user: [file notes.txt]When is the release?',
    'assistant: The release is on Friday at 14:00.',
    'user: Who owns it?',
  ]);
  await page.getByRole('group', { name: 'Versions of the answer' }).getByText('2 / 2').waitFor({ timeout: 60_000 });
  assert.deepEqual(await seriousA11y(page), []);
});

test('reload the window: the conversation is there, on the versions it was on', { skip }, async () => {
  const { page, server } = app;
  await page.reload();
  await page.getByText('Li Lei is the owner.').waitFor({ timeout: 60_000 });
  await page.getByRole('group', { name: 'Versions of the answer' }).getByText('2 / 2').waitFor({ timeout: 60_000 });
  await page.getByRole('group', { name: 'Versions of your message' }).getByText('1 / 2').waitFor();
  // And it goes on from there: the next request carries this branch only.
  server.script({ text: 'Yes, Friday.' });
  await page.getByRole('textbox', { name: 'Message' }).fill('Still Friday?');
  await page.keyboard.press('Enter');
  await answered('Yes, Friday.');
  assert.deepEqual(said(server.requests.at(-1)!).slice(-3), [
    'user: Who owns it?',
    'assistant: Li Lei is the owner.',
    'user: Still Friday?',
  ]);
});

test(
  'restart knack serve: the window opens the conversation it had open, on the versions it was on',
  { skip },
  async () => {
    const before = app.served.url;
    // Serve stops; a new one starts on the same home, data folder and workspace (another port, so another page origin:
    // nothing the page kept itself survives), and the window opens in a fresh browser context.
    await app.start();
    assert.notEqual(new URL(app.served.url).port, new URL(before).port);
    const { page, server } = app;
    await page.getByText('Yes, Friday.').waitFor({ timeout: 60_000 });
    await page.getByText('Li Lei is the owner.').waitFor();
    await page.getByRole('group', { name: 'Versions of the answer' }).getByText('2 / 2').waitFor({ timeout: 60_000 });
    await page.getByRole('group', { name: 'Versions of your message' }).getByText('1 / 2').waitFor();
    // It goes on from there.
    server.script({ text: 'Friday it is.' });
    await page.getByRole('textbox', { name: 'Message' }).fill('Sure?');
    await page.keyboard.press('Enter');
    await answered('Friday it is.');
    assert.deepEqual(said(server.requests.at(-1)!).slice(-3), [
      'user: Still Friday?',
      'assistant: Yes, Friday.',
      'user: Sure?',
    ]);
  },
);

test(
  'reload the window: the transcript opens where you were, or at the bottom when you followed the answer',
  { skip },
  async () => {
    const { page, server } = app;
    const step = (n: number) => `Step ${n}: check the part numbered ${n}.`;
    server.script({ text: Array.from({ length: 60 }, (_, i) => step(i + 1)).join('\n\n') });
    await page.getByRole('textbox', { name: 'Message' }).fill('List the steps.');
    await page.keyboard.press('Enter');
    await answered(step(60));
    const log = page.getByRole('log', { name: 'Conversation' });
    /** px left below what the transcript shows. */
    const below = () => log.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
    /** How far below the transcript's top edge step 20 starts (px). */
    const step20 = async () => {
      const top = await log.evaluate((el) => el.getBoundingClientRect().top);
      return page.getByText(step(20), { exact: true }).evaluate((el, t) => el.getBoundingClientRect().top - t, top);
    };
    /** What the page keeps of where it was (localStorage). */
    const kept = () =>
      page.evaluate(
        () =>
          (globalThis as unknown as { localStorage: { getItem(k: string): string | null } }).localStorage.getItem(
            'knack.scroll',
          ) ?? '',
      );
    assert.ok((await log.evaluate((el) => el.scrollHeight - el.clientHeight)) > 500, 'the transcript scrolls');

    // Followed to the end: after a reload, the bottom.
    await app.until(async () => (await below()) < 40);
    await page.reload();
    await page.getByText(step(60)).waitFor({ timeout: 60_000 });
    await app.until(async () => (await below()) < 40);

    // Scrolled up to read step 20: after a reload, step 20 is where it was, not the bottom.
    await page.getByText(step(20), { exact: true }).evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await log.evaluate((el) => (el.scrollTop -= 30));
    const was = await step20();
    assert.ok(Math.abs(was - 30) < 2, `step 20 starts 30 px below the top (${was})`);
    // Kept as the scroll event is handled: wait for it, so the reload does not come first.
    await app.until(async () => (await kept()).includes('"follow":false'));
    await page.reload();
    await page.getByText(step(20), { exact: true }).waitFor({ timeout: 60_000 });
    await app.until(async () => Math.abs((await step20()) - was) < 2);
    assert.ok((await below()) > 40, 'not at the bottom');

    // A message sent from there, at once (while the restored spot is still held against blocks being laid out): the
    // transcript goes to the bottom and follows the answer to its end, and a reload finds the end.
    server.script({ text: 'That is every step.' });
    await page.getByRole('textbox', { name: 'Message' }).fill('Is that all?');
    await page.keyboard.press('Enter');
    await answered('That is every step.');
    await app.until(async () => (await below()) < 40);
    await page.reload();
    await page.getByText('That is every step.').waitFor({ timeout: 60_000 });
    await app.until(async () => (await below()) < 40);
  },
);
