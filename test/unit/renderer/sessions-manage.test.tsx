// Sessions in the window: a search shows the sessions it found with their excerpt (as text: markup and control
// characters a model wrote are shown, never run), rename in place, delete only after a confirmation; in both languages.
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Sessions } from '../../../renderer/src/components/Sessions';
import { useView } from '../../../renderer/src/state/store';
import { noticeText } from '../../../renderer/src/state/notices';
import { memoryClient, session, type MemoryClient } from './memory-client';
import { renderWith, WS } from './render';

function twoSessions(c: MemoryClient) {
  c.sessions = [
    session('s1', 'rotate keys', { messages: 4 }),
    session('s2', 'lunch plans', { updatedAt: Date.parse('2026-11-30T09:00:00Z') }),
  ];
}

describe('Sessions: search', () => {
  it('shows the sessions found with the excerpt, the words marked, markup and controls shown as text', async () => {
    const c = memoryClient();
    twoSessions(c);
    c.searchHits['walrus'] = [
      {
        session: c.sessions[0]!,
        in: 'answer',
        snippet: [
          { text: '…use the <img src=x onerror=alert(1)> ', hit: false },
          { text: 'walrus', hit: true },
          { text: ' procedure\u202e', hit: false },
        ],
      },
    ];
    const { container } = renderWith(<Sessions />, c, { workspace: WS });
    await screen.findByText('lunch plans');
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search sessions' }), 'walrus');
    await screen.findByText('1 session found');
    expect(screen.queryByText('lunch plans')).toBeNull();
    const row = screen.getByText('rotate keys').closest('li')!;
    expect(within(row).getByText('walrus').tagName).toBe('MARK');
    expect(row.textContent).toContain('answer: …use the <img src=x onerror=alert(1)> walrus procedure\\u{202e}');
    expect(container.querySelector('img')).toBeNull();
    expect(c.calls.filter((x) => x.method === 'sessions.search').map((x) => x.args[0])).toEqual([{ query: 'walrus' }]);

    await userEvent.clear(screen.getByRole('searchbox'));
    await screen.findByText('lunch plans');
    await userEvent.type(screen.getByRole('searchbox'), 'zebra');
    await screen.findByText('No session holds “zebra”.');
  });

  it('opens a hit at its message or answer, so main shows the version holding the words', async () => {
    const c = memoryClient();
    twoSessions(c);
    c.searchHits['walrus'] = [
      { session: c.sessions[0]!, in: 'answer', seq: 42, snippet: [{ text: 'walrus', hit: true }] },
    ];
    renderWith(<Sessions />, c, { workspace: WS });
    await screen.findByText('lunch plans');
    await userEvent.click(screen.getByRole('button', { name: 'Open lunch plans' }));
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search sessions' }), 'walrus');
    await screen.findByText('1 session found');
    await userEvent.click(screen.getByRole('button', { name: 'Open rotate keys' }));
    expect(c.calls.filter((x) => x.method === 'sessions.open').map((x) => x.args[0])).toEqual([
      { id: 's2' },
      { id: 's1', at: 42 },
    ]);
  });

  it('in Chinese', async () => {
    const c = memoryClient();
    twoSessions(c);
    renderWith(<Sessions />, c, { workspace: WS }, 'zh');
    await screen.findByText('lunch plans');
    await userEvent.type(screen.getByRole('searchbox', { name: '搜索会话' }), 'lunch');
    await screen.findByText('找到 1 个会话');
    const rows = screen.getAllByRole('listitem');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.textContent).toContain('标题: lunch plans');
  });
});

