// Keyboard-first (palette, shortcuts, list of shortcuts), the en/zh tables, and Markdown block splitting.
import { describe, expect, it } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from '../../../renderer/src/App';
import { Markdown, openFence, splitBlocks } from '../../../renderer/src/components/Markdown';
import { en } from '../../../renderer/src/i18n/en';
import { zh } from '../../../renderer/src/i18n/zh';
import { useView } from '../../../renderer/src/state/store';
import { memoryClient, outcome } from './memory-client';
import { renderWith, WS } from './render';

function keys(o: object, prefix = ''): string[] {
  return Object.entries(o)
    .flatMap(([k, v]) => (typeof v === 'object' ? keys(v as object, `${prefix}${k}.`) : [`${prefix}${k}`]))
    .sort();
}

describe('keyboard', () => {
  it('opens the command palette with Ctrl+K and runs a command with arrows and Enter', async () => {
    renderWith(<App />, memoryClient(), { workspace: WS });
    await userEvent.keyboard('{Control>}k{/Control}');
    const box = await screen.findByRole('combobox', { name: 'Type a command' });
    await userEvent.type(box, 'settings');
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(useView.getState().view).toBe('settings'));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('opens the install dialog with Ctrl+I and lists the shortcuts with Ctrl+/', async () => {
    renderWith(<App />, memoryClient(), { workspace: WS });
    await userEvent.keyboard('{Control>}i{/Control}');
    expect(await screen.findByRole('dialog', { name: 'Install a skill' })).toBeTruthy();
    await userEvent.keyboard('{Escape}');
    await userEvent.keyboard('{Control>}/{/Control}');
    const d = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    // Named as the header names them (Ctrl K): the keys a user presses, never the "Mod" of the code.
    expect(d.textContent).toContain('Ctrl+K');
    expect(d.textContent).not.toContain('Mod');
  });

  it('names the keys in the palette as Ctrl, as the header does', async () => {
    renderWith(<App />, memoryClient(), { workspace: WS });
    await userEvent.keyboard('{Control>}k{/Control}');
    const d = await screen.findByRole('dialog', { name: 'Commands' });
    const newChat = within(d).getByRole('option', { name: /New chat/ });
    expect(newChat.querySelector('kbd')!.textContent).toBe('Ctrl+N');
    expect(d.textContent).not.toContain('Mod');
  });
});

describe('keyboard: focus and Escape', () => {
  it('Ctrl+L from any view brings up Chat with the focus in the message box', async () => {
    renderWith(<App />, memoryClient(), { workspace: WS, view: 'settings' });
    await screen.findByRole('heading', { name: 'Settings' });
    await userEvent.keyboard('{Control>}l{/Control}');
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Message' })));
    expect(useView.getState().view).toBe('chat');
    useView.getState().set({ view: 'tools' });
    await screen.findByRole('heading', { name: 'Tools' });
    await userEvent.keyboard('{Control>}l{/Control}');
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Message' })));
  });

  it('Escape closes the install dialog after Audit (its button gone), and focus returns where it was', async () => {
    const c = memoryClient();
    c.installReports['/tmp/evil'] = outcome({
      skill: 'evil',
      level: 'P0',
      status: 'refused',
      contentHash: 'ffff',
      reason: 'it deletes your home folder',
    });
    renderWith(<App />, c, { workspace: WS });
    const opener = screen.getByRole('button', { name: 'Install skill' });
    await userEvent.click(opener);
    const dialog = await screen.findByRole('dialog', { name: 'Install a skill' });
    await userEvent.type(screen.getByLabelText('Skill folder or .zip path'), '/tmp/evil');
    await userEvent.click(screen.getByRole('button', { name: 'Audit' }));
    await screen.findByText('P0 · refused');
    expect(dialog.contains(document.activeElement)).toBe(true);
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).toBe(opener);
  });
});

describe('languages', () => {
  it('has the same keys in English and Chinese', () => {
    expect(keys(zh)).toEqual(keys(en));
  });
});

describe('markdown blocks', () => {
  it('never cuts a fenced code block at its blank lines', () => {
    const md = 'intro\n\n```js\na\n\nb\n```\n\nafter';
    expect(splitBlocks(md)).toEqual(['intro\n', '```js\na\n\nb\n```\n', 'after']);
  });

  it('keeps a list item and its indented continuation together', () => {
    expect(splitBlocks('- a\n\n  more of a\n- b')).toEqual(['- a\n\n  more of a\n- b']);
  });

  it('knows when a block ends inside a code fence that has not closed yet', () => {
    expect(openFence('```ts\nconst a = 1;')).toBe(true);
    expect(openFence('```ts\nconst a = 1;\n```')).toBe(false);
    expect(openFence('~~~\n```\nstill open')).toBe(true);
    expect(openFence('plain text')).toBe(false);
  });

  it('highlights code once its fence closes, and keeps finished blocks as they were while the answer grows', () => {
    const first = '# Head\n\nsome text\n\n```js\nconst x = 1;';
    const { container, rerender } = render(<Markdown text={first} />);
    expect(container.querySelector('.hljs-keyword')).toBeNull();
    expect(container.querySelector('pre code')?.textContent).toContain('const x = 1;');
    const heading = container.querySelector('h1');
    rerender(<Markdown text={`${first}\n\`\`\`\n\nmore`} />);
    expect(container.querySelector('.hljs-keyword')?.textContent).toBe('const');
    expect(container.querySelector('h1')).toBe(heading);
    expect(container.querySelectorAll('.md-block')).toHaveLength(4);
  });
});
