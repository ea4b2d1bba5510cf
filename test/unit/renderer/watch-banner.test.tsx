// Skill folders the workspace cannot watch: the banner says, in the window's language, how many folders' skill changes
// are not followed and one of them, how to raise the watch limit, and its Reload button reads the folder again. The
// count follows the engine's `workspace.changed` (folders watched later or removed), and the banner goes with the last.
import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from '../../../renderer/src/App';
import { english, WORDS, type Said } from '../../../preload/contract';
import { memoryClient } from './memory-client';
import { ENGLISH_SENTENCE, renderWith, WS } from './render';

const FOLDER = '/home/me/.workbuddy/skills/pdf';
const COMMAND = 'sudo sysctl fs.inotify.max_user_watches=524288';

function watchProblem(words: Said, field: string) {
  return { severity: 'warning' as const, code: 'catalog.watch', file: FOLDER, field, message: english(words), words };
}

describe('skill folders not watched', () => {
  it('says in Chinese how many folders are not followed, one of them and the limit to raise; Reload reads again', async () => {
    const limit: Said = { code: 'catalog.unwatchedLimit', params: { count: 3120, folder: FOLDER, command: COMMAND } };
    const other: Said = { code: 'catalog.unwatched', params: { count: 2, folder: FOLDER, error: 'EMFILE' } };
    expect(WORDS['catalog.unwatchedLimit']).toBeTruthy();
    const ws = { ...WS, diagnostics: [watchProblem(limit, 'ENOSPC'), watchProblem(other, 'EMFILE')] };
    const c = memoryClient();
    renderWith(<App />, c, { workspace: ws }, 'zh');
    const banner = (await screen.findByText(/3120/)).closest('.watch-banner') as HTMLElement;
    const text = banner.textContent ?? '';
    expect(text).toContain(`有 3120 个文件夹（包括 ${FOLDER}）中的技能变更未被跟踪`);
    expect(text).toContain(COMMAND);
    expect(text).toContain(`有 2 个文件夹（包括 ${FOLDER}）中的技能变更未被跟踪（EMFILE）`);
    // The file system's own word for why, as it said it: in code.
    expect([...banner.querySelectorAll('code')].map((x) => x.textContent)).toContain('EMFILE');
    expect(text.replaceAll(COMMAND, '').replaceAll(FOLDER, '')).not.toMatch(ENGLISH_SENTENCE);

    await userEvent.click(screen.getByRole('button', { name: '重新加载 alpha' }));
    expect(c.calls.find((x) => x.method === 'workspace.open')?.args[0]).toEqual({ path: WS.path, reload: true });
    // The folder read again has every folder watched: the banner goes.
    await waitFor(() => expect(document.querySelector('.watch-banner')).toBeNull());
  });

  it('counts what workspace.changed counts, and goes when no folder is left unwatched', async () => {
    const three: Said = { code: 'catalog.unwatchedLimit', params: { count: 3, folder: FOLDER, command: COMMAND } };
    const one: Said = { code: 'catalog.unwatchedLimit', params: { count: 1, folder: FOLDER, command: COMMAND } };
    const c = memoryClient();
    renderWith(<App />, c, { workspace: { ...WS, diagnostics: [watchProblem(three, 'ENOSPC')] } });
    await screen.findByText(/3 folder\(s\)/);
    c.event('workspace.changed', { workspace: { ...WS, diagnostics: [watchProblem(one, 'ENOSPC')] } });
    await screen.findByText(/1 folder\(s\)/);
    expect(screen.queryByText(/3 folder\(s\)/)).toBeNull();
    c.event('workspace.changed', { workspace: WS });
    await waitFor(() => expect(document.querySelector('.watch-banner')).toBeNull());
  });

  it('a workspace whose folders are all watched shows no banner', async () => {
    renderWith(<App />, memoryClient(), { workspace: WS });
    await screen.findByRole('button', { name: 'Sandboxed' });
    expect(document.querySelector('.watch-banner')).toBeNull();
  });
});
