// The model picker in the chat header: every configured provider's models, grouped, with the conversation's selected
// and marked in use; a switch in an open conversation asks the engine (and goes back, saying why, when refused),
// another provider's model with its provider; in a new conversation the model picked goes with the first message; no
// switching while an answer streams; providers.json edited by hand shows at once; in English and Chinese.
import { describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from '../../../renderer/src/App';
import { Chat } from '../../../renderer/src/components/Chat';
import { ContextMeter } from '../../../renderer/src/components/ContextMeter';
import { ModelPicker } from '../../../renderer/src/components/ModelPicker';
import { useModelChoice } from '../../../renderer/src/state/model-choice';
import { folder, memoryClient } from './memory-client';
import { renderWith, WS } from './render';
import { english, say } from '../../../preload/words';

/** The words of the option the select shows. */
const shown = (select: HTMLSelectElement) => select.options[select.selectedIndex]?.textContent;

describe('ModelPicker', () => {
  it('switches an open conversation’s model through the engine', async () => {
    const c = memoryClient();
    renderWith(<Chat />, c, { workspace: WS, sessionId: 's1' });
    const select = (await screen.findByRole('combobox', { name: 'Model' })) as HTMLSelectElement;
    expect(shown(select)).toBe('fake-model (in use)');
    expect([...select.querySelectorAll('optgroup')].map((g) => g.label)).toEqual(['Anthropic (in use)', 'local']);
    expect([...select.options].map((o) => o.textContent)).toEqual([
      'fake-model (in use)',
      'fake-model-large',
      'gpt-fake',
      'gpt-fake-mini',
    ]);
    await userEvent.selectOptions(select, 'fake-model-large');
    await waitFor(() =>
      expect(c.calls.find((x) => x.method === 'chat.setModel')?.args).toEqual([
        { sessionId: 's1', model: 'fake-model-large', provider: 'anthropic' },
      ]),
    );
    await waitFor(() => expect(shown(select)).toBe('fake-model-large (in use)'));
    expect(c.calls.find((x) => x.method === 'chat.models')!.args).toEqual([{ sessionId: 's1' }]);
  });

  it("says in Chinese why the provider's own list could not be read", async () => {
    const c = memoryClient();
    const errorWords = say('provider.authStatus', { provider: 'anthropic', status: 401, key: 'ANTHROPIC_API_KEY' });
    c.modelChoices = { ...c.modelChoices, source: 'preset', error: english(errorWords), errorWords };
    renderWith(<Chat />, c, { workspace: WS, sessionId: 's1' }, 'zh');
    const select = await screen.findByRole('combobox', { name: '模型' });
    expect(select.getAttribute('title')).toBe(
      '服务商没有列出它的模型（anthropic 拒绝了 API 密钥（401）：请检查 ANTHROPIC_API_KEY）：这些是 Knack 已知的模型。',
    );
  });

  it('a model of another provider switches with its provider, and back again with the first one', async () => {
    const c = memoryClient();
    renderWith(<Chat />, c, { workspace: WS, sessionId: 's1' }, 'zh');
    const select = (await screen.findByRole('combobox', { name: '模型' })) as HTMLSelectElement;
    expect(select.querySelector('optgroup')!.label).toBe('Anthropic（使用中）');
    await userEvent.selectOptions(select, 'gpt-fake-mini');
    await waitFor(() =>
      expect(c.calls.find((x) => x.method === 'chat.setModel')?.args).toEqual([
        { sessionId: 's1', model: 'gpt-fake-mini', provider: 'local' },
      ]),
    );
    expect(shown(select)).toBe('gpt-fake-mini（使用中）');
    expect(select.options[select.selectedIndex]!.parentElement).toBe(select.querySelectorAll('optgroup')[1]);
    // And back to the first provider's model: named with its provider, not left to the one in use since the switch.
    await userEvent.selectOptions(select, 'fake-model-large');
    await waitFor(() =>
      expect(c.calls.filter((x) => x.method === 'chat.setModel').at(-1)?.args).toEqual([
        { sessionId: 's1', model: 'fake-model-large', provider: 'anthropic' },
      ]),
    );
    expect(shown(select)).toBe('fake-model-large（使用中）');
  });

  it('a switch to a model that reads no images says the images sent earlier go to it as notes, in Chinese too', async () => {
    for (const [lang, words] of [
      ['en', 'fake-model-large does not read images: the 2 images sent earlier'],
      ['zh', 'fake-model-large 不读图片：这段对话之前发送的 2 张图片'],
    ] as const) {
      cleanup();
      const c = memoryClient();
      const setModel = c.handlers['chat.setModel']!;
      c.handlers['chat.setModel'] = async (input) => ({ ...(await setModel(input)), imagesUnseen: 2 });
      renderWith(<App />, c, { workspace: WS, sessionId: 's1' }, lang);
      const select = (await screen.findByRole('combobox', {
        name: lang === 'en' ? 'Model' : '模型',
      })) as HTMLSelectElement;
      await userEvent.selectOptions(select, 'fake-model-large');
      expect(await screen.findByText(new RegExp(words))).toBeTruthy();
    }
  });

  it('a refused switch goes back to the model in use and says why', async () => {
    const c = memoryClient();
    c.failing.add('chat.setModel');
    renderWith(<Chat />, c, { workspace: WS, sessionId: 's1' });
    const select = (await screen.findByRole('combobox', { name: 'Model' })) as HTMLSelectElement;
    await userEvent.selectOptions(select, 'fake-model-large');
    expect((await screen.findByRole('alert')).textContent).toContain('chat.setModel failed on purpose');
    expect(shown(select)).toBe('fake-model (in use)');
  });

  it('in a new conversation the model picked goes with the first message', async () => {
    const c = memoryClient();
    useModelChoice.getState().pick(undefined);
    renderWith(<Chat />, c, { workspace: WS }, 'zh');
    const select = (await screen.findByRole('combobox', { name: '模型' })) as HTMLSelectElement;
    await userEvent.selectOptions(select, 'gpt-fake');
    expect(c.calls.some((x) => x.method === 'chat.setModel')).toBe(false);
    await userEvent.type(screen.getByRole('textbox', { name: '消息' }), 'hello{Enter}');
    await waitFor(() =>
      expect(c.calls.find((x) => x.method === 'chat.send')?.args).toEqual([
        { text: 'hello', planMode: false, model: 'gpt-fake', provider: 'local' },
      ]),
    );
  });

  it('cannot switch while an answer streams', async () => {
    const c = memoryClient();
    renderWith(<Chat />, c, { workspace: WS, sessionId: 's1', streaming: true });
    const select = (await screen.findByRole('combobox', { name: 'Model' })) as HTMLSelectElement;
    expect(select.disabled).toBe(true);
  });

  it('follows providers.json edited by hand, without a reload; another folder’s news changes nothing', async () => {
    const c = memoryClient();
    renderWith(<Chat />, c, { workspace: WS, sessionId: 's1' });
    const select = (await screen.findByRole('combobox', { name: 'Model' })) as HTMLSelectElement;
    const groups = () => [...select.querySelectorAll('optgroup')].map((g) => g.label);
    expect(groups()).toEqual(['Anthropic (in use)', 'local']);
    c.modelChoices = {
      ...c.modelChoices,
      groups: [...c.modelChoices.groups, { provider: 'lab', label: 'lab', models: ['lab-model'], source: 'provider' }],
    };
    const asked = () => c.calls.filter((x) => x.method === 'chat.models').length;
    const before = asked();
    c.event('workspace.changed', { workspace: folder('/home/me/beta') });
    c.event('workspace.changed', { workspace: WS });
    await waitFor(() => expect(groups()).toEqual(['Anthropic (in use)', 'local', 'lab']));
    expect(asked()).toBe(before + 1);
    expect(shown(select)).toBe('fake-model (in use)');
  });

  it('the context meter counts for the model picked: an earlier image as the short note a model without vision gets', async () => {
    const c = memoryClient();
    const history = (tokens: number) => ({
      ...c.context,
      sections: c.context.sections.map((x) => (x.section === 'history' ? { ...x, tokens } : x)),
    });
    c.context = history(1620); // an image block, as the model in use reads it
    const setModel = c.handlers['chat.setModel']!;
    c.handlers['chat.setModel'] = async (input) => {
      c.context = history(60); // the engine counts the note this model is sent instead
      return { ...(await setModel(input)), imagesUnseen: 1 };
    };
    renderWith(
      <>
        <ModelPicker />
        <ContextMeter />
      </>,
      c,
      { workspace: WS, sessionId: 's1' },
    );
    const meter = await screen.findByRole('meter');
    await waitFor(() => expect(meter.getAttribute('aria-valuenow')).toBe(String(4000 + 1620)));
    await userEvent.selectOptions(await screen.findByRole('combobox', { name: 'Model' }), 'fake-model-large');
    await waitFor(() => expect(screen.getByRole('meter').getAttribute('aria-valuenow')).toBe(String(4000 + 60)));
    expect(screen.getByText('History: 60')).toBeTruthy();
  });
});

describe('a model list or switch that fails', () => {
  const closed = {
    code: 'unavailable',
    message: 'the connection to Knack closed',
    words: { code: 'connection.closed' },
  };

  it('says the models could not be listed and why, in English and Chinese, with no label for a list not there', async () => {
    for (const [lang, text] of [
      ['en', 'The models could not be listed: the connection to Knack closed'],
      ['zh', '无法列出模型：与 Knack 的连接已断开'],
    ] as const) {
      const c = memoryClient();
      c.handlers['chat.models'] = () => {
        throw closed;
      };
      renderWith(<ModelPicker />, c, { workspace: WS, sessionId: 's1' }, lang);
      expect((await screen.findByRole('alert')).textContent).toBe(text);
      expect(document.querySelector('.model-picker label')).toBeNull();
      cleanup();
    }
  });

  it('says the model could not be switched and why, and keeps the one in use', async () => {
    const c = memoryClient();
    c.handlers['chat.setModel'] = () => {
      throw closed;
    };
    renderWith(<ModelPicker />, c, { workspace: WS, sessionId: 's1' });
    const select = (await screen.findByRole('combobox', { name: 'Model' })) as HTMLSelectElement;
    await userEvent.selectOptions(select, 'fake-model-large');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The model could not be switched: the connection to Knack closed',
    );
    expect(shown(select)).toBe('fake-model (in use)');
  });
});
