// Serve mode's notifications: the header asks for the permission with a click; once granted, an answer that ends or
// an approval that waits in a conversation of this window notifies while the page is in the background, never while
// it has the focus, and never for another tab's conversation. (happy-dom has no Notification API: a stand-in records.)
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from '../../../renderer/src/App';
import { memoryClient } from './memory-client';
import { renderWith, WS } from './render';

const shown: { title: string; body?: string }[] = [];
let permission: NotificationPermission = 'default';

class FakeNotification {
  static get permission() {
    return permission;
  }
  static requestPermission = async () => (permission = 'granted');
  onclick: (() => void) | null = null;
  constructor(title: string, o: { body?: string } = {}) {
    shown.push({ title, ...(o.body !== undefined ? { body: o.body } : {}) });
  }
}

beforeEach(() => {
  shown.length = 0;
  permission = 'default';
  vi.stubGlobal('Notification', FakeNotification);
});
afterEach(() => vi.unstubAllGlobals());

const approval = (sessionId: string) => ({
  sessionId,
  approvalId: 'a1',
  tool: 'bash',
  args: {},
  actor: { kind: 'agent' as const, activeSkills: [] },
  summary: 'bash: git push', // as the service makes it (callSummary: it starts with the tool's name)
  reason: 'asks',
  alwaysPreview: [],
});

describe('notifications in serve mode', () => {
  it('asks with a click, then notifies an approval and a finished answer only while the page is in the background', async () => {
    const c = memoryClient();
    const focus = vi.spyOn(document, 'hasFocus').mockReturnValue(false);
    renderWith(<App />, c, { workspace: WS, sessionId: 's1' });
    await userEvent.click(screen.getByRole('button', { name: 'Notify me' }));
    expect(screen.queryByRole('button', { name: 'Notify me' })).toBeNull();
    act(() => c.event('chat.approval', approval('s1')));
    expect(shown).toEqual([{ title: 'Knack is waiting for your approval', body: 'bash: git push' }]);
    act(() => c.event('chat.turnEnd', { sessionId: 's1', turnId: 'm1', reason: 'done' }));
    expect(shown[1]).toEqual({ title: 'Knack: the answer is ready', body: 'In alpha: open Knack to read it.' });
    // Another tab's conversation, or the page in front: nothing.
    act(() => c.event('chat.approval', approval('other')));
    focus.mockReturnValue(true);
    act(() =>
      c.event('chat.turnEnd', {
        sessionId: 's1',
        turnId: 'm2',
        reason: 'error',
        error: { code: 'internal', message: 'boom' },
      }),
    );
    expect(shown).toHaveLength(2);
  });

  it('says nothing before the permission is granted, and speaks Chinese', async () => {
    const c = memoryClient();
    vi.spyOn(document, 'hasFocus').mockReturnValue(false);
    renderWith(<App />, c, { workspace: WS, sessionId: 's1' }, 'zh');
    act(() => c.event('chat.turnEnd', { sessionId: 's1', turnId: 'm1', reason: 'done' }));
    expect(shown).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: '开启通知' }));
    act(() => c.event('chat.turnEnd', { sessionId: 's1', turnId: 'm1', reason: 'stopped' }));
    expect(shown[0]!.title).toBe('Knack：回答已停止');
  });
});
