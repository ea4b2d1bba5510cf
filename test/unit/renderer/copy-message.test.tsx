// Copy on every message: the user's words and the answer's Markdown source reach the clipboard; a refusing
// clipboard is said beside the button.
import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Chat } from '../../../renderer/src/components/Chat';
import type { ChatMessage } from '../../../renderer/src/state/transcript';
import { memoryClient } from './memory-client';
import { renderWith, WS } from './render';

const messages: ChatMessage[] = [
  { id: 'u1', role: 'user', parts: [{ kind: 'text', text: 'summarise <b>the</b> release' }] },
  { id: 'a1', role: 'assistant', parts: [{ kind: 'text', text: '## Notes\n\n- **fast** start' }] },
];

describe('Copy on a message', () => {
  it('copies your message and the answer as written', async () => {
    const user = userEvent.setup();
    renderWith(<Chat />, memoryClient(), { workspace: WS, sessionId: 's1', messages });
    await user.click(screen.getByRole('button', { name: 'Copy your message' }));
    expect(await navigator.clipboard.readText()).toBe('summarise <b>the</b> release');
    await user.click(screen.getByRole('button', { name: 'Copy the answer' }));
    expect(await navigator.clipboard.readText()).toBe('## Notes\n\n- **fast** start');
    expect((await screen.findAllByText('Copied')).length).toBeGreaterThan(0);
  });

  it('a clipboard that refuses is said, in Chinese too', async () => {
    const user = userEvent.setup();
    renderWith(<Chat />, memoryClient(), { workspace: WS, sessionId: 's1', messages }, 'zh');
    navigator.clipboard.writeText = () => Promise.reject(new Error('permission denied'));
    await user.click(screen.getByRole('button', { name: '复制回答' }));
    expect((await screen.findByRole('alert')).textContent).toBe('无法复制：permission denied');
  });
});
