// How an answer ended, as the chat shows it: interrupted / timed out / failed answers keep their text, say so once with
// the reason, and offer Retry (which streams a new answer); no model set up links to Settings; a message past the limit
// says how big it is, in both languages.
import { describe, expect, it } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from '../../../renderer/src/App';
import { AnswerEnd } from '../../../renderer/src/components/AnswerEnd';
import { toMessages } from '../../../renderer/src/state/transcript';
import { english, say } from '../../../preload/words';
import { useView } from '../../../renderer/src/state/store';
import { memoryClient } from './memory-client';
import { ENGLISH_SENTENCE, outsideCode, renderWith, WS } from './render';

describe('answer ends', () => {
  it('an interrupted answer keeps its text, says so once with the reason, and Retry streams the rest', async () => {
    const c = memoryClient();
    renderWith(<App />, c, { workspace: WS, sessionId: 's1', streaming: true });
    const reason = 'the connection to anthropic was lost before the answer was complete (terminated)';
    act(() => {
      c.event('chat.delta', { sessionId: 's1', turnId: 'm1', kind: 'text', text: 'word1 word2 word3' });
      c.event('chat.turnEnd', {
        sessionId: 's1',
        turnId: 'm1',
        reason: 'interrupted',
        error: { code: 'internal', message: reason },
        retryable: true,
      });
    });
    const alert = await screen.findByRole('alert');
    // The lead does not say again what the reason says.
    expect(alert.textContent).toBe(`Interrupted: ${reason}Retry`);
    expect(screen.getAllByText(new RegExp(reason.replace(/[()]/g, '\\$&')))).toHaveLength(1);
    expect(screen.getByText('word1 word2 word3')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(c.calls.find((x) => x.method === 'chat.retry')?.args).toEqual([{ sessionId: 's1' }]);
    // Asked once: the button goes, the new answer streams after the cut-off one.
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Stop' })).toBeTruthy();
    act(() => {
      c.event('chat.delta', { sessionId: 's1', turnId: 'm2', kind: 'text', text: 'the whole answer' });
      c.event('chat.turnEnd', { sessionId: 's1', turnId: 'm2', reason: 'done' });
    });
    expect(await screen.findByText('the whole answer')).toBeTruthy();
    expect(screen.getByText(/Interrupted/)).toBeTruthy();
  });

  it('an interrupted answer with no reason stored says in its lead what happened', async () => {
    const c = memoryClient();
    renderWith(<App />, c, { workspace: WS, sessionId: 's1', streaming: true });
    act(() => c.event('chat.turnEnd', { sessionId: 's1', turnId: 'm1', reason: 'interrupted', retryable: true }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Interrupted — the connection was lost before the answer was complete.Retry',
    );
  });

  it('a Retry the engine refuses offers it again and says why', async () => {
    const c = memoryClient();
    c.failing.add('chat.retry');
    renderWith(<App />, c, { workspace: WS, sessionId: 's1', streaming: true });
    act(() =>
      c.event('chat.turnEnd', {
        sessionId: 's1',
        turnId: 'm1',
        reason: 'timeout',
        error: { code: 'internal', message: 'anthropic sent nothing for 90 s: the answer timed out' },
        retryable: true,
      }),
    );
    expect((await screen.findByRole('alert')).textContent).toContain('Timed out');
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('chat.retry failed on purpose')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
  });

  it('no model set up: the message is answered at once with "No model is set up" and a button to Settings', async () => {
    const c = memoryClient();
    renderWith(<App />, c, { workspace: WS, sessionId: 's1', streaming: true });
    act(() =>
      c.event('chat.turnEnd', {
        sessionId: 's1',
        turnId: 'm1',
        reason: 'no_model',
        error: { code: 'internal', message: 'No model is set up: choose a provider and add its key in Settings' },
      }),
    );
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('No model is set up');
    // Said once: below the lead only what it does not say already.
    expect(alert.textContent!.split('No model is set up').length).toBe(2);
    expect(alert.textContent).toContain('choose a provider and add its key in Settings');
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Set up a model' }));
    // The setup steps open at the provider; closing them leaves Settings on screen.
    expect(await screen.findByRole('heading', { name: 'Choose a model provider' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(useView.getState().view).toBe('settings'));
    expect(await screen.findByRole('heading', { name: 'Settings' })).toBeTruthy();
  });

  it('shows the states in Chinese too', async () => {
    const c = memoryClient();
    renderWith(<App />, c, { workspace: WS, sessionId: 's1', streaming: true }, 'zh');
    act(() =>
      c.event('chat.turnEnd', {
        sessionId: 's1',
        turnId: 'm1',
        reason: 'interrupted',
        error: { code: 'internal', message: 'x' },
        retryable: true,
      }),
    );
    expect((await screen.findByRole('alert')).textContent).toContain('已中断');
    expect(screen.getByRole('button', { name: '重试' })).toBeTruthy();
  });

  it("in Chinese, an interrupted answer says why in Chinese, and the connection's own words as they came", async () => {
    const c = memoryClient();
    renderWith(<App />, c, { workspace: WS, sessionId: 's1', streaming: true }, 'zh');
    const words = say('provider.interruptedHow', { provider: 'anthropic', detail: 'terminated' });
    act(() =>
      c.event('chat.turnEnd', {
        sessionId: 's1',
        turnId: 'm1',
        reason: 'interrupted',
        error: { code: 'interrupted', message: english(words), words },
        retryable: true,
      }),
    );
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('已中断： 与 anthropic 的连接在回答完成前断开了（terminated）重试');
    expect(alert.querySelector('code')?.textContent).toBe('terminated');
    expect(outsideCode(alert)).not.toMatch(ENGLISH_SENTENCE);
  });

  it("in Chinese, a stored failed answer says the provider's reason in Chinese and its own error verbatim", () => {
    const detail = 'messages: text content blocks must be non-empty';
    const words = say('provider.badRequest', { provider: 'openai', detail });
    const [, answer] = toMessages([
      { kind: 'user', id: '1', text: '你好', at: 0 },
      { kind: 'assistant', id: '2', text: '一半', at: 0 },
      {
        kind: 'end',
        id: '3',
        reason: 'error',
        code: 'bad_request',
        message: english(words),
        words,
        retryable: true,
        at: 0,
      },
    ]);
    renderWith(<AnswerEnd m={answer!} />, memoryClient(), { workspace: WS, sessionId: 's1' }, 'zh');
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain(`回答失败。 openai 拒绝了这个请求：${detail}`);
    expect(alert.querySelector('code')?.textContent).toBe(detail);
    expect(outsideCode(alert)).not.toMatch(ENGLISH_SENTENCE);
  });

  it('in Chinese, no model set up says why in Chinese (the provider that could not be made)', async () => {
    const c = memoryClient();
    renderWith(<App />, c, { workspace: WS, sessionId: 's1', streaming: true }, 'zh');
    const why = say('provider.noKey', {
      id: 'deepseek',
      hint: 'DEEPSEEK_API_KEY',
      file: '/home/me/.knack/providers.json',
    });
    const words = say('noModelBecause', { why });
    act(() =>
      c.event('chat.turnEnd', {
        sessionId: 's1',
        turnId: 'm1',
        reason: 'no_model',
        error: { code: 'no_model', message: english(words), words },
      }),
    );
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('尚未设置模型');
    expect(alert.textContent).toContain('没有 deepseek 的 API 密钥：请设置 DEEPSEEK_API_KEY');
    // The lead is said once, not again before the reason.
    expect(alert.textContent).not.toContain('还没有设置模型');
    expect(alert.textContent).not.toMatch(ENGLISH_SENTENCE);
  });

  it('a key the provider refused offers the way to change it, in English and Chinese', async () => {
    for (const [lang, button, text] of [
      ['en', 'Change the key', 'anthropic refused the API key (401): check ANTHROPIC_API_KEY'],
      ['zh', '更换密钥', 'anthropic 拒绝了 API 密钥（401）：请检查 ANTHROPIC_API_KEY'],
    ] as const) {
      const c = memoryClient();
      const { unmount } = renderWith(<App />, c, { workspace: WS, sessionId: 's1', streaming: true }, lang);
      const words = say('provider.authStatus', { provider: 'anthropic', status: 401, key: 'ANTHROPIC_API_KEY' });
      act(() =>
        c.event('chat.turnEnd', {
          sessionId: 's1',
          turnId: 'm1',
          reason: 'error',
          error: { code: 'auth', message: english(words), words },
          retryable: true,
        }),
      );
      const alert = await screen.findByRole('alert');
      expect(alert.textContent).toContain(text);
      await userEvent.click(within(alert).getByRole('button', { name: button }));
      await waitFor(() => expect(useView.getState().setup).toBe('settings'));
      unmount();
    }
  });

  it('a 1 MB paste says how big it is and the limit, keeps the text, and sends nothing', async () => {
    const c = memoryClient();
    renderWith(<App />, c, { workspace: WS });
    const box = screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement;
    box.focus();
    await userEvent.paste('x'.repeat(1_048_576));
    await userEvent.keyboard('{Enter}');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(
      'This message is 1,048,576 characters; the longest Knack takes is 200,000. Shorten it, or save it as a file in the folder and ask about the file.',
    );
    expect(alert.textContent).not.toMatch(/Too big|expected string/);
    expect(c.calls.some((x) => x.method === 'chat.send')).toBe(false);
    expect(box.value.length).toBe(1_048_576);
  });
});
