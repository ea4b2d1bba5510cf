// The open-workspace screen: path field, recent folders, errors, and the window title once open.
import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from '../../../renderer/src/App';
import { WorkspaceOpen } from '../../../renderer/src/components/WorkspaceOpen';
import { useView } from '../../../renderer/src/state/store';
import { say } from '../../../preload/words';
import { memoryClient } from './memory-client';
import { renderWith, WS } from './render';

describe('workspace screen', () => {
  it('opens the folder typed in the path field and names it in the window title', async () => {
    const c = memoryClient();
    renderWith(<App />, c);
    await userEvent.type(screen.getByLabelText('Folder path'), '/home/me/project');
    await userEvent.click(screen.getByRole('button', { name: 'Open' }));
    await waitFor(() => expect(document.title).toBe('project — Knack'));
    expect(useView.getState().workspace?.path).toBe('/home/me/project');
    expect(screen.getByRole('navigation', { name: 'Skills' })).toBeTruthy();
  });

  it('lists recent workspaces and opens one with a click', async () => {
    const c = memoryClient();
    renderWith(<WorkspaceOpen />, c);
    await userEvent.click(await screen.findByRole('button', { name: '/home/me/beta' }));
    await waitFor(() => expect(useView.getState().workspace?.name).toBe('beta'));
  });

  it('shows the error from the main process when the folder cannot be opened', async () => {
    const c = memoryClient();
    c.failing.add('workspace.open');
    renderWith(<WorkspaceOpen />, c);
    await userEvent.type(screen.getByLabelText('Folder path'), '/nope');
    await userEvent.click(screen.getByRole('button', { name: 'Open' }));
    expect((await screen.findByRole('alert')).textContent).toContain('workspace.open failed on purpose');
    expect(useView.getState().workspace).toBeUndefined();
  });

  it("says why a typed folder cannot be opened in the window's language, from main's words", async () => {
    const c = memoryClient();
    const message = 'cannot open /nope as a workspace: no such folder';
    c.handlers['workspace.open'] = () => {
      throw {
        code: 'not_found',
        message,
        words: say('workspace.cannotOpen', { path: '/nope', why: say('workspace.noSuchFolder') }),
      };
    };
    renderWith(<WorkspaceOpen />, c, {}, 'zh');
    await userEvent.type(screen.getByLabelText('文件夹路径'), '/nope');
    await userEvent.click(screen.getByRole('button', { name: '打开' }));
    expect((await screen.findByRole('alert')).textContent).toBe('无法把 /nope 作为工作区打开：文件夹不存在');
  });

  it('says so when there are no recent workspaces and refuses an empty path', async () => {
    const c = memoryClient();
    c.handlers['workspace.recent'] = () => ({ items: [] });
    renderWith(<WorkspaceOpen />, c);
    expect(await screen.findByText('No recent workspaces yet.')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Open' }));
    expect(screen.getByRole('alert').textContent).toBe('Type the path of a folder.');
  });

  it('says why the recent workspaces could not be read, and not that there are none', async () => {
    const c = memoryClient();
    c.failing.add('workspace.recent');
    renderWith(<WorkspaceOpen />, c);
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The recent workspaces could not be read: workspace.recent failed on purpose',
    );
    expect(screen.queryByText('No recent workspaces yet.')).toBeNull();
  });

  it('says nothing of the recent workspaces while they are asked for', async () => {
    const c = memoryClient();
    let answer: (v: { items: [] }) => void = () => {};
    c.handlers['workspace.recent'] = () => new Promise((r) => (answer = r));
    renderWith(<WorkspaceOpen />, c);
    await screen.findByRole('heading', { name: 'Recent workspaces' });
    expect(screen.queryByText('No recent workspaces yet.')).toBeNull();
    answer({ items: [] });
    expect(await screen.findByText('No recent workspaces yet.')).toBeTruthy();
  });

  it('the workspace button shows the picker over the open workspace; Back, Escape or the same folder again return to it as it was', async () => {
    const c = memoryClient();
    const messages = [
      { id: 'm1', role: 'user' as const, parts: [{ kind: 'text' as const, text: 'keep me on screen' }] },
    ];
    renderWith(<App />, c, { workspace: WS, sessionId: 's1', messages });
    const reopen = async () => userEvent.click(screen.getByRole('button', { name: 'Workspace alpha (switch)' }));
    await reopen();
    await userEvent.click(screen.getByRole('button', { name: 'Back to alpha' }));
    await reopen();
    await userEvent.keyboard('{Escape}');
    await reopen();
    await userEvent.click(await screen.findByRole('button', { name: '/home/me/alpha' }));
    await waitFor(() => expect(screen.queryByLabelText('Folder path')).toBeNull());
    expect(useView.getState()).toMatchObject({ workspace: WS, sessionId: 's1', messages });
    expect(screen.getByText('keep me on screen')).toBeTruthy();
    // Another folder is a switch: its own, empty chat.
    await reopen();
    await userEvent.click(await screen.findByRole('button', { name: '/home/me/beta' }));
    await waitFor(() => expect(useView.getState().workspace?.name).toBe('beta'));
    expect(useView.getState()).toMatchObject({ sessionId: undefined, messages: [] });
  });

  it('a draft in the message box, and a message whose send fails while the picker is up, are there on Back', async () => {
    const c = memoryClient();
    let fail!: () => void;
    const failing = new Promise<void>((r) => (fail = r));
    c.handlers['chat.send'] = async () => {
      await failing;
      throw { code: 'internal', message: 'the store is full' };
    };
    renderWith(<App />, c, { workspace: WS, sessionId: 's1', messages: [] });
    const box = () => screen.getByRole('textbox', { name: /message/i }) as HTMLTextAreaElement;
    const picker = () => userEvent.click(screen.getByRole('button', { name: 'Workspace alpha (switch)' }));
    await userEvent.type(box(), 'a draft I am still writing');
    await picker();
    await userEvent.click(screen.getByRole('button', { name: 'Back to alpha' }));
    expect(box().value).toBe('a draft I am still writing');
    await userEvent.clear(box());
    await userEvent.type(box(), 'important message{Enter}');
    await picker();
    fail();
    await waitFor(() => expect(useView.getState().messages).toEqual([]));
    await userEvent.click(screen.getByRole('button', { name: 'Back to alpha' }));
    expect(box().value).toContain('important message');
    expect(screen.getByRole('alert').textContent).toContain('the store is full');
  });

  it('Reload reads the open folder again (asked of the engine as a reload) and starts from an empty chat', async () => {
    const c = memoryClient();
    renderWith(<App />, c, {
      workspace: WS,
      sessionId: 's1',
      messages: [{ id: 'm1', role: 'user', parts: [{ kind: 'text', text: 'old' }] }],
    });
    await userEvent.click(screen.getByRole('button', { name: 'Workspace alpha (switch)' }));
    await userEvent.click(screen.getByRole('button', { name: 'Reload alpha' }));
    await waitFor(() => expect(screen.queryByLabelText('Folder path')).toBeNull());
    expect(c.calls.filter((x) => x.method === 'workspace.open').map((x) => x.args)).toEqual([
      [{ path: WS.path, reload: true }],
    ]);
    expect(useView.getState()).toMatchObject({ workspace: WS, sessionId: undefined, messages: [] });
  });

  it("another folder gets a chat of its own: a draft typed for the first is not in the second's box", async () => {
    const c = memoryClient();
    renderWith(<App />, c, { workspace: WS, sessionId: 's1', messages: [] });
    const box = () => screen.getByRole('textbox', { name: /message/i }) as HTMLTextAreaElement;
    await userEvent.type(box(), 'only for alpha');
    await userEvent.click(screen.getByRole('button', { name: 'Workspace alpha (switch)' }));
    await userEvent.click(await screen.findByRole('button', { name: '/home/me/beta' }));
    await waitFor(() => expect(useView.getState().workspace?.name).toBe('beta'));
    expect(box().value).toBe('');
  });

  it('while a folder opens the picker stays (Back disabled, Escape ignored); Back returns focus to the workspace button', async () => {
    const c = memoryClient();
    let finish!: () => void;
    const opening = new Promise<void>((r) => (finish = r));
    const plain = c.handlers['workspace.open']!;
    c.handlers['workspace.open'] = async (input) => {
      await opening;
      return plain(input);
    };
    renderWith(<App />, c, { workspace: WS, sessionId: 's1', messages: [] });
    await userEvent.click(screen.getByRole('button', { name: 'Workspace alpha (switch)' }));
    await userEvent.click(screen.getByRole('button', { name: 'Back to alpha' }));
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Workspace alpha (switch)' })),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Workspace alpha (switch)' }));
    await userEvent.click(await screen.findByRole('button', { name: '/home/me/beta' }));
    expect((screen.getByRole('button', { name: 'Back to alpha' }) as HTMLButtonElement).disabled).toBe(true);
    await userEvent.keyboard('{Escape}');
    expect(screen.getByLabelText('Folder path')).toBeTruthy();
    finish();
    await waitFor(() => expect(useView.getState().workspace?.name).toBe('beta'));
  });

  it('offers the native folder dialog only when the client has one (Electron)', async () => {
    const c = memoryClient();
    renderWith(<WorkspaceOpen />, c);
    expect(screen.queryByRole('button', { name: 'Choose folder…' })).toBeNull();
    const e = memoryClient();
    Object.assign(e, { nativeDialogs: true });
    e.handlers['dialog.pickWorkspace'] = () => ({ path: '/picked/folder' });
    renderWith(<WorkspaceOpen />, e);
    await userEvent.click(screen.getAllByRole('button', { name: 'Choose folder…' })[0]!);
    await waitFor(() => expect(useView.getState().workspace?.path).toBe('/picked/folder'));
  });
});
