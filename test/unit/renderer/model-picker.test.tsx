// The model picker in the chat header: the provider's models with the conversation's selected; a switch in an open
// conversation asks the engine (and goes back, saying why, when refused); in a new conversation the model picked goes
// with the first message; no switching while an answer streams; in English and Chinese.
import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Chat } from '../../../renderer/src/components/Chat';
import { useModelChoice } from '../../../renderer/src/state/model-choice';
import { memoryClient } from './memory-client';
import { renderWith, WS } from './render';

describe('ModelPicker', () => {
  it('switches an open conversation’s model through the engine', async () => {
    const c = memoryClient();
    renderWith(<Chat />, c, { workspace: WS, sessionId: 's1' });
    const select = (await screen.findByRole('combobox', { name: 'Model' })) as HTMLSelectElement;
    expect(select.value).toBe('fake-model');
    expect([...select.options].map((o) => o.value)).toEqual(['fake-model', 'fake-model-large']);
    await userEvent.selectOptions(select, 'fake-model-large');
    await waitFor(() => expect(c.calls.find((x) => x.method === 'setModel')?.args).toEqual(['s1', 'fake-model-large']));
    expect(select.value).toBe('fake-model-large');
    expect(c.calls.find((x) => x.method === 'listModels')!.args).toEqual(['s1']);
  });

  it('a refused switch goes back to the model in use and says why', async () => {
    const c = memoryClient();
    c.failing.add('setModel');
    renderWith(<Chat />, c, { workspace: WS, sessionId: 's1' });
    const select = (await screen.findByRole('combobox', { name: 'Model' })) as HTMLSelectElement;
    await userEvent.selectOptions(select, 'fake-model-large');
    expect((await screen.findByRole('alert')).textContent).toContain('setModel failed on purpose');
    expect(select.value).toBe('fake-model');
  });

  it('in a new conversation the model picked goes with the first message', async () => {
    const c = memoryClient();
    useModelChoice.getState().pick(undefined);
    renderWith(<Chat />, c, { workspace: WS }, 'zh');
    const select = (await screen.findByRole('combobox', { name: '模型' })) as HTMLSelectElement;
    await userEvent.selectOptions(select, 'fake-model-large');
    expect(c.calls.some((x) => x.method === 'setModel')).toBe(false);
    await userEvent.type(screen.getByRole('textbox', { name: '消息' }), 'hello{Enter}');
    await waitFor(() =>
      expect(c.calls.find((x) => x.method === 'sendMessage')?.args).toEqual([
        WS.path,
        undefined,
        'hello',
        false,
        'fake-model-large',
        [],
      ]),
    );
  });

  it('cannot switch while an answer streams', async () => {
    const c = memoryClient();
    renderWith(<Chat />, c, { workspace: WS, sessionId: 's1', streaming: true });
    const select = (await screen.findByRole('combobox', { name: 'Model' })) as HTMLSelectElement;
    expect(select.disabled).toBe(true);
  });
});