describe('Sessions: rename and delete', () => {
  it('renames in place; an empty title is refused without a call', async () => {
    const c = memoryClient();
    twoSessions(c);
    renderWith(<Sessions />, c, { workspace: WS });
    await userEvent.click(await screen.findByRole('button', { name: 'Rename lunch plans' }));
    const input = screen.getByRole('textbox', { name: 'New title for lunch plans' });
    await userEvent.clear(input);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByRole('alert').textContent).toBe('A title cannot be empty.');
    expect(c.calls.some((x) => x.method === 'sessions.rename')).toBe(false);
    await userEvent.type(input, 'Team lunch{Enter}');
    await screen.findByText('Team lunch');
    expect(c.calls.find((x) => x.method === 'sessions.rename')!.args).toEqual([{ id: 's2', title: 'Team lunch' }]);
    expect(screen.queryByRole('textbox')).toBeNull();
    // The focus is back on the row's Rename, never dropped to the page; after Esc too.
    const again = screen.getByRole('button', { name: 'Rename Team lunch' });
    expect(document.activeElement).toBe(again);
    await userEvent.keyboard('{Enter}');
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(document.activeElement).toBe(again);
  });

  it('a failed rename says why and keeps the title being typed', async () => {
    const c = memoryClient();
    twoSessions(c);
    c.failing.add('sessions.rename');
    renderWith(<Sessions />, c, { workspace: WS });
    await userEvent.click(await screen.findByRole('button', { name: 'Rename rotate keys' }));
    await userEvent.type(screen.getByRole('textbox'), ' soon{Enter}');
    expect((await screen.findByRole('alert')).textContent).toContain('sessions.rename failed on purpose');
    expect((screen.getByRole('textbox') as HTMLInputElement).value).toBe('rotate keys soon');
  });

  it('deletes only once confirmed; Cancel keeps it; the open conversation gives way to a new chat', async () => {
    const c = memoryClient();
    twoSessions(c);
    renderWith(<Sessions />, c, { workspace: WS, sessionId: 's1' });
    await userEvent.click(await screen.findByRole('button', { name: 'Delete rotate keys' }));
    let dialog = screen.getByRole('dialog', { name: 'Delete this session?' });
    expect(dialog.textContent).toContain('“rotate keys” and its 4 messages will be deleted');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(c.calls.some((x) => x.method === 'sessions.delete')).toBe(false);
    expect(screen.getByText('rotate keys')).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Delete rotate keys' }));
    dialog = screen.getByRole('dialog');
    // It is the conversation on screen: the confirmation says what becomes of the chat.
    expect(dialog.textContent).toContain('It is the conversation open in the chat: the chat starts a new one.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete session' }));
    await waitFor(() => expect(screen.queryByText('rotate keys')).toBeNull());
    expect(c.calls.find((x) => x.method === 'sessions.delete')!.args).toEqual([{ id: 's1' }]);
    expect(useView.getState().sessionId).toBeUndefined();
    // ... and the window says it did.
    expect(useView.getState().notices.map((n) => [n.kind, noticeText(n)])).toEqual([
      ['info', '“rotate keys” was the conversation open in the chat: the chat starts a new one.'],
    ]);
    expect(screen.getByText('lunch plans')).toBeTruthy();
    // The window stays on the list, the focus on the Delete of the row now in its place; after the last, the search.
    expect(useView.getState().view).toBe('sessions');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Delete lunch plans' }));
    await userEvent.keyboard('{Enter}');
    // Another conversation than the one on screen: nothing is said of the chat.
    expect(screen.getByRole('dialog').textContent).not.toContain('open in the chat');
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete session' }));
    await waitFor(() => expect(screen.queryByText('lunch plans')).toBeNull());
    expect(document.activeElement).toBe(screen.getByRole('searchbox', { name: 'Search sessions' }));
    expect(useView.getState().notices).toHaveLength(1);
  });

  it('a delete that fails says so and keeps the row', async () => {
    const c = memoryClient();
    twoSessions(c);
    c.failing.add('sessions.delete');
    renderWith(<Sessions />, c, { workspace: WS }, 'zh');
    await userEvent.click(await screen.findByRole('button', { name: '删除 lunch plans' }));
    const dialog = screen.getByRole('dialog', { name: '删除这个会话？' });
    await userEvent.click(within(dialog).getByRole('button', { name: '删除会话' }));
    expect((await screen.findByRole('alert')).textContent).toContain('sessions.delete failed on purpose');
    expect(screen.getByText('lunch plans')).toBeTruthy();
  });
});
