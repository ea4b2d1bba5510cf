// A message whose send fails (or comes back unstored) after the user switched to another folder is never lost: it is
// kept with its folder and conversation, a notice says where, and it is back in that conversation's box on return.
import { describe, expect, it } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from '../../../renderer/src/App';
import { useView } from '../../../renderer/src/state/store';
import { memoryClient, type MemoryClient } from './memory-client';
import { renderWith, WS } from './render';

const box = () => screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Message' });

async function switchTo(name: string) {
  await userEvent.click(screen.getByRole('button', { name: /^Workspace .* \(switch\)$/ }));
  await userEvent.click(await screen.findByRole('button', { name: `/home/me/${name}` }));
  await waitFor(() => expect(useView.getState().workspace?.name).toBe(name));
}

/** chat.send waits for `release`, then fails as an engine that went away would. */
function failingSendAfter(c: MemoryClient): () => void {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  c.handlers['chat.send'] = async () => {
    await gate;
    throw { code: 'unavailable', message: 'the engine went away' };
  };
  return () => release();
}

describe('a message that could not be sent, after a folder switch', () => {
  it("in a new chat: a notice names its folder; back in that folder, the text is in the box — and never in the other folder's", async () => {
    const c = memoryClient();
    const fail = failingSendAfter(c);
    renderWith(<App />, c, { workspace: WS });
    await userEvent.type(box(), 'summarise the alpha release');
    await userEvent.keyboard('{Enter}');
    await switchTo('beta');
    await act(async () => {
      fail();
      await new Promise((r) => setTimeout(r, 20));
    });
    expect((await screen.findByRole('alert')).textContent).toContain('could not be sent');
    expect(screen.getByRole('alert').textContent).toContain('alpha');
    expect(box().value).toBe('');
    expect(useView.getState().messages).toHaveLength(0);
    await switchTo('alpha');
    await waitFor(() => expect(box().value).toBe('summarise the alpha release'));
    // Taken once: it is not waiting anywhere any more.
    expect(useView.getState().heldDrafts).toEqual({});
  });

  it('in a stored conversation: back in its folder, that conversation opens again with the text in its box', async () => {
    const c = memoryClient();
    const fail = failingSendAfter(c);
    renderWith(<App />, c, { workspace: WS, sessionId: 's7', messages: [] });
    await userEvent.type(box(), 'and tag it v2');
    await userEvent.keyboard('{Enter}');
    await switchTo('beta');
    await act(async () => {
      fail();
      await new Promise((r) => setTimeout(r, 20));
    });
    expect((await screen.findByRole('alert')).textContent).toContain('alpha');
    await switchTo('alpha');
    await waitFor(() => expect(useView.getState().sessionId).toBe('s7'));
    expect(c.calls.filter((x) => x.method === 'sessions.open').map((x) => x.args[0])).toEqual([{ id: 's7' }]);
    await waitFor(() => expect(box().value).toBe('and tag it v2'));
    expect(screen.getByText('hello again')).toBeTruthy();
  });

  it('a message the engine gave back unstored after the switch waits for its folder too', async () => {
    const c = memoryClient();
    renderWith(<App />, c, { workspace: WS });
    await userEvent.type(box(), 'write the alpha notes');
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(useView.getState().sessionId).toBe('s1'));
    await switchTo('beta');
    act(() =>
      c.event('chat.turnEnd', {
        sessionId: 's1',
        turnId: 'm1',
        reason: 'error',
        error: { code: 'internal', message: 'could not save the message: disk full' },
        unsent: 'write the alpha notes',
      }),
    );
    expect((await screen.findByRole('alert')).textContent).toContain('alpha');
    expect(box().value).toBe('');
    await switchTo('alpha');
    await waitFor(() => expect(useView.getState().sessionId).toBe('s1'));
    await waitFor(() => expect(box().value).toBe('write the alpha notes'));
  });

  it('a conversation that is gone by then: the text comes into the box on screen, with a notice', async () => {
    const c = memoryClient();
    const fail = failingSendAfter(c);
    renderWith(<App />, c, { workspace: WS, sessionId: 's7', messages: [] });
    await userEvent.type(box(), 'do not lose me');
    await userEvent.keyboard('{Enter}');
    await switchTo('beta');
    await act(async () => {
      fail();
      await new Promise((r) => setTimeout(r, 20));
    });
    c.failing.add('sessions.open');
    await switchTo('alpha');
    await waitFor(() => expect(box().value).toBe('do not lose me'));
    expect(useView.getState().sessionId).toBeUndefined();
    expect((await screen.findByText(/in this message box now/)).closest('[role="status"]')).not.toBeNull();
  });

  it('a message handed back while the chat was not shown stays with its conversation when the user goes to another folder', async () => {
    const c = memoryClient();
    renderWith(<App />, c, { workspace: WS, sessionId: 's1', messages: [] });
    await userEvent.type(box(), 'the first');
    await userEvent.keyboard('{Enter}');
    await userEvent.click(screen.getByRole('button', { name: 'Settings' }));
    act(() =>
      c.event('chat.turnEnd', {
        sessionId: 's1',
        turnId: 'm1',
        reason: 'error',
        error: { code: 'internal', message: 'disk full' },
        unsent: 'the first',
      }),
    );
    await new Promise((r) => setTimeout(r, 50));
    await switchTo('beta');
    expect(box().value).toBe('');
    await switchTo('alpha');
    await waitFor(() => expect(box().value).toBe('the first'));
  });

  it('a conversation reopened while its send was pending takes the failed message at once', async () => {
    const c = memoryClient();
    const fail = failingSendAfter(c);
    renderWith(<App />, c, { workspace: WS, sessionId: 's7', messages: [] });
    await userEvent.type(box(), 'still here');
    await userEvent.keyboard('{Enter}');
    act(() => useView.getState().showSession('s7', []));
    await act(async () => {
      fail();
      await new Promise((r) => setTimeout(r, 20));
    });
    await waitFor(() => expect(box().value).toBe('still here'));
    expect(useView.getState().heldDrafts).toEqual({});
    expect((await screen.findByRole('alert')).textContent).toContain('the engine went away');
  });
});

describe('the folder opened while a message of another folder is on its way', () => {
  it('says nothing is being answered there and offers Send, not Stop — before and after the send fails', async () => {
    const c = memoryClient();
    const fail = failingSendAfter(c);
    renderWith(<App />, c, { workspace: WS });
    await userEvent.type(box(), 'summarise the alpha release');
    await userEvent.keyboard('{Enter}');
    expect(screen.getByRole('button', { name: 'Stop' })).toBeTruthy();
    await switchTo('beta');
    const idle = () => {
      expect(screen.queryByText('Answering…')).toBeNull();
      expect(screen.queryByRole('button', { name: 'Stop' })).toBeNull();
      expect(screen.getByRole('button', { name: 'Send' })).toBeTruthy();
    };
    idle();
    await act(async () => {
      fail();
      await new Promise((r) => setTimeout(r, 20));
    });
    expect((await screen.findByRole('alert')).textContent).toContain('could not be sent');
    idle();
    // And beta's own message can be sent.
    c.handlers['chat.send'] = async () => ({ sessionId: 's9', turnId: 't9' });
    await userEvent.type(box(), 'beta works');
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(c.calls.filter((x) => x.method === 'chat.send')).toHaveLength(2));
  });
});
