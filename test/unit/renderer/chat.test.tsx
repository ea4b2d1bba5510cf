// The chat: sending, streamed Markdown with code and copy, tool-call cards, approval cards (once / always with
// the rule / deny with a reason), Stop, plan mode, errors, empty state.
import { describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from '../../../renderer/src/App';
import { useView } from '../../../renderer/src/state/store';
import { memoryClient, type MemoryClient } from './memory-client';
import { outsideCode, renderWith, WS } from './render';
import { approval, readFileCall } from './samples';

async function sendHello(text = 'hello') {
  await userEvent.type(screen.getByRole('textbox', { name: 'Message' }), text);
  await userEvent.keyboard('{Enter}');
}

/** A new conversation (s1) is sent `text`, then left for a new chat while it answers. */
async function sendThenLeave(c: MemoryClient, text: string) {
  renderWith(<App />, c, { workspace: WS });
  await sendHello(text);
  await waitFor(() => expect(useView.getState().sessionId).toBe('s1'));
  await userEvent.click(screen.getByRole('button', { name: 'New chat' }));
}

describe('chat', () => {
  it('shows the empty state, sends on Enter and streams Markdown with a highlighted code block and copy button', async () => {
    const c = memoryClient();
    renderWith(<App />, c, { workspace: WS });
    expect(screen.getByText(/Say what you want to do/)).toBeTruthy();
    await sendHello();
    expect(c.calls.find((x) => x.method === 'chat.send')?.args).toEqual([{ text: 'hello', planMode: false }]);
    await waitFor(() => expect(useView.getState().sessionId).toBe('s1'));
    act(() => {
      c.event('chat.delta', { sessionId: 's1', turnId: 'm1', kind: 'text', text: '# Title\n\nSome **bold** text\n\n' });
      c.event('chat.delta', {
        sessionId: 's1',
        turnId: 'm1',
        kind: 'text',
        text: '```js\nconst x = 1;\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n',
      });
    });
    expect(await screen.findByRole('heading', { name: 'Title' })).toBeTruthy();
    expect(screen.getByText('bold').tagName).toBe('STRONG');
    expect(screen.getByRole('table')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Copy code' })).toBeTruthy();
    expect(document.querySelector('code.hljs, code .hljs-keyword')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Stop' })).toBeTruthy();
    act(() => c.event('chat.turnEnd', { sessionId: 's1', turnId: 'm1', reason: 'done' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Stop' })).toBeNull());
  });

  it('shows a tool-call card with arguments, decision, duration and a collapsed result', async () => {
    const c = memoryClient();
    renderWith(<App />, c, { workspace: WS, sessionId: 's1' });
    act(() => c.event('chat.toolCall', { sessionId: 's1', turnId: 'm1', card: readFileCall }));
    const card = await screen.findByRole('region', { name: 'Tool call read_file' });
    expect(within(card).getByText('done')).toBeTruthy();
    expect(within(card).getByText('12 ms')).toBeTruthy();
    expect(within(card).getByText(/"path": "a.txt"/)).toBeTruthy();
    const details = card.querySelector('details')!;
    expect(details.open).toBe(false);
    act(() =>
      c.event('chat.toolCall', {
        sessionId: 's1',
        turnId: 'm1',
        card: { callId: 't2', tool: 'bash', args: { command: 'rm -rf x' }, status: 'denied', output: 'denied' },
      }),
    );
    const denied = await screen.findByRole('region', { name: 'Tool call bash' });
    expect(within(denied).getByText('denied', { selector: '.badge' })).toBeTruthy();
    expect(within(denied).getByText('failed')).toBeTruthy();
  });

  it('answers an approval: allow once, always allow shows the rule, deny with a reason', async () => {
    const c = memoryClient();
    renderWith(<App />, c, { workspace: WS, sessionId: 's1', streaming: true });
    act(() => {
      c.event(
        'chat.approval',
        approval({
          approvalId: 'a1',
          tool: 'bash',
          args: { command: 'git status' },
          reason: 'bash is not allowed by default',
          alwaysPreview: ['bash(git status)'],
        }),
      );
      c.event(
        'chat.approval',
        approval({ approvalId: 'a2', tool: 'bash', args: { command: 'git push' }, alwaysPreview: ['bash(git push)'] }),
      );
      c.event(
        'chat.approval',
        approval({ approvalId: 'a3', tool: 'write_file', args: { path: 'x' }, alwaysPreview: ['write_file(x)'] }),
      );
    });
    const cards = await screen.findAllByRole('region', { name: /Approval for/ });
    expect(cards).toHaveLength(3);
    expect(within(cards[0]!).getByText('bash(git status)')).toBeTruthy();
    await userEvent.click(within(cards[0]!).getByRole('button', { name: 'Allow once' }));
    expect(await within(cards[0]!).findByText('Allowed once.')).toBeTruthy();
    await userEvent.click(within(cards[1]!).getByRole('button', { name: 'Always allow (1 rule)' }));
    expect(await within(cards[1]!).findByText('Always allowed (rule saved).')).toBeTruthy();
    await userEvent.click(within(cards[2]!).getByRole('button', { name: 'Deny' }));
    await userEvent.type(within(cards[2]!).getByLabelText('Reason for the model (optional)'), 'not now{Enter}');
    expect(await within(cards[2]!).findByText('Denied.')).toBeTruthy();
    const answers = c.calls.filter((x) => x.method === 'chat.answer').map((x) => x.args[0]);
    expect(answers).toEqual([
      { sessionId: 's1', approvalId: 'a1', answer: 'once' },
      { sessionId: 's1', approvalId: 'a2', answer: 'always', rules: [0] },
      { sessionId: 's1', approvalId: 'a3', answer: 'deny', message: 'not now' },
    ]);
  });

  it('offers no Always allow when the call cannot become a safe rule', async () => {
    const c = memoryClient();
    renderWith(<App />, c, { workspace: WS, sessionId: 's1', streaming: true });
    act(() => c.event('chat.approval', approval({ approvalId: 'a9', tool: 'bash', args: { command: 'eval $(x)' } })));
    const card = await screen.findByRole('region', { name: 'Approval for bash' });
    expect((within(card).getByRole('button', { name: 'Always allow' }) as HTMLButtonElement).disabled).toBe(true);
    expect(within(card).getByText(/cannot be turned into a safe rule/)).toBeTruthy();
  });

  it('shows the input of a call asked about once: on the approval card while it waits, on its tool card after', async () => {
    const c = memoryClient();
    renderWith(<App />, c, { workspace: WS, sessionId: 's1', streaming: true });
    const asked = { callId: 't1', tool: 'bash', args: { command: 'git status' }, status: 'awaiting-approval' } as const;
    act(() => c.event('chat.toolCall', { sessionId: 's1', turnId: 'm1', card: asked }));
    const card = await screen.findByRole('region', { name: 'Tool call bash' });
    // No approval card yet: the tool card is the one place the input shows.
    expect(card.querySelector('pre.args')?.textContent).toContain('"command": "git status"');
    act(() =>
      c.event(
        'chat.approval',
        approval({ approvalId: 'a1', tool: 'bash', args: { command: 'git status' }, summary: 'git status' }),
      ),
    );
    const ask = await screen.findByRole('region', { name: 'Approval for bash' });
    expect(ask.querySelector('.approval-command')?.textContent).toContain('git status');
    // The approval card up: the tool card keeps its name and state, and leaves the input to the card below.
    expect(within(card).getByText('bash')).toBeTruthy();
    expect(within(card).getByText('asked', { selector: '.badge' })).toBeTruthy();
    expect(within(card).getByText('waiting for approval')).toBeTruthy();
    expect(card.querySelector('pre.args')).toBeNull();
    expect(card.textContent).not.toContain('git status');
    // Answered: the tool card shows its input again, as it runs and after.
    await userEvent.click(within(ask).getByRole('button', { name: 'Allow once' }));
    await within(ask).findByText('Allowed once.');
    expect(card.querySelector('pre.args')?.textContent).toContain('"command": "git status"');
    act(() => c.event('chat.toolCall', { sessionId: 's1', turnId: 'm1', card: { ...asked, status: 'running' } }));
    expect(card.querySelector('pre.args')?.textContent).toContain('"command": "git status"');
  });

  it('stops a long answer and marks it stopped', async () => {
    const c = memoryClient();
    renderWith(<App />, c, { workspace: WS });
    await sendHello('write a lot');
    await waitFor(() => expect(useView.getState().sessionId).toBe('s1'));
    act(() => c.event('chat.delta', { sessionId: 's1', turnId: 'm1', kind: 'text', text: 'word '.repeat(200) }));
    await userEvent.click(await screen.findByRole('button', { name: 'Stop' }));
    expect(c.calls.some((x) => x.method === 'chat.stop')).toBe(true);
    act(() => c.event('chat.turnEnd', { sessionId: 's1', turnId: 'm1', reason: 'stopped' }));
    expect(await screen.findByText('Stopped.')).toBeTruthy();
  });

  it('sends in plan mode when the toggle is on', async () => {
    const c = memoryClient();
    renderWith(<App />, c, { workspace: WS });
    const toggle = screen.getByRole('switch', { name: 'Plan mode' });
    await userEvent.click(toggle);
    expect(toggle.getAttribute('aria-checked')).toBe('true');
    await sendHello();
    expect(c.calls.find((x) => x.method === 'chat.send')?.args[0]).toMatchObject({ planMode: true });
  });

  it('shows the error when sending fails, gives the typed text back and lets the user send again', async () => {
    const c = memoryClient();
    c.failing.add('chat.send');
    renderWith(<App />, c, { workspace: WS });
    await sendHello('please keep this long message');
    expect((await screen.findByRole('alert')).textContent).toContain('chat.send failed on purpose');
    expect(useView.getState().streaming).toBe(false);
    // Nothing was sent: the text is back in the input box, not left in the transcript as if it had been.
    const box = screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Message' });
    expect(box.value).toBe('please keep this long message');
    expect(useView.getState().messages).toHaveLength(0);
    c.failing.delete('chat.send');
    await userEvent.keyboard('{Enter}');
    await waitFor(() =>
      expect(c.calls.filter((x) => x.method === 'chat.send').at(-1)?.args[0]).toMatchObject({
        text: 'please keep this long message',
      }),
    );
    expect(box.value).toBe('');
  });

  it('a message the engine could not store comes back into the input box, with the error', async () => {
    const c = memoryClient();
    renderWith(<App />, c, { workspace: WS });
    await sendHello('draft this release note');
    await waitFor(() => expect(useView.getState().sessionId).toBe('s1'));
    expect(screen.getByText('draft this release note')).toBeTruthy();
    act(() =>
      c.event('chat.turnEnd', {
        sessionId: 's1',
        turnId: 'm1',
        reason: 'error',
        error: { code: 'internal', message: 'could not save the message: disk full' },
        unsent: 'draft this release note',
      }),
    );
    expect((await screen.findByRole('alert')).textContent).toContain('disk full');
    const box = screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Message' });
    await waitFor(() => expect(box.value).toBe('draft this release note'));
    expect(useView.getState().messages.some((m) => m.role === 'user')).toBe(false);
    expect(useView.getState().streaming).toBe(false);
  });

  it('a message given back while the user was typing the next one keeps both in the input box', async () => {
    const c = memoryClient();
    renderWith(<App />, c, { workspace: WS });
    await sendHello('the first message');
    await waitFor(() => expect(useView.getState().sessionId).toBe('s1'));
    await userEvent.type(screen.getByRole('textbox', { name: 'Message' }), 'a second thought');
    act(() =>
      c.event('chat.turnEnd', {
        sessionId: 's1',
        turnId: 'm1',
        reason: 'error',
        error: { code: 'internal', message: 'could not save the message: disk full' },
        unsent: 'the first message',
      }),
    );
    const box = screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Message' });
    await waitFor(() => expect(box.value).toBe('the first message\n\na second thought'));
  });

  it('a message given back to another conversation (another tab, in serve mode) does not land in this one', async () => {
    const c = memoryClient();
    renderWith(<App />, c, { workspace: WS, sessionId: 's2' });
    act(() =>
      c.event('chat.turnEnd', {
        sessionId: 's1',
        turnId: 'm1',
        reason: 'error',
        error: { code: 'internal', message: 'disk full' },
        unsent: 'sent from the other tab',
      }),
    );
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Message' }).value).toBe('');
  });

  it('a conversation left for a new chat streams on into itself, not into the new chat', async () => {
    const c = memoryClient();
    await sendThenLeave(c, 'write the changelog');
    act(() => {
      c.event('chat.delta', { sessionId: 's1', turnId: 'm1', kind: 'text', text: 'the changelog so far' });
      c.event('chat.turnEnd', { sessionId: 's1', turnId: 'm1', reason: 'done' });
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByText('the changelog so far')).toBeNull();
    expect(useView.getState().messages).toHaveLength(0);
    expect(screen.getByText(/Say what you want to do/)).toBeTruthy();
  });

  it("a new chat shows its own first events, even those before the engine names the conversation, and no other tab's", async () => {
    const c = memoryClient();
    let answer!: () => void;
    c.sendGate = new Promise((r) => {
      answer = r;
    });
    renderWith(<App />, c, { workspace: WS });
    await sendHello();
    act(() => {
      c.event('chat.delta', { sessionId: 's9', turnId: 'm9', kind: 'text', text: 'from another tab' });
      c.event('chat.delta', { sessionId: 's1', turnId: 'm1', kind: 'text', text: 'early words' });
    });
    // The window applies these (a frame later) before the engine's answer to the send arrives.
    await act(async () => {
      await new Promise((r) => setTimeout(r, 50));
    });
    expect(useView.getState().sessionId).toBeUndefined();
    await act(async () => {
      answer();
      await c.sendGate;
    });
    await waitFor(() => expect(useView.getState().sessionId).toBe('s1'));
    expect(await screen.findByText('early words')).toBeTruthy();
    act(() => c.event('chat.delta', { sessionId: 's9', turnId: 'm9', kind: 'text', text: ' and more of it' }));
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByText(/from another tab|and more of it/)).toBeNull();
  });

  it('a message handed back to a conversation the user has left waits in its input box until it is reopened', async () => {
    const c = memoryClient();
    await sendThenLeave(c, 'tag the release');
    act(() =>
      c.event('chat.turnEnd', {
        sessionId: 's1',
        turnId: 'm1',
        reason: 'error',
        error: { code: 'internal', message: 'could not save the message: disk full' },
        unsent: 'tag the release',
      }),
    );
    expect((await screen.findByRole('alert')).textContent).toContain('back in that conversation');
    const box = screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Message' });
    expect(box.value).toBe('');
    act(() => useView.getState().showSession('s1', []));
    await waitFor(() =>
      expect(screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Message' }).value).toBe('tag the release'),
    );
    // Taken once: opening it again does not put it back a second time.
    await userEvent.clear(screen.getByRole('textbox', { name: 'Message' }));
    act(() => useView.getState().showSession('s1', []));
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Message' }).value).toBe('');
  });

  it("a conversation the user left that asks for an approval says so; another tab's does not", async () => {
    const c = memoryClient();
    await sendThenLeave(c, 'deploy it');
    const request = {
      approvalId: 'a1',
      tool: 'bash',
      args: { command: 'make deploy' },
      actor: { kind: 'agent' as const, activeSkills: [] },
      reason: 'asks',
      summary: 'make deploy',
      alwaysPreview: [],
    };
    act(() => c.event('chat.approval', { sessionId: 's9', ...request }));
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByText(/waiting for your approval/)).toBeNull();
    act(() => c.event('chat.approval', { sessionId: 's1', ...request }));
    expect((await screen.findByText(/waiting for your approval/)).closest('[role="status"]')).not.toBeNull();
    expect(screen.queryByRole('region', { name: /Approval for/ })).toBeNull();
  });

  it('shows skills loaded during the turn and notices in the transcript', async () => {
    const c = memoryClient();
    renderWith(<App />, c, { workspace: WS, sessionId: 's1', streaming: true });
    act(() => {
      c.event('chat.skillLoaded', {
        sessionId: 's1',
        turnId: 'm1',
        skill: 'git-commit',
        tier: 'builtin',
        reason: 'trigger: 提交代码',
        tokens: 120,
      });
      c.event('chat.notice', {
        sessionId: 's1',
        level: 'warning',
        kind: 'notice',
        text: 'No model is configured: answering offline.',
      });
    });
    expect(await screen.findByText('Loaded skill git-commit — trigger: 提交代码')).toBeTruthy();
    expect(screen.getByText('No model is configured: answering offline.')).toBeTruthy();
  });

  for (const [lang, lead] of [
    ['en', 'skills/pdf/SKILL.md: cannot read: '],
    ['zh', 'skills/pdf/SKILL.md：无法读取：'],
  ] as const)
    it(`shows a skill that could not load in ${lang}, the file system's own message in code`, async () => {
      const error = "EACCES: permission denied, open '<img src=x onerror=alert(1)> **x**'";
      const c = memoryClient();
      renderWith(<App />, c, { workspace: WS, sessionId: 's1', streaming: true }, lang);
      act(() =>
        c.event('chat.notice', {
          sessionId: 's1',
          level: 'error',
          kind: 'skill',
          text: `skills/pdf/SKILL.md: cannot read: ${error}`,
          words: { code: 'loadError.cannotRead', params: { file: 'skills/pdf/SKILL.md', error } },
        }),
      );
      const notice = (await screen.findByText(lead.trim(), { exact: false, selector: 'p.notice' })) as HTMLElement;
      expect([...notice.querySelectorAll('code')].map((x) => x.textContent)).toEqual([error]);
      expect(outsideCode(notice)).toBe(lead);
      expect(notice.querySelector('img, strong')).toBeNull();
    });

  it('shows a provider error that ends the answer', async () => {
    const c = memoryClient();
    renderWith(<App />, c, { workspace: WS, sessionId: 's1', streaming: true });
    act(() =>
      c.event('chat.turnEnd', {
        sessionId: 's1',
        turnId: 'm1',
        reason: 'error',
        error: { code: 'internal', message: 'provider: 401 invalid x-api-key' },
      }),
    );
    expect((await screen.findByRole('alert')).textContent).toContain('401 invalid x-api-key');
  });

  it('follows the answer with one size observer that watches each message once, not once per streamed word', async () => {
    // Records what the transcript's ResizeObserver is asked to watch (happy-dom lays nothing out, so none would fire).
    const made: Watcher[] = [];
    class Watcher {
      watched = new Set<Element>();
      ever = new Set<Element>();
      observes = 0;
      constructor() {
        made.push(this);
      }
      observe(e: Element) {
        this.observes++;
        this.watched.add(e);
        this.ever.add(e);
      }
      unobserve(e: Element) {
        this.watched.delete(e);
      }
      disconnect() {
        this.watched.clear();
      }
    }
    vi.stubGlobal('ResizeObserver', Watcher);
    try {
      const c = memoryClient();
      renderWith(<App />, c, { workspace: WS });
      await sendHello();
      await waitFor(() => expect(useView.getState().sessionId).toBe('s1'));
      for (let i = 0; i < 40; i++)
        act(() => c.event('chat.delta', { sessionId: 's1', turnId: 'm1', kind: 'text', text: `word${i} ` }));
      await screen.findByText(/word39/);
      const log = screen.getByRole('log', { name: 'Conversation' });
      // Other parts of the window (virtual lists) have observers of their own: the transcript's watches its messages.
      const mine = () => made.filter((w) => [...log.children].some((e) => w.ever.has(e)));
      await waitFor(() => expect(mine()[0]?.watched).toEqual(new Set(log.children)));
      expect(mine()).toHaveLength(1);
      const w = mine()[0]!;
      // Each message was observed once: forty streamed words re-observed nothing.
      expect(w.observes).toBe(w.ever.size);
      expect(w.ever.size).toBeLessThan(6);
      const status = screen.getByText('Answering…');
      act(() => c.event('chat.turnEnd', { sessionId: 's1', turnId: 'm1', reason: 'done' }));
      await waitFor(() => expect(screen.queryByText('Answering…')).toBeNull());
      // The line that left the transcript is no longer watched; what is still there is.
      expect(w.watched.has(status)).toBe(false);
      expect(w.watched).toEqual(new Set(log.children));
      expect(mine()).toEqual([w]);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
