// The `@` menu of the message box: the caret in a word that starts with `@` (at the start or after a space), anywhere
// in the box, opens a list of the open folder's files (main ranks them for the word), never inside an e-mail address;
// ↑/↓ move, Enter or Tab picks from the answer for what is typed now, waiting for it (the path replaces that word
// only, quoted when it holds a space; the caret goes after it), Esc closes; a cut-short listing and a failure are said, in
// Chinese too; a path is text, never HTML.
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Chat } from '../../../renderer/src/components/Chat';
import { mentionQuery, mentionText } from '../../../renderer/src/components/FileMenu';
import { memoryClient } from './memory-client';
import { renderWith, WS } from './render';

const FILES = ['src/app.ts', 'docs/my notes.md', 'src/<b>bold</b>.ts'];

function client(truncated = false) {
  const c = memoryClient();
  c.handlers['workspace.files'] = ({ query }) => ({
    paths: FILES.filter((p) => [...query.toLowerCase()].every((ch) => p.toLowerCase().includes(ch))),
    truncated,
  });
  return c;
}

const box = () => document.querySelector('.composer textarea') as HTMLTextAreaElement;
const options = () => within(screen.getByRole('listbox')).getAllByRole('option');

describe('the @ menu', () => {
  it('applies to @ at the start or after a space, not inside an e-mail address', () => {
    expect(mentionQuery('@')).toBe('');
    expect(mentionQuery('look at @src/a')).toBe('src/a');
    expect(mentionQuery('mail me@example.com')).toBeUndefined();
    expect(mentionQuery('@src/app.ts and')).toBeUndefined();
    expect(mentionQuery('hello')).toBeUndefined();
    expect(mentionText('look at @sr', 'src/app.ts')).toEqual({ text: 'look at src/app.ts ', caret: 19 });
    expect(mentionText('@no', 'docs/my notes.md').text).toBe('"docs/my notes.md" ');
  });

  it('applies to the @word at the caret wherever it is, and a pick replaces that word only', () => {
    const text = 'compare @sr with @doc please';
    expect(mentionQuery(text, 11)).toBe('sr');
    expect(mentionQuery(text, 9)).toBe('sr'); // the caret inside the word: the whole word is the query
    expect(mentionQuery(text, 20)).toBe('doc');
    expect(mentionQuery(text, 4)).toBeUndefined();
    expect(mentionQuery(text, 12)).toBeUndefined(); // after the space that ends the word
    expect(mentionQuery(text, null)).toBeUndefined(); // a selection
    expect(mentionText(text, 'src/app.ts', 10)).toEqual({ text: 'compare src/app.ts with @doc please', caret: 19 });
    expect(mentionText(text, 'docs/my notes.md', 21)).toEqual({
      text: 'compare @sr with "docs/my notes.md" please',
      caret: 36,
    });
    expect(mentionText('@sr\nnext', 'src/app.ts', 3).text).toBe('src/app.ts\nnext');
  });

  it('opens on @, filters as you type, moves with the arrows and picks with Enter', async () => {
    const c = client();
    renderWith(<Chat />, c, { workspace: WS });
    await userEvent.type(box(), 'explain @');
    const list = await screen.findByRole('listbox', { name: 'Files of the folder' });
    await waitFor(() => expect(options()).toHaveLength(3));
    expect(options()[2]!.textContent).toBe('src/<b>bold</b>.ts');
    expect(list.querySelector('b')).toBeNull();
    expect(box().getAttribute('aria-controls')).toBe(list.id);
    await userEvent.keyboard('{ArrowDown}');
    expect(box().getAttribute('aria-activedescendant')).toBe(options()[1]!.id);
    await userEvent.type(box(), 'note');
    await waitFor(() => expect(options().map((o) => o.textContent)).toEqual(['docs/my notes.md']));
    expect(c.calls.filter((x) => x.method === 'workspace.files').at(-1)!.args[0]).toMatchObject({ query: 'note' });
    await userEvent.keyboard('{Enter}');
    expect(box().value).toBe('explain "docs/my notes.md" ');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(c.calls.some((x) => x.method === 'chat.send')).toBe(false);
  });

  it('does not open inside an e-mail address; Esc closes it and keeps the text; Tab picks', async () => {
    const c = client();
    renderWith(<Chat />, c, { workspace: WS });
    await userEvent.type(box(), 'write to me@exa');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(c.calls.some((x) => x.method === 'workspace.files')).toBe(false);
    await userEvent.clear(box());
    await userEvent.type(box(), '@app');
    await screen.findByRole('listbox');
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(box().value).toBe('@app');
    await userEvent.type(box(), '.');
    await waitFor(() => expect(options().map((o) => o.textContent)).toEqual(['src/app.ts']));
    await userEvent.keyboard('{Tab}');
    expect(box().value).toBe('src/app.ts ');
  });

  it('opens for an @word typed in the middle of the text, picks into it, and puts the caret after the path', async () => {
    const c = client();
    renderWith(<Chat />, c, { workspace: WS });
    await userEvent.type(box(), 'explain  please');
    expect(screen.queryByRole('listbox')).toBeNull();
    await userEvent.type(box(), '@no', { initialSelectionStart: 8, initialSelectionEnd: 8 });
    await waitFor(() => expect(options().map((o) => o.textContent)).toEqual(['docs/my notes.md']));
    await userEvent.keyboard('{Enter}');
    expect(box().value).toBe('explain "docs/my notes.md" please');
    expect(box().selectionStart).toBe('explain "docs/my notes.md" '.length);
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(c.calls.some((x) => x.method === 'chat.send')).toBe(false);
    // The caret moved into an @word opens the menu for that word; out of it closes the menu.
    await userEvent.type(box(), '@ap ', { initialSelectionStart: 0, initialSelectionEnd: 0 });
    expect(box().value).toBe('@ap explain "docs/my notes.md" please');
    expect(screen.queryByRole('listbox')).toBeNull();
    box().setSelectionRange(3, 3);
    fireEvent.select(box());
    await waitFor(() => expect(options().map((o) => o.textContent)).toEqual(['src/app.ts']));
    box().setSelectionRange(10, 10);
    fireEvent.select(box());
    await waitFor(() => expect(screen.queryByRole('listbox')).toBeNull());
  });

  it('Enter while main has not answered what is typed now waits for that answer, never picks from the last one', async () => {
    const c = client();
    const held: (() => void)[] = [];
    const answer = c.handlers['workspace.files']!;
    c.handlers['workspace.files'] = (input) =>
      input.query === 'n'
        ? new Promise((resolve) => held.push(() => resolve(answer(input) as Awaited<ReturnType<typeof answer>>)))
        : answer(input);
    renderWith(<Chat />, c, { workspace: WS });
    await userEvent.type(box(), 'explain @');
    await waitFor(() => expect(options()).toHaveLength(3));
    expect(options()[0]!.textContent).toBe('src/app.ts');
    await userEvent.type(box(), 'n');
    await waitFor(() => expect(held).toHaveLength(1));
    // The rows on screen still answer "@": Enter must not pick src/app.ts from them, nor send.
    await userEvent.keyboard('{Enter}');
    expect(box().value).toBe('explain @n');
    expect(c.calls.some((x) => x.method === 'chat.send')).toBe(false);
    held[0]!();
    await waitFor(() => expect(box().value).toBe('explain "docs/my notes.md" '));
    expect(c.calls.some((x) => x.method === 'chat.send')).toBe(false);
  });

  it('says when the listing was cut short, when nothing matches and when it failed, in Chinese', async () => {
    const c = client(true);
    renderWith(<Chat />, c, { workspace: WS }, 'zh');
    await userEvent.type(box(), '@zzz');
    await waitFor(() => expect(screen.getByText(/没有匹配“zzz”的文件/)).toBeTruthy());
    expect(screen.getByText(/文件太多/)).toBeTruthy();
    await userEvent.clear(box());
    c.failing.add('workspace.files');
    await userEvent.type(box(), '@a');
    await waitFor(() => expect(screen.getByText(/无法列出文件夹中的文件/)).toBeTruthy());
  });
});
