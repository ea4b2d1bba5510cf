// Edit on your messages, Regenerate on answers, and the version switch: each reaches the engine with the number of
// the message it is about; an edit while an answer streams asks first and stops it.
import { describe, expect, it } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Chat } from '../../../renderer/src/components/Chat';
import type { ChatMessage } from '../../../renderer/src/state/transcript';
import { useView } from '../../../renderer/src/state/store';
import { memoryClient } from './memory-client';
import { renderWith, WS } from './render';

const convo: ChatMessage[] = [
  { id: 'u1', role: 'user', parts: [{ kind: 'text', text: 'capital of France?' }] },
  { id: 'a1', role: 'assistant', parts: [{ kind: 'text', text: 'Paris.' }] },
  { id: 'u2', role: 'user', parts: [{ kind: 'text', text: 'and Germany?' }] },
  { id: 'a2', role: 'assistant', parts: [{ kind: 'text', text: 'Berlin.' }] },
];

describe('Edit, Regenerate and versions', () => {
  it('Edit sends the new text as an edit of that message; the conversation after it gives way; 2 / 2 shows', async () => {
    const user = userEvent.setup();
    const client = memoryClient();
    renderWith(<Chat />, client, { workspace: WS, sessionId: 's1', messages: convo });
    const first = screen.getAllByRole('article', { name: 'You' })[0]!;
    await user.click(within(first).getByRole('button', { name: 'Edit' }));
    const box = screen.getByRole('textbox', { name: 'Edit your message' });
    expect((box as HTMLTextAreaElement).value).toBe('capital of France?');
    await user.clear(box);
    await user.type(box, 'capital of Spain?');
    await user.click(screen.getByRole('button', { name: 'Send edit' }));
    await waitFor(() => expect(client.calls.some((c) => c.method === 'chat.send')).toBe(true));
    const call = client.calls.find((c) => c.method === 'chat.send')!;
    expect(call.args[0]).toMatchObject({ text: 'capital of Spain?', edit: 0 });
    expect(screen.queryByText('Paris.')).toBeNull();
    expect(screen.queryByText('and Germany?')).toBeNull();
    const versions = screen.getByRole('group', { name: 'Versions of your message' });
    expect(versions.textContent).toMatch(/2 \/ 2/);
  });

  it('Edit keeps the message’s files, each removable: the ones left go with the edit (keepFiles)', async () => {
    const user = userEvent.setup();
    const client = memoryClient();
    const withFiles: ChatMessage[] = [
      {
        ...convo[0]!,
        files: [
          { kind: 'text', name: 'notes.txt', mime: 'text/plain', size: 20 },
          { kind: 'text', name: 'plan.md', mime: 'text/markdown', size: 18 },
        ],
      },
      ...convo.slice(1),
    ];
    renderWith(<Chat />, client, { workspace: WS, sessionId: 's1', messages: withFiles });
    await user.click(within(screen.getAllByRole('article', { name: 'You' })[0]!).getByRole('button', { name: 'Edit' }));
    const going = screen.getByRole('list', { name: 'Files going with the edit' });
    expect(within(going).getByText('notes.txt')).toBeTruthy();
    await user.click(within(going).getByRole('button', { name: 'Remove plan.md' }));
    expect(within(going).queryByText('plan.md')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Send edit' }));
    await waitFor(() => expect(client.calls.some((c) => c.method === 'chat.send')).toBe(true));
    const call = client.calls.find((c) => c.method === 'chat.send')!;
    expect(call.args[0]).toMatchObject({ edit: 0, keepFiles: [0] });
    // The new version shows the file that went with it.
    const sent = screen.getByRole('list', { name: 'Files sent with this message' });
    expect(within(sent).getByText('notes.txt')).toBeTruthy();
    expect(within(sent).queryByText('plan.md')).toBeNull();
  });

  it('Edit while an answer streams asks, and Stop and edit stops it first', async () => {
    const user = userEvent.setup();
    const client = memoryClient();
    renderWith(<Chat />, client, { workspace: WS, sessionId: 's1', messages: convo, streaming: true });
    await user.click(within(screen.getAllByRole('article', { name: 'You' })[1]!).getByRole('button', { name: 'Edit' }));
    const ask = screen.getByRole('group', { name: 'Stop the answer to edit?' });
    expect(client.calls.some((c) => c.method === 'chat.stop')).toBe(false);
    await user.click(within(ask).getByRole('button', { name: 'Stop and edit' }));
    expect(client.calls.find((c) => c.method === 'chat.stop')?.args).toEqual([{ sessionId: 's1' }]);
    expect(await screen.findByRole('textbox', { name: 'Edit your message' })).toBeTruthy();
  });

  it('Regenerate asks the engine for a new answer to that message; the answer shows 2 / 2', async () => {
    const user = userEvent.setup();
    const client = memoryClient();
    renderWith(<Chat />, client, { workspace: WS, sessionId: 's1', messages: convo });
    const answers = screen.getAllByRole('article', { name: 'Knack' });
    await user.click(within(answers[1]!).getByRole('button', { name: 'Regenerate' }));
    expect(client.calls.find((c) => c.method === 'chat.regenerate')?.args).toEqual([{ sessionId: 's1', turn: 1 }]);
    expect(screen.queryByText('Berlin.')).toBeNull();
    expect(screen.getByText('Paris.')).toBeTruthy();
    expect((await screen.findByRole('group', { name: 'Versions of the answer' })).textContent).toMatch(/2 \/ 2/);
  });

  it('an answer that failed offers its actions under how it ended; with nothing in it, Retry and not also Regenerate', () => {
    const failed: ChatMessage[] = [
      { id: 'u1', role: 'user', parts: [{ kind: 'text', text: 'hello' }] },
      { id: 'a1', role: 'assistant', parts: [], end: 'failed', error: 'anthropic is overloaded', retry: true },
      { id: 'u2', role: 'user', parts: [{ kind: 'text', text: 'again' }] },
      {
        id: 'a2',
        role: 'assistant',
        parts: [{ kind: 'text', text: 'half an' }],
        end: 'interrupted',
        error: 'the connection was lost',
        retry: true,
      },
    ];
    renderWith(<Chat />, memoryClient(), { workspace: WS, sessionId: 's1', messages: failed });
    const [empty, half] = screen.getAllByRole('article', { name: 'Knack' });
    expect(within(empty!).getByRole('button', { name: 'Retry' })).toBeTruthy();
    expect(within(empty!).queryByRole('button', { name: 'Regenerate' })).toBeNull();
    // With text in it, both: Retry finishes it, Regenerate asks for another answer; the end line comes first.
    const regenerate = within(half!).getByRole('button', { name: 'Regenerate' });
    const end = half!.querySelector('.answer-end')!;
    expect(end.compareDocumentPosition(regenerate) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('Regenerate is only under finished answers: not under one still running or waiting for approval', async () => {
    const waiting: ChatMessage = {
      id: 'a2',
      role: 'assistant',
      parts: [
        { kind: 'text', text: 'Let me look.' },
        {
          kind: 'approval',
          request: {
            sessionId: 's1',
            approvalId: 'q1',
            tool: 'bash',
            args: { command: 'git status' },
            actor: { kind: 'agent', activeSkills: [] },
            reason: 'asks',
            summary: 'git status',
            alwaysPreview: [],
          },
        },
      ],
    };
    renderWith(<Chat />, memoryClient(), {
      workspace: WS,
      sessionId: 's1',
      messages: [...convo.slice(0, 3), { id: 'a2', role: 'assistant', parts: [{ kind: 'text', text: 'Ber' }] }],
      streaming: true,
    });
    const regenerateOn = (i: number) =>
      within(screen.getAllByRole('article', { name: 'Knack' })[i]!).queryByRole('button', { name: 'Regenerate' });
    // Running: the answer has none; the finished one above keeps its own (not usable until the turn ends).
    expect(regenerateOn(1)).toBeNull();
    expect((regenerateOn(0) as HTMLButtonElement).disabled).toBe(true);
    // Waiting for approval: none either.
    act(() => useView.setState({ messages: [...convo.slice(0, 3), waiting] }));
    expect(screen.getByText('Waiting for your approval above.')).toBeTruthy();
    expect(regenerateOn(1)).toBeNull();
    // The turn ended: the answer is finished, and both can be regenerated.
    act(() => useView.setState({ streaming: false }));
    expect((regenerateOn(1) as HTMLButtonElement).disabled).toBe(false);
    expect((regenerateOn(0) as HTMLButtonElement).disabled).toBe(false);
  });

  it('the version switch shows another version with the conversation that follows it', async () => {
    const user = userEvent.setup();
    const client = memoryClient();
    client.versionItems = [
      { kind: 'user', id: 'u1', text: 'capital of France?', at: 1, versions: { message: { index: 0, count: 2 } } },
      { kind: 'assistant', id: 'a1', text: 'Paris.', at: 2 },
      { kind: 'user', id: 'u2', text: 'and Germany?', at: 3 },
      { kind: 'assistant', id: 'a2', text: 'Berlin.', at: 4 },
    ];
    const edited: ChatMessage[] = [
      {
        id: 'u9',
        role: 'user',
        parts: [{ kind: 'text', text: 'capital of Spain?' }],
        versions: { index: 1, count: 2 },
      },
      { id: 'a9', role: 'assistant', parts: [{ kind: 'text', text: 'Madrid.' }] },
    ];
    renderWith(<Chat />, client, { workspace: WS, sessionId: 's1', messages: edited });
    const sw = screen.getByRole('group', { name: 'Versions of your message' });
    expect(within(sw).getByRole('button', { name: 'Next version' })).toHaveProperty('disabled', true);
    await user.click(within(sw).getByRole('button', { name: 'Previous version' }));
    expect(client.calls.find((c) => c.method === 'chat.switchVersion')?.args).toEqual([
      { sessionId: 's1', turn: 0, which: 'message', index: 0 },
    ]);
    expect(await screen.findByText('Berlin.')).toBeTruthy();
    expect(screen.getByRole('group', { name: 'Versions of your message' }).textContent).toMatch(/1 \/ 2/);
    // The message shown is another element now: its switch takes the focus back (Previous is disabled: on Next).
    expect(document.activeElement).toBe(
      within(screen.getByRole('group', { name: 'Versions of your message' })).getByRole('button', {
        name: 'Next version',
      }),
    );
  });

  it('the focus is never dropped to the page: after an edit is sent or cancelled, or an answer regenerated', async () => {
    const user = userEvent.setup();
    renderWith(<Chat />, memoryClient(), { workspace: WS, sessionId: 's1', messages: convo });
    const box = screen.getByRole('textbox', { name: 'Message' });
    // Esc: back on the Edit button that opened it.
    await user.click(within(screen.getAllByRole('article', { name: 'You' })[1]!).getByRole('button', { name: 'Edit' }));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('textbox', { name: 'Edit your message' })).toBeNull();
    expect(document.activeElement).toBe(
      within(screen.getAllByRole('article', { name: 'You' })[1]!).getByRole('button', { name: 'Edit' }),
    );
    // Sent: in the message box, for what comes next.
    await user.keyboard('{Enter}');
    await user.type(screen.getByRole('textbox', { name: 'Edit your message' }), ' And Italy?{Enter}');
    await waitFor(() => expect(document.activeElement).toBe(box));
    // Regenerate (the button is disabled while the new answer streams): in the message box too.
    useView.setState({ streaming: false, messages: convo });
    await user.click(
      within(screen.getAllByRole('article', { name: 'Knack' })[0]!).getByRole('button', { name: 'Regenerate' }),
    );
    expect(document.activeElement).toBe(box);
  });

  it('in Chinese too', () => {
    renderWith(<Chat />, memoryClient(), { workspace: WS, sessionId: 's1', messages: convo }, 'zh');
    expect(screen.getAllByRole('button', { name: '编辑' })).toHaveLength(2);
    expect(screen.getAllByRole('button', { name: '重新生成' })).toHaveLength(2);
  });
});
