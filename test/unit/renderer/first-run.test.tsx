// The setup flow: a first start with no folder leads through folder → provider → key with Test connection → done; a
// wrong key shows the provider's own words; it can be skipped at every step; Settings opens it again; a model already
// set up ends it after the folder; the key is never in the window's state beyond its input field.
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from '../../../renderer/src/App';
import { useView } from '../../../renderer/src/state/store';
import { memoryClient, preset, type MemoryClient } from './memory-client';
import { ENGLISH_SENTENCE, outsideCode, renderWith, WS } from './render';
import { english, say } from '../../../preload/words';

function firstRun(c: MemoryClient = memoryClient()) {
  renderWith(<App />, c, { setup: 'first' });
  return c;
}

async function openFolder() {
  await userEvent.type(screen.getByLabelText('Folder path'), '/home/me/project');
  await userEvent.click(screen.getByRole('button', { name: 'Open' }));
  await screen.findByRole('heading', { name: 'Choose a model provider' });
}

/** The setup flow's page (the window behind it stays mounted, hidden, with its own fields). */
const setupPage = () => document.querySelector<HTMLElement>('.setup')!;

const current = () => document.querySelector('.steps [aria-current="step"]')!;

describe('first run', () => {
  it('leads from a folder to a provider, a key and a passing Test connection, then to the chat', async () => {
    const c = firstRun();
    expect(screen.getByRole('heading', { name: 'Welcome to Knack' })).toBeTruthy();
    expect(current().textContent).toBe('1. Folder');
    await openFolder();
    expect(current().textContent).toBe('2. Provider');
    expect(useView.getState().workspace?.path).toBe('/home/me/project');
    // The window behind stays hidden until the flow ends.
    expect(screen.queryByRole('textbox', { name: 'Message' })).toBeNull();
    await userEvent.click(screen.getByRole('radio', { name: 'OpenAI' }));
    expect((within(setupPage()).getByLabelText('Model') as HTMLInputElement).value).toBe('gpt-4.1');
    expect((within(setupPage()).getByLabelText('Base URL') as HTMLInputElement).value).toBe(
      'https://api.openai.com/v1',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await screen.findByRole('heading', { name: 'Paste the key and test the connection' });
    expect(c.settings.provider?.preset).toBe('openai');
    expect(current().textContent).toBe('3. Key');
    const next = screen.getByRole('button', { name: 'Continue' }) as HTMLButtonElement;
    expect(next.disabled).toBe(true);
    await userEvent.type(screen.getByLabelText('API key for OpenAI'), c.goodKey);
    await userEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    expect((await screen.findByText(/Connected: gpt-4.1 at OpenAI answered\./)).getAttribute('role')).toBe('status');
    expect(c.keys.openai).toBe(c.goodKey);
    expect((screen.getByLabelText('API key for OpenAI') as HTMLInputElement).value).toBe('');
    expect(JSON.stringify(useView.getState())).not.toContain(c.goodKey);
    expect(document.body.innerHTML).not.toContain(c.goodKey);
    await userEvent.click(next);
    expect(await screen.findByText('gpt-4.1 at OpenAI answers. Messages in this folder go to it.')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Start chatting' }));
    await waitFor(() => expect(useView.getState().setup).toBeUndefined());
    expect(screen.getByRole('textbox', { name: 'Message' })).toBeTruthy();
  });

  it("a wrong key: the test fails with the provider's own words, and a right key then passes", async () => {
    const c = firstRun();
    await openFolder();
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await userEvent.type(await screen.findByLabelText('API key for Anthropic'), 'sk-wrong-key');
    await userEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The key was refused. (HTTP 401)');
    expect(alert.textContent).toContain('Anthropic says: invalid x-api-key');
    expect(document.body.innerHTML).not.toContain('sk-wrong-key');
    expect((screen.getByRole('button', { name: 'Continue' }) as HTMLButtonElement).disabled).toBe(true);
    // The stored (wrong) key is there now: the line says so, and a new one replaces it.
    expect(screen.getByText(/A key is already stored/)).toBeTruthy();
    await userEvent.type(screen.getByLabelText('API key for Anthropic'), c.goodKey);
    await userEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    await screen.findByText(/Connected: claude-sonnet-4-5 at Anthropic answered\./);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('a test result is shown once the test is over, never beside "Testing…"', async () => {
    const c = firstRun();
    await openFolder();
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await userEvent.type(await screen.findByLabelText('API key for Anthropic'), c.goodKey);
    // The settings read after the test is held, so the moment between the two can be looked at.
    const read = c.handlers['settings.get']!;
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    c.handlers['settings.get'] = async (input) => {
      await held;
      return read(input);
    };
    await userEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    await waitFor(() => expect(c.calls.filter((x) => x.method === 'settings.testProvider').length).toBe(1));
    await new Promise((r) => setTimeout(r, 50));
    const testing = screen.queryByRole('button', { name: 'Testing…' });
    const shown = screen.queryByText(/Connected: claude-sonnet-4-5/);
    expect(Boolean(testing && shown)).toBe(false);
    release();
    await screen.findByText(/Connected: claude-sonnet-4-5 at Anthropic answered\./);
    expect(screen.getByRole('button', { name: 'Test connection' })).toBeTruthy();
  });

  it('a failed call (the engine unreachable) is shown, not swallowed', async () => {
    const c = firstRun();
    await openFolder();
    c.failing.add('settings.setProvider');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect((await screen.findByRole('alert')).textContent).toContain('settings.setProvider failed on purpose');
    expect(current().textContent).toBe('2. Provider');
  });

  it('can be skipped at the folder step: the plain folder screen', async () => {
    firstRun();
    await userEvent.click(screen.getByRole('button', { name: 'Skip setup for now' }));
    expect(useView.getState().setup).toBeUndefined();
    expect(screen.getByRole('heading', { name: 'Knack' })).toBeTruthy();
    expect(screen.getByLabelText('Folder path')).toBeTruthy();
  });

  it('can be skipped at the provider step: the chat, with no model', async () => {
    firstRun();
    await openFolder();
    await userEvent.click(screen.getByRole('button', { name: 'Skip setup for now' }));
    expect(useView.getState().setup).toBeUndefined();
    expect(screen.getByRole('textbox', { name: 'Message' })).toBeTruthy();
  });

  it('a model already set up ends the flow once the folder is open', async () => {
    const c = memoryClient();
    c.settings.provider!.hasKey = true;
    firstRun(c);
    await userEvent.type(screen.getByLabelText('Folder path'), '/home/me/project');
    await userEvent.click(screen.getByRole('button', { name: 'Open' }));
    await waitFor(() => expect(useView.getState().setup).toBeUndefined());
    expect(screen.getByRole('textbox', { name: 'Message' })).toBeTruthy();
  });

  it('a local server needs no key: Test connection runs without one', async () => {
    const c = memoryClient();
    c.settings.presets.push(
      preset('ollama', 'Ollama (local)', 'http://127.0.0.1:11434/v1', 'qwen2.5-coder:7b', { keyOptional: true }),
    );
    firstRun(c);
    await openFolder();
    await userEvent.click(screen.getByRole('radio', { name: 'Ollama (local)' }));
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('This local server needs no key.')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    await screen.findByText(/Connected: qwen2.5-coder:7b at Ollama \(local\) answered\./);
  });

  it('Settings → Set up a model opens it at the provider step; Cancel goes back to Settings', async () => {
    renderWith(<App />, memoryClient(), { workspace: WS, view: 'settings' });
    await userEvent.click(await screen.findByRole('button', { name: 'Set up a model' }));
    expect(await screen.findByRole('heading', { name: 'Set up a model' })).toBeTruthy();
    await screen.findByRole('radio', { name: 'Anthropic' });
    expect(current().textContent).toBe('2. Provider');
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByRole('heading', { name: 'Settings' })).toBeTruthy();
  });

  it("in Chinese, a wrong key: a Chinese lead, then the provider's own error as it said it", async () => {
    renderWith(<App />, memoryClient(), { setup: 'first' }, 'zh');
    await userEvent.type(screen.getByLabelText('文件夹路径'), '/home/me/project');
    await userEvent.click(screen.getByRole('button', { name: '打开' }));
    await userEvent.click(await screen.findByRole('button', { name: '继续' }));
    await userEvent.type(await screen.findByLabelText('Anthropic 的 API 密钥'), 'sk-wrong-key');
    await userEvent.click(screen.getByRole('button', { name: '测试连接' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('密钥被拒绝。 (HTTP 401)Anthropic 返回： invalid x-api-key');
    expect(alert.querySelector('code')?.textContent).toBe('invalid x-api-key');
  });

  it('in Chinese, a failed test the provider said nothing of: its reason in Chinese, the connection error as is', async () => {
    const c = memoryClient();
    const detail = 'connect ECONNREFUSED 127.0.0.1:9';
    const words = say('provider.unreachable', {
      provider: 'anthropic',
      at: say('provider.at', { url: 'http://127.0.0.1:9' }),
      detail,
    });
    c.handlers['settings.testProvider'] = () => ({ ok: false, kind: 'network', message: english(words), words });
    renderWith(<App />, c, { workspace: WS, setup: 'settings' }, 'zh');
    await userEvent.click(await screen.findByRole('button', { name: '继续' }));
    await userEvent.type(await screen.findByLabelText('Anthropic 的 API 密钥'), 'sk-some-key');
    await userEvent.click(screen.getByRole('button', { name: '测试连接' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(`无法连接 anthropic（http://127.0.0.1:9）：${detail}`);
    expect(alert.querySelector('code')?.textContent).toBe(detail);
    expect(outsideCode(alert)).not.toMatch(ENGLISH_SENTENCE);
  });

  it('in Chinese, the presets that run on your machine say so in Chinese', async () => {
    const c = memoryClient();
    c.settings.presets.push(
      preset('ollama', 'Ollama (local)', 'http://127.0.0.1:11434/v1', 'qwen2.5-coder:7b', { keyOptional: true }),
      preset('vllm', 'vLLM (self-hosted)', 'http://127.0.0.1:8000/v1', 'default', { keyOptional: true }),
    );
    renderWith(<App />, c, { setup: 'first' }, 'zh');
    await userEvent.type(screen.getByLabelText('文件夹路径'), '/home/me/project');
    await userEvent.click(screen.getByRole('button', { name: '打开' }));
    await screen.findByRole('radio', { name: 'Ollama（本地）' });
    expect(screen.getByRole('radio', { name: 'vLLM（自托管）' })).toBeTruthy();
    expect(outsideCode(setupPage())).not.toMatch(/\((?:local|self-hosted)\)/);
    await userEvent.click(screen.getByRole('radio', { name: 'Ollama（本地）' }));
    await userEvent.click(screen.getByRole('button', { name: '继续' }));
    await screen.findByText('这个本地服务不需要密钥。');
    expect(screen.getByLabelText('Ollama（本地） 的 API 密钥')).toBeTruthy();
  });

  it('in Chinese', async () => {
    renderWith(<App />, memoryClient(), { setup: 'first' }, 'zh');
    expect(screen.getByRole('heading', { name: '欢迎使用 Knack' })).toBeTruthy();
    expect(current().textContent).toBe('1. 文件夹');
    expect(screen.getByRole('button', { name: '暂时跳过设置' })).toBeTruthy();
  });
});
