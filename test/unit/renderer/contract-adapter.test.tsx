// The shipped client: the shell's typed contract client (real zod validation both ways) over an in-memory transport,
// adapted to the screens' view models. Answers here are contract-valid; a shape drift fails these tests.
import { describe, expect, it } from 'vitest';
import { createClient, type Transport } from '../../../preload/client';
import type { MethodName, MethodOutput } from '../../../preload/contract';
import { adapt } from '../../../renderer/src/api/connect';
import type { ChatEvent } from '../../../renderer/src/api/types';

type Answers = { [M in MethodName]?: (input: never) => MethodOutput<M> };

function transport(answers: Answers) {
  const listeners = new Set<(name: string, payload: unknown) => void>();
  const calls: { method: string; input: unknown }[] = [];
  const t: Transport = {
    async call(method, input) {
      calls.push({ method, input });
      const f = answers[method] as ((i: unknown) => unknown) | undefined;
      if (!f) return { ok: false, error: { code: 'not_found', message: `no answer for ${method}` } };
      return { ok: true, value: f(input) };
    },
    subscribe(l) {
      listeners.add(l);
      return () => listeners.delete(l);
    },
  };
  return {
    t,
    calls,
    emit: (name: string, payload: unknown) => {
      for (const l of listeners) l(name, payload);
    },
  };
}

describe('contract client adapter', () => {
  it('turns stream events into chat events: deltas, tool cards with duration, approvals with the always-rule, the end', async () => {
    const { t, emit } = transport({
      'chat.send': () => ({ sessionId: 's1', turnId: 't1' }),
      'chat.answer': () => ({ ok: true }),
    });
    const k = createClient(t, {
      onContractViolation: (w) => {
        throw new Error(w);
      },
    });
    const c = adapt(k, 'serve', false);
    const got: ChatEvent[] = [];
    c.onChat((e) => got.push(e));
    await c.sendMessage('/w', undefined, 'hi', true);
    emit('chat.delta', { sessionId: 's1', turnId: 't1', kind: 'text', text: 'Hello' });
    emit('chat.delta', { sessionId: 's1', turnId: 't1', kind: 'thinking', text: 'hmm' });
    emit('chat.toolCall', {
      sessionId: 's1',
      turnId: 't1',
      card: { callId: 'c1', tool: 'bash', args: { command: 'ls' }, status: 'running' },
    });
    emit('chat.toolCall', {
      sessionId: 's1',
      turnId: 't1',
      card: { callId: 'c1', tool: 'bash', args: { command: 'ls' }, status: 'ok', output: 'a\nb', durationMs: 7 },
    });
    emit('chat.approval', {
      sessionId: 's1',
      approvalId: 'a1',
      tool: 'bash',
      args: { command: 'git status' },
      actor: { kind: 'agent', activeSkills: [] },
      reason: 'asks',
      summary: 'git status',
      alwaysPreview: ['allow bash: git status'],
    });
    emit('chat.turnEnd', { sessionId: 's1', turnId: 't1', reason: 'stopped' });
    expect(got.map((e) => e.type)).toEqual(['delta', 'tool', 'tool', 'approval', 'done']);
    const done = got[2] as Extract<ChatEvent, { type: 'tool' }>;
    expect(done.call).toMatchObject({ status: 'done', result: 'a\nb' });
    // How long the call ran, as main measured it (its approval's wait not counted), not the time between two events.
    expect(done.call.durationMs).toBe(7);
    expect((got[3] as Extract<ChatEvent, { type: 'approval' }>).request).toMatchObject({
      id: 'a1',
      rules: ['allow bash: git status'],
      summary: 'git status',
    });
    expect(got[3]).toMatchObject({ messageId: 't1' });
    expect(got[4]).toMatchObject({ type: 'done', stopped: true });
    emit('chat.turnEnd', {
      sessionId: 's1',
      turnId: 't2',
      reason: 'error',
      error: { code: 'internal', message: 'disk full' },
      unsent: 'keep me',
    });
    expect(got[5]).toMatchObject({ type: 'done', error: 'disk full', unsent: 'keep me' });
    await c.answerApproval('s1', 'a1', 'deny', 'not now');
  });

  it('opens a conversation whose turn still runs: its reply takes the turn id, open approvals are cards, the turn streams on into it', async () => {
    const meta = {
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
    };
    const approval = {
      sessionId: 's1',
      approvalId: 'a1',
      tool: 'bash',
      args: { command: 'git push' },
      actor: { kind: 'agent' as const, activeSkills: [] },
      reason: 'asks',
      summary: 'git push',
      alwaysPreview: [],
    };
    const { t, emit } = transport({
      'sessions.open': () => ({
        session: meta,
        turnId: 's1:2',
        approvals: [approval],
        items: [
          { kind: 'user', id: '1', text: 'push it', at: 1 },
          { kind: 'assistant', id: '2', text: 'Pushing.', at: 2 },
        ],
      }),
    });
    const c = adapt(
      createClient(t, {
        onContractViolation: (w) => {
          throw new Error(w);
        },
      }),
      'serve',
      false,
    );
    const got: ChatEvent[] = [];
    c.onChat((e) => got.push(e));
    const opened = await c.openSession('s1');
    expect(opened.running).toBe(true);
    expect(opened.messages).toHaveLength(2);
    expect(opened.messages[1]).toMatchObject({
      id: 's1:2',
      role: 'assistant',
      parts: [
        { kind: 'text', text: 'Pushing.' },
        { kind: 'approval', request: { id: 'a1', summary: 'git push' } },
      ],
    });
    emit('chat.approval', { ...approval, approvalId: 'a2' });
    emit('chat.delta', { sessionId: 's1', turnId: 's1:2', kind: 'text', text: ' Done.' });
    expect(got.map((e) => ('messageId' in e ? e.messageId : undefined))).toEqual(['s1:2', 's1:2']);
  });
});
