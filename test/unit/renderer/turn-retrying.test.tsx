// While the provider's SDK sends a turn's request again, the chat says "Retrying (2 of 3)…" in the window's language
// instead of a bare "Answering…"; the answer's first words end it.
import { describe, expect, it } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from '../../../renderer/src/App';
import { useView } from '../../../renderer/src/state/store';
import { initI18n } from '../../../renderer/src/i18n';
import { memoryClient } from './memory-client';
import { renderWith, WS } from './render';
import { approval } from './samples';

describe('a turn whose request is sent again', () => {
  it('says which attempt it is, in English and in Chinese, until the answer comes', async () => {
    const c = memoryClient();
    renderWith(<App />, c, { workspace: WS });
    await userEvent.type(screen.getByRole('textbox', { name: 'Message' }), 'hello');
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(useView.getState().sessionId).toBe('s1'));
    const status = () => document.querySelector('.transcript [role="status"]');
    expect(status()?.textContent).toBe('Answering…');
    act(() => c.event('chat.retrying', { sessionId: 's1', turnId: 'm1', attempt: 2, of: 3 }));
    await waitFor(() => expect(status()?.textContent).toBe('Retrying (2 of 3)…'));
    act(() => void initI18n('zh'));
    await waitFor(() => expect(status()?.textContent).toBe('正在重试（第 2 次，共 3 次）…'));
    act(() => void initI18n('en'));
    // Another conversation's retry is not this one's.
    act(() => c.event('chat.retrying', { sessionId: 's9', turnId: 'm9', attempt: 3, of: 3 }));
    expect(status()?.textContent).toBe('Retrying (2 of 3)…');
    act(() => c.event('chat.delta', { sessionId: 's1', turnId: 'm1', kind: 'text', text: 'here it is' }));
    await waitFor(() => expect(status()?.textContent).toBe('Answering…'));
    act(() => c.event('chat.turnEnd', { sessionId: 's1', turnId: 'm1', reason: 'done' }));
    await waitFor(() => expect(status()).toBeNull());
  });
});

describe('a turn waiting for an approval', () => {
  it('says it waits for the user, not that it is answering, in English and in Chinese; answered, it answers again', async () => {
    const c = memoryClient();
    renderWith(<App />, c, { workspace: WS, sessionId: 's1', streaming: true });
    const status = () => document.querySelector('.transcript > [role="status"]');
    expect(status()?.textContent).toBe('Answering…');
    act(() => c.event('chat.approval', approval({ approvalId: 'a1', tool: 'bash', args: { command: 'git status' } })));
    await waitFor(() => expect(status()?.textContent).toBe('Waiting for your approval above.'));
    act(() => void initI18n('zh'));
    await waitFor(() => expect(status()?.textContent).toBe('正在等待你在上方批准。'));
    act(() => void initI18n('en'));
    await userEvent.click(screen.getByRole('button', { name: 'Allow once' }));
    await waitFor(() => expect(status()?.textContent).toBe('Answering…'));
  });
});
