// Settings (provider, key never shown back, ceiling, rules editor, language) and Tools (lists, ToolSearch, MCP).
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Settings } from '../../../renderer/src/components/Settings';
import { Tools } from '../../../renderer/src/components/Tools';
import { english, say } from '../../../preload/words';
import { memoryClient } from './memory-client';
import { renderWith, WS } from './render';

describe('settings', () => {
  it('switches the provider preset and saves model and base URL', async () => {
    const c = memoryClient();
    renderWith(<Settings />, c, { workspace: WS });
    await userEvent.selectOptions(await screen.findByLabelText('Preset'), 'openai');
    expect((screen.getByLabelText('Model') as HTMLInputElement).value).toBe('gpt-4.1');
    await userEvent.click(screen.getAllByRole('button', { name: 'Save' })[0]!);
    await waitFor(() => expect(c.settings.provider?.baseUrl).toBe('https://api.openai.com/v1'));
  });

  it('sets and clears the API key without ever showing it back', async () => {
    const c = memoryClient();
    renderWith(<Settings />, c, { workspace: WS });
    expect(await screen.findByText('No key stored.')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('New key'), 'sk-secret-123');
    await userEvent.click(screen.getByRole('button', { name: 'Set key' }));
    expect(
      await screen.findByText('A key is stored. It is never shown again. (kept in a file only you can read)'),
    ).toBeTruthy();
    expect((screen.getByLabelText('New key') as HTMLInputElement).value).toBe('');
    expect(document.body.innerHTML).not.toContain('sk-secret-123');
    await userEvent.click(screen.getByRole('button', { name: 'Clear key' }));
    expect(await screen.findByText('No key stored.')).toBeTruthy();
  });

  it('says a key from the environment is used, names the variable, and has nothing to clear', async () => {
    const c = memoryClient();
    c.settings.provider = { ...c.settings.provider!, hasKey: true, keySource: 'env' };
    c.settings.presets[0] = { ...c.settings.presets[0]!, hasKey: true, keySource: 'env', keyEnv: 'ANTHROPIC_API_KEY' };
    renderWith(<Settings />, c, { workspace: WS });
    expect(
      await screen.findByText(
        'Using the key in the environment variable ANTHROPIC_API_KEY. A key set here is used instead.',
      ),
    ).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Clear key' }) as HTMLButtonElement).disabled).toBe(true);
    // A key set here wins over the environment's; clearing it goes back to the environment's, which is still there.
    await userEvent.type(screen.getByLabelText('New key'), 'sk-secret-123');
    await userEvent.click(screen.getByRole('button', { name: 'Set key' }));
    expect(
      await screen.findByText('A key is stored. It is never shown again. (kept in a file only you can read)'),
    ).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Clear key' }));
    expect(
      await screen.findByText(
        'Using the key in the environment variable ANTHROPIC_API_KEY. A key set here is used instead.',
      ),
    ).toBeTruthy();
  });

  it('shows the key status of the preset picked, not of the one in use', async () => {
    const c = memoryClient();
    c.settings.provider = { ...c.settings.provider!, hasKey: true, keySource: 'key-store' };
    c.settings.presets[0] = { ...c.settings.presets[0]!, hasKey: true, keySource: 'key-store' };
    c.settings.presets[1] = { ...c.settings.presets[1]!, keySource: 'none' };
    renderWith(<Settings />, c, { workspace: WS });
    expect(
      await screen.findByText('A key is stored. It is never shown again. (kept in a file only you can read)'),
    ).toBeTruthy();
    await userEvent.selectOptions(screen.getByLabelText('Preset'), 'openai');
    expect(await screen.findByText('No key stored.')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Clear key' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('lists the saved rules and removes one', async () => {
    const c = memoryClient();
    renderWith(<Settings />, c, { workspace: WS });
    const table = await screen.findByRole('table');
    expect(within(table).getByText('bash: git status (this workspace)')).toBeTruthy();
    await userEvent.click(within(table).getByRole('button', { name: 'Remove rule bash: git status (this workspace)' }));
    await waitFor(() => expect(screen.queryByRole('table')).toBeNull());
    expect(screen.getByText('No rules yet. "Always allow" adds one.')).toBeTruthy();
  });

  it('saves the ceiling (network and roots)', async () => {
    const c = memoryClient();
    renderWith(<Settings />, c, { workspace: WS });
    await userEvent.click(await screen.findByLabelText('Allow network access'));
    await userEvent.type(screen.getByLabelText('Extra readable folders (one per line)'), '/data{Enter}/more');
    await userEvent.click(screen.getAllByRole('button', { name: 'Save' })[1]!);
    await waitFor(() =>
      expect(c.settings.ceiling).toEqual({
        tools: ['*'],
        network: true,
        readRoots: ['/data', '/more'],
        writeRoots: [],
      }),
    );
  });

  it('shows the error when settings cannot be read', async () => {
    const c = memoryClient();
    c.failing.add('settings.get');
    renderWith(<Settings />, c, { workspace: WS });
    expect((await screen.findByRole('alert')).textContent).toContain('settings.get failed on purpose');
  });

  it('switches the language to Chinese', async () => {
    const c = memoryClient();
    renderWith(<Settings />, c, { workspace: WS });
    await userEvent.selectOptions(await screen.findByLabelText('Language'), 'zh');
    expect(await screen.findByRole('heading', { name: '设置' })).toBeTruthy();
  });
});

describe('tools', () => {
  it('lists always-loaded and deferred tools, searches, and shows MCP server state with the last error', async () => {
    const c = memoryClient({
      tools: [
        { name: 'read_file', source: 'builtin', summary: 'Read a file', deferred: false },
        { name: 'web_fetch', source: 'builtin', summary: 'Fetch a page', deferred: true },
      ],
      servers: [{ name: 'github', state: 'failed', tools: 0, error: 'spawn gh-mcp ENOENT' }],
    });
    renderWith(<Tools />, c, { workspace: WS });
    expect(await screen.findByText('read_file')).toBeTruthy();
    expect(screen.getByText('Deferred (found with ToolSearch)')).toBeTruthy();
    expect(screen.getByText('spawn gh-mcp ENOENT')).toBeTruthy();
    expect(screen.getByText('failed')).toBeTruthy();
    await userEvent.type(screen.getByRole('searchbox', { name: 'ToolSearch' }), 'Fetch{Enter}');
    expect(await screen.findByRole('heading', { name: 'Results' })).toBeTruthy();
    expect(screen.getAllByText('web_fetch')).toHaveLength(2);
  });

  it("says Knack's own tools in Chinese, and a server's tool as its server wrote it", async () => {
    const c = memoryClient({
      tools: [
        {
          name: 'grep',
          source: 'builtin',
          summary: 'Search file contents with a regular expression, respecting .gitignore.',
          deferred: false,
          // main/core/service/tools.ts summaryWords
          words: say('toolSummary.grep'),
        },
        { name: 'mcp__gh__issue', source: 'mcp:gh', summary: 'Open an issue on GitHub', deferred: true },
      ],
    });
    renderWith(<Tools />, c, { workspace: WS }, 'zh');
    expect(await screen.findByText('用正则表达式搜索文件内容，遵循 .gitignore。')).toBeTruthy();
    expect(screen.queryByText(/Search file contents/)).toBeNull();
    expect(screen.getByText('Open an issue on GitHub')).toBeTruthy();
  });

  it('says when no MCP server is configured', async () => {
    renderWith(<Tools />, memoryClient(), { workspace: WS });
    expect(await screen.findByText('No MCP servers configured.')).toBeTruthy();
  });
});

describe('settings problems in Chinese', () => {
  it("says providers.json's problems in Chinese, file, line and field kept", async () => {
    const c = memoryClient();
    const file = '/home/me/.knack/providers.json';
    const words = [
      say('providersFile.readable', { file, mode: '644' }),
      say('providersFile.fieldAt', {
        file,
        line: 4,
        field: 'providers.mine.contextWindow',
        problem: say('providersFile.tokens'),
      }),
    ];
    c.settings.warnings = words.map(english);
    c.settings.warningWords = words;
    const { container } = renderWith(<Settings />, c, { workspace: WS }, 'zh');
    await waitFor(() => expect(container.querySelectorAll('.warnings li')).toHaveLength(2));
    expect([...container.querySelectorAll('.warnings li')].map((l) => l.textContent)).toEqual([
      `${file}：其他用户也能读取（权限 644）；在对它执行 chmod 600 之前，其中的 API 密钥不会被使用`,
      `${file}:4：providers.mine.contextWindow：必须是大于 0 的令牌数`,
    ]);
  });

  it('says why no provider can be made in Chinese (a preset without its key)', async () => {
    const c = memoryClient();
    c.settings.providerProblem = say('provider.noKey', {
      id: 'deepseek',
      hint: 'DEEPSEEK_API_KEY',
      file: '/home/me/.knack/providers.json',
    });
    const { container } = renderWith(<Settings />, c, { workspace: WS }, 'zh');
    await waitFor(() => expect(container.querySelectorAll('.warnings li')).toHaveLength(1));
    expect(container.querySelector('.warnings li')?.textContent).toBe(
      '没有 deepseek 的 API 密钥：请设置 DEEPSEEK_API_KEY（或写入 /home/me/.knack/providers.json，权限 600）',
    );
  });

  it('says an unknown key and a settings.json that does not parse in Chinese, file, line and field kept', async () => {
    const c = memoryClient();
    c.settings.problems = [
      {
        severity: 'warning',
        code: 'settings.unknown',
        file: '/w/.workbuddy/settings.json',
        line: 2,
        field: 'colour',
        message: 'unknown setting "colour" (ignored)',
        words: { code: 'settings.unknown', params: { field: 'colour' } },
      },
      {
        severity: 'error',
        code: 'settings.json',
        file: '/home/me/.knack/settings.json',
        line: 3,
        column: 5,
        message: 'invalid JSON: CloseBraceExpected',
        words: { code: 'settings.json', params: { error: 'CloseBraceExpected' } },
      },
    ];
    const { container } = renderWith(<Settings />, c, { workspace: WS }, 'zh');
    await waitFor(() => expect(container.querySelectorAll('.warnings li')).toHaveLength(2));
    const lines = [...container.querySelectorAll('.warnings li')].map((l) => l.textContent);
    expect(lines).toEqual([
      '/w/.workbuddy/settings.json:2: 警告: colour: 未知的设置「colour」（已忽略）',
      '/home/me/.knack/settings.json:3:5: JSON 无效：CloseBraceExpected',
    ]);
  });

  it('says a value of the wrong type or out of range in Chinese, naming the field', async () => {
    const c = memoryClient();
    c.settings.problems = [
      {
        severity: 'error',
        code: 'settings.type',
        file: '/w/.workbuddy/settings.json',
        line: 4,
        field: 'tools.deferred',
        message: '"tools.deferred" must be a list of strings',
        words: {
          code: 'settings.mustBe',
          params: { field: 'tools.deferred', what: { code: 'settings.what.strings' } },
        },
      },
      {
        severity: 'error',
        code: 'settings.range',
        file: '/w/.workbuddy/settings.json',
        line: 6,
        field: 'agent.stallSeconds',
        message: '"agent.stallSeconds" must be a number of seconds from 0 (never) to 86400 (got -1)',
        words: {
          code: 'settings.mustBeGot',
          params: { field: 'agent.stallSeconds', what: { code: 'settings.what.seconds' }, got: '-1' },
        },
      },
    ];
    const { container } = renderWith(<Settings />, c, { workspace: WS }, 'zh');
    await waitFor(() => expect(container.querySelectorAll('.warnings li')).toHaveLength(2));
    const lines = [...container.querySelectorAll('.warnings li')].map((l) => l.textContent);
    expect(lines).toEqual([
      '/w/.workbuddy/settings.json:4: tools.deferred: 「tools.deferred」必须是字符串列表',
      '/w/.workbuddy/settings.json:6: agent.stallSeconds: 「agent.stallSeconds」必须是0（从不）到 86400 之间的秒数（实际是 -1）',
    ]);
  });
});
