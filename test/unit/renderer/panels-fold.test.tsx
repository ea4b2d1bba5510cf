// The skills sidebar and the right panel fold from the header (or Ctrl+B / Ctrl+Shift+B), and the choice survives a
// reload (localStorage); folded panels leave the page, so the chat takes their width.
import { beforeEach, describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from '../../../renderer/src/App';
import { usePanels } from '../../../renderer/src/state/panels';
import { memoryClient } from './memory-client';
import { renderWith, WS } from './render';

beforeEach(() => {
  localStorage.clear();
  usePanels.setState({ sidebar: true, panels: true });
});

describe('folding panels', () => {
  it('folds the skills list and the right panel from the header, and says which is open', async () => {
    const { container } = renderWith(<App />, memoryClient(), { workspace: WS });
    const left = screen.getByRole('button', { name: 'Show or hide the skills list' });
    const right = screen.getByRole('button', { name: 'Show or hide loaded skills and context' });
    expect(left.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByRole('navigation', { name: 'Skills' })).toBeTruthy();
    await userEvent.click(left);
    expect(left.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('navigation', { name: 'Skills' })).toBeNull();
    expect(container.querySelector('.app')!.className).toContain('no-sidebar');
    await userEvent.click(right);
    expect(right.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('complementary', { name: 'Context' })).toBeNull();
    expect(container.querySelector('.app')!.className).toContain('no-panels');
    // Remembered: what a reload reads back.
    expect(JSON.parse(localStorage.getItem('knack.panels')!).state).toEqual({ sidebar: false, panels: false });
    await userEvent.click(left);
    expect(screen.getByRole('navigation', { name: 'Skills' })).toBeTruthy();
  });

  it('Ctrl+B and Ctrl+Shift+B fold and unfold them, in Chinese too', async () => {
    renderWith(<App />, memoryClient(), { workspace: WS }, 'zh');
    await userEvent.keyboard('{Control>}b{/Control}');
    expect(screen.getByRole('button', { name: '显示或隐藏技能列表' }).getAttribute('aria-expanded')).toBe('false');
    await userEvent.keyboard('{Control>}{Shift>}b{/Shift}{/Control}');
    expect(screen.getByRole('button', { name: '显示或隐藏已加载技能和上下文' }).getAttribute('aria-expanded')).toBe(
      'false',
    );
    await userEvent.keyboard('{Control>}b{/Control}');
    expect(usePanels.getState()).toMatchObject({ sidebar: true, panels: false });
  });
});
