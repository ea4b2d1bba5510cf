// The MCP server form on the Tools page: add a stdio server through a review that shows what it will run, what it may
// reach and its env names with the values hidden; edit one keeping its secret; a server that does not start is saved
// only when asked; a bad entry's error names the field; turn off, remove after a confirmation; in English and Chinese.
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Tools } from '../../../renderer/src/components/Tools';
import { memoryClient } from './memory-client';
import { renderWith, WS } from './render';

const saves = (c: ReturnType<typeof memoryClient>) =>
  c.calls.filter((x) => x.method === 'mcp.save').map((x) => x.args[0]);

describe('MCP server form', () => {
  it('adds a stdio server after a review of what it runs and reaches, its secret never shown', async () => {
    const c = memoryClient();
    renderWith(<Tools />, c, { workspace: WS });
    await screen.findByText('No MCP servers configured.');
    await userEvent.click(screen.getByRole('button', { name: 'Add MCP server' }));
    const form = screen.getByRole('form', { name: 'Add MCP server' });
    // While the first one is being added, the page does not also say there is none.
    expect(screen.queryByText('No MCP servers configured.')).toBeNull();
    await userEvent.type(within(form).getByLabelText('Name'), 'tracker');
    await userEvent.type(within(form).getByLabelText('Command'), 'node');
    await userEvent.type(within(form).getByLabelText('Arguments, one per line'), 'server.mjs\n--name\nmy tracker');
    await userEvent.click(within(form).getByRole('button', { name: 'Add a variable' }));
    await userEvent.type(within(form).getByLabelText('Name 1'), 'TRACKER_TOKEN');
    await userEvent.type(within(form).getByLabelText('Value of TRACKER_TOKEN'), 'tok-secret-123');
    await userEvent.type(within(form).getByLabelText(/Hosts it may reach/), 'api.example.com');
    await userEvent.click(within(form).getByRole('button', { name: 'Review…' }));

    const review = screen.getByRole('region', { name: 'Review before it starts' });
    expect(within(review).getByText('node server.mjs --name "my tracker"')).toBeTruthy();
    expect(within(review).getByText(/api\.example\.com/)).toBeTruthy();
    expect(within(review).getByText(/TRACKER_TOKEN=••••••/)).toBeTruthy();
    expect(review.textContent).toContain('It starts inside the sandbox');
    expect(document.body.textContent).not.toContain('tok-secret-123');
    await userEvent.click(within(review).getByRole('button', { name: 'Save and start' }));
    await waitFor(() =>
      expect(saves(c)).toEqual([
        {
          scope: 'user',
          name: 'tracker',
          server: {
            kind: 'stdio',
            command: 'node',
            args: ['server.mjs', '--name', 'my tracker'],
            env: [{ name: 'TRACKER_TOKEN', value: 'tok-secret-123' }],
            network: ['api.example.com'],
          },
        },
      ]),
    );
    expect(await screen.findByText('tracker')).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Review before it starts' })).toBeNull();
  });

  it('edits a server keeping the secret it holds, and says when a server did not start', async () => {
    const c = memoryClient({ servers: [{ name: 'db', state: 'connected', tools: 3 }] });
    c.mcpEntries[0]!.envKeys = ['DB_PASSWORD'];
    let tries = 0;
    c.handlers['mcp.save'] = ({ force }) =>
      force ? { saved: true, tools: [] } : { saved: false, tools: [], error: `spawn db-mcp ENOENT (${++tries})` };
    renderWith(<Tools />, c, { workspace: WS });
    await userEvent.click(await screen.findByRole('button', { name: 'Edit db' }));
    const form = screen.getByRole('form', { name: 'Edit db' });
    expect((within(form).getByLabelText('Value of DB_PASSWORD') as HTMLInputElement).placeholder).toBe('•••••• (kept)');
    await userEvent.click(within(form).getByRole('button', { name: 'Review…' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save and start' }));
    expect((await screen.findByRole('alert')).textContent).toContain('spawn db-mcp ENOENT (1)');
    expect(saves(c)[0]).toMatchObject({ name: 'db', previousName: 'db', server: { env: [{ name: 'DB_PASSWORD' }] } });
    await userEvent.click(screen.getByRole('button', { name: 'Save anyway' }));
    await waitFor(() => expect(saves(c)[1]).toMatchObject({ force: true }));
  });

  it('shows the error naming the field, back in the form', async () => {
    const c = memoryClient();
    c.handlers['mcp.save'] = () => {
      throw {
        code: 'invalid_input',
        message: '/data/mcp.json: mcpServers.web.network: "https://x" is not a host name',
      };
    };
    renderWith(<Tools />, c, { workspace: WS });
    await userEvent.click(await screen.findByRole('button', { name: 'Add MCP server' }));
    await userEvent.type(screen.getByLabelText('Name'), 'web');
    await userEvent.type(screen.getByLabelText('Command'), 'web-mcp');
    await userEvent.click(screen.getByRole('button', { name: 'Review…' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save and start' }));
    expect((await screen.findByRole('alert')).textContent).toContain('mcpServers.web.network');
    expect(screen.getByRole('form', { name: 'Add MCP server' })).toBeTruthy();
  });

  it('turns a server off and removes it after a confirmation, in Chinese', async () => {
    const c = memoryClient({ servers: [{ name: 'db', state: 'connected', tools: 3 }] });
    renderWith(<Tools />, c, { workspace: WS }, 'zh');
    await userEvent.click(await screen.findByRole('checkbox', { name: '运行 db' }));
    await waitFor(() => expect(c.mcpEntries[0]!.enabled).toBe(false));
    expect(await screen.findByText('已关闭')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: '移除 db' }));
    const confirm = screen.getByRole('group', { name: '移除 db' });
    expect(confirm.textContent).toContain('/data/mcp.json');
    expect(c.calls.some((x) => x.method === 'mcp.remove')).toBe(false);
    await userEvent.click(within(confirm).getByRole('button', { name: '移除 db' }));
    await waitFor(() => expect(c.mcpEntries).toEqual([]));
    expect(await screen.findByText('未配置 MCP 服务器。')).toBeTruthy();
  });
});

describe('a server that keeps failing', () => {
  it('shows which try it is on beside "connecting", then "failed", in English and Chinese', async () => {
    const error = 'MCP error -32000: Connection closed (stderr: no database)';
    for (const [lang, trying, failed] of [
      ['en', 'connecting try 3 of 8', 'failed'],
      ['zh', '连接中 第 3 次尝试，共 8 次', '失败'],
    ] as const) {
      const c = memoryClient({ servers: [{ name: 'db', state: 'connecting', tools: 0 }] });
      const { unmount } = renderWith(<Tools />, c, { workspace: WS }, lang);
      const row = (await screen.findByText('db')).closest('li')!;
      const state = () => row.querySelector('.badge.mcp-connecting, .badge.mcp-failed')!;
      // The first try says nothing more than connecting.
      await waitFor(() => expect(state().textContent).not.toBe(''));
      expect(row.textContent).not.toMatch(/try|尝试/);
      c.event('tools.mcpChanged', {
        servers: [
          {
            name: 'db',
            state: 'connecting',
            tools: 0,
            error,
            tryWords: { code: 'mcp.try', params: { n: 3, of: 8 } },
          },
        ],
      });
      await waitFor(() =>
        expect(`${state().textContent} ${state().nextElementSibling?.textContent}`.trim()).toBe(trying),
      );
      expect(within(row).getByText(error)).toBeTruthy();
      c.event('tools.mcpChanged', { servers: [{ name: 'db', state: 'failed', tools: 0, error }] });
      await waitFor(() => expect(state().textContent).toBe(failed));
      expect(row.textContent).not.toMatch(/try|尝试/);
      // No tool count beside a server that has none to offer: "0 tools" says nothing there.
      expect(row.textContent).not.toMatch(/0 tools|0 个工具/);
      unmount();
    }
  });
});

describe('a server that failed', () => {
  it('says its error as the server said it, after a lead in the window language', async () => {
    const error = 'MCP error -32000: Connection closed (stderr: db-mcp: cannot open database)';
    const c = memoryClient({ servers: [{ name: 'db', state: 'failed', tools: 0, error }] });
    renderWith(<Tools />, c, { workspace: WS }, 'zh');
    const said = await screen.findByText(error);
    expect(said.tagName).toBe('CODE');
    expect(said.parentElement?.textContent).toBe(`它给出的错误： ${error}`);
  });
});
