// The open-workspace screen: path field, recent folders, errors, and the window title once open.
import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from '../../../renderer/src/App';
import { WorkspaceOpen } from '../../../renderer/src/components/WorkspaceOpen';
import { useView } from '../../../renderer/src/state/store';
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
    c.failing.add('openWorkspace');
    renderWith(<WorkspaceOpen />, c);
    await userEvent.type(screen.getByLabelText('Folder path'), '/nope');
    await userEvent.click(screen.getByRole('button', { name: 'Open' }));
    expect((await screen.findByRole('alert')).textContent).toContain('openWorkspace failed on purpose');
    expect(useView.getState().workspace).toBeUndefined();
  });

  it('says so when there are no recent workspaces and refuses an empty path', async () => {
    const c = memoryClient();
    c.failing.add('recentWorkspaces');
    renderWith(<WorkspaceOpen />, c);
    expect(await screen.findByText('No recent workspaces yet.')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Open' }));
    expect(screen.getByRole('alert').textContent).toBe('Type the path of a folder.');
  });

  it('the workspace button shows the picker over the open workspace; Back, Escape or the same folder again return to it as it was', async () => {
    const c = memoryClient();
    const messages = [{ id: 'm1', role: 'user' as const, parts: [{ kind: 'text' as const, text: 'keep me on screen' }] }];
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

  it('offers the native folder dialog only when the client has one (Electron)', async () => {
    const c = memoryClient();
    renderWith(<WorkspaceOpen />, c);
    expect(screen.queryByRole('button', { name: 'Choose folder…' })).toBeNull();
    const e = memoryClient();
    e.pickFolder = async () => '/picked/folder';
    renderWith(<WorkspaceOpen />, e);
    await userEvent.click(screen.getAllByRole('button', { name: 'Choose folder…' })[0]!);
    await waitFor(() => expect(useView.getState().workspace?.path).toBe('/picked/folder'));
  });
});
