// The transcript built from the contract as it comes: chat events (checked against the contract by the typed client)
// applied to the store, and a stored conversation opened while its turn still runs.
import { beforeEach, describe, expect, it } from 'vitest';
import type { EventPayload } from '../../../preload/contract';
import { useView } from '../../../renderer/src/state/store';
import { opened, type ChatEvent } from '../../../renderer/src/state/transcript';

const approval: EventPayload<'chat.approval'> = {
  sessionId: 's1',
  approvalId: 'a1',
  tool: 'bash',
  args: { command: 'git status' },
  actor: { kind: 'agent', activeSkills: [] },
  reason: 'asks',
  summary: 'git status',
  alwaysPreview: ['allow bash: git status'],
};

beforeEach(() => useView.setState({ sessionId: 's1', messages: [], streaming: true, turns: {}, mine: [], early: [] }));

describe('transcript', () => {
  it('applies stream events: text, not thinking; a tool card with its duration; the approval joins the turn; the end', () => {
    useView.getState().began('s1', 't1');
    const events: ChatEvent[] = [
      { name: 'chat.approval', ...approval },
      { name: 'chat.delta', sessionId: 's1', turnId: 't1', kind: 'text', text: 'Hello' },
      { name: 'chat.delta', sessionId: 's1', turnId: 't1', kind: 'thinking', text: 'hmm' },
      {
        name: 'chat.toolCall',
        sessionId: 's1',
        turnId: 't1',
        card: { callId: 'c1', tool: 'bash', args: { command: 'ls' }, status: 'running' },
      },
      {
        name: 'chat.toolCall',
        sessionId: 's1',
        turnId: 't1',
        card: { callId: 'c1', tool: 'bash', args: { command: 'ls' }, status: 'ok', output: 'a\nb', durationMs: 7 },
      },
      { name: 'chat.turnEnd', sessionId: 's1', turnId: 't1', reason: 'stopped' },
    ];
    useView.getState().applyChat(events);
    const { messages, streaming } = useView.getState();
    expect(streaming).toBe(false);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ id: 't1', stopped: true });
    expect(messages[0]!.parts.map((p) => p.kind)).toEqual(['approval', 'text', 'tool']);
    expect(messages[0]!.parts[1]).toEqual({ kind: 'text', text: 'Hello' });
    // How long the call ran, as main measured it (its approval's wait not counted), not the time between two events.
    expect(messages[0]!.parts[2]).toMatchObject({ card: { status: 'ok', output: 'a\nb', durationMs: 7 } });
  });

  it('a failed turn says how it ended with the reason, and whether Retry is offered', () => {
    useView.getState().applyChat([
      {
        name: 'chat.turnEnd',
        sessionId: 's1',
        turnId: 't2',
        reason: 'error',
        error: { code: 'internal', message: 'disk full' },
        retryable: true,
      },
    ]);
    expect(useView.getState().messages[0]).toMatchObject({ id: 't2', end: 'failed', error: 'disk full', retry: true });
  });

  it('opens a conversation whose turn still runs: its reply takes the turn id, open approvals are cards, the turn streams on into it', () => {
    const o = opened({
      session: {
        id: 's1',
        title: 'Chat',
        workspace: '/w',
        createdAt: 1,
        updatedAt: 2,
        messages: 3,
        provider: null,
        model: null,
        planMode: false,
        running: true,
      },
      turnId: 's1:2',
      approvals: [{ ...approval, args: { command: 'git push' }, summary: 'git push' }],
      items: [
        { kind: 'user', id: '1', text: 'push it', at: 1 },
        { kind: 'assistant', id: '2', text: 'Pushing.', at: 2 },
      ],
    });
    expect(o.running).toBe(true);
    expect(o.messages).toHaveLength(2);
    expect(o.messages[1]).toMatchObject({
      id: 's1:2',
      role: 'assistant',
      parts: [
        { kind: 'text', text: 'Pushing.' },
        { kind: 'approval', request: { approvalId: 'a1', summary: 'git push' } },
      ],
    });
    useView.getState().showSession('s1', o.messages, o.running);
    useView.getState().applyChat([
      { name: 'chat.approval', ...approval, approvalId: 'a2' },
      { name: 'chat.delta', sessionId: 's1', turnId: 's1:2', kind: 'text', text: ' Done.' },
    ]);
    const { messages } = useView.getState();
    expect(messages).toHaveLength(2);
    expect(messages[1]!.parts.map((p) => p.kind)).toEqual(['text', 'approval', 'approval', 'text']);
  });
});
