// The conversation people expect: the open conversation comes back after a reload, and Sessions tells a conversation
// waiting for the user's approval apart from one still answering.
import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from '../../../renderer/src/App';
import { Sessions } from '../../../renderer/src/components/Sessions';
import { useView } from '../../../renderer/src/state/store';
import { folder, memoryClient, session, type MemoryClient } from './memory-client';
import { renderWith, WS } from './render';

function withSessions(c: MemoryClient) {
  c.sessions = [
    session('s1', 'write the plan file', { running: true, waiting: true }),
    session('s2', 'long essay', { messages: 1, running: true }),
  ];
}

describe('Sessions: waiting for an approval is not answering', () => {
  it('in English', async () => {
    const c = memoryClient();
    withSessions(c);
    renderWith(<Sessions />, c, { workspace: WS });
    const waiting = (await screen.findByText('write the plan file')).closest('li')!;
    expect(waiting.textContent).toContain('waiting for your approval');
    expect(waiting.textContent).not.toContain('still answering');
    const answering = screen.getByText('long essay').closest('li')!;
    expect(answering.textContent).toContain('still answering');
    expect(answering.textContent).not.toContain('waiting for your approval');
  });

  it('in Chinese', async () => {
    const c = memoryClient();
    withSessions(c);
    renderWith(<Sessions />, c, { workspace: WS }, 'zh');
    const waiting = (await screen.findByText('write the plan file')).closest('li')!;
    expect(waiting.textContent).toContain('等待你的批准');
    expect(screen.getByText('long essay').closest('li')!.textContent).toContain('仍在进行');
  });
});

describe('the open conversation after a reload', () => {
  it('a conversation opened from Sessions is open again when the window starts over in that folder', async () => {
    const c = memoryClient();
    const first = renderWith(<App />, c, { workspace: WS });
    useView.getState().showSession('s1', [], false);
    first.unmount();
    renderWith(<App />, c, { workspace: WS });
    await screen.findByText('hello again');
    expect(useView.getState().sessionId).toBe('s1');
    expect(c.calls.filter((x) => x.method === 'sessions.open').map((x) => x.args[0])).toEqual([{ id: 's1' }]);
  });

  it('after New chat, a reload starts with a new chat', async () => {
    const c = memoryClient();
    const first = renderWith(<App />, c, { workspace: WS });
    useView.getState().showSession('s1', [], false);
    await userEvent.click(screen.getByRole('button', { name: 'New chat' }));
    first.unmount();
    renderWith(<App />, c, { workspace: WS });
    await screen.findByRole('textbox', { name: 'Message' });
    expect(c.calls.some((x) => x.method === 'sessions.open')).toBe(false);
    expect(useView.getState().sessionId).toBeUndefined();
  });

  it('another folder does not open it, and a conversation that is gone leaves a notice and a new chat', async () => {
    const c = memoryClient();
    const first = renderWith(<App />, c, { workspace: WS });
    useView.getState().showSession('s1', [], false);
    first.unmount();
    renderWith(<App />, c, { workspace: folder('/home/me/beta') });
    await screen.findByRole('textbox', { name: 'Message' });
    expect(c.calls.some((x) => x.method === 'sessions.open')).toBe(false);

    c.failing.add('sessions.open');
    renderWith(<App />, c, { workspace: WS });
    await waitFor(() => expect(document.body.textContent).toContain('could not be opened again'));
    expect(document.body.textContent).toContain('sessions.open failed on purpose');
    expect(useView.getState().sessionId).toBeUndefined();
  });
});
