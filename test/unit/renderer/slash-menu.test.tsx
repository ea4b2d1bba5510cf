// The `/` menu of the message box: lists enabled skills filtered as you type (trigger words in Chinese too), moves with
// the arrows, picks with Enter or a click (the box then starts with /name), closes with Esc, and the message sent
// starts with /name (which loads the skill).
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Chat } from '../../../renderer/src/components/Chat';
import { slashMatches, slashQuery } from '../../../renderer/src/components/SlashMenu';
import { memoryClient, skill } from './memory-client';
import { renderWith, WS } from './render';

const skills = [
  skill('git-commit', { triggers: ['提交代码'], description: 'Clean commits' }),
  skill('weekly-report', { tier: 'user', description: 'The weekly report' }),
  skill('off-skill', { enabled: false }),
  skill('git-commit', { tier: 'user', shadowedBy: { tier: 'builtin', file: '/skills/git-commit/SKILL.md' } }),
];

const box = () => document.querySelector('.composer textarea') as HTMLTextAreaElement;
const options = () => within(screen.getByRole('listbox')).getAllByRole('option');

describe('the / menu', () => {
  it('applies only to / and a word at the start, and lists enabled, unshadowed skills', () => {
    expect(slashQuery('/')).toBe('');
    expect(slashQuery('/gi')).toBe('gi');
    expect(slashQuery('/git-commit now')).toBeUndefined();
    expect(slashQuery('hello /x')).toBeUndefined();
    expect(slashQuery('/tmp/x')).toBeUndefined();
    expect(slashMatches(skills, '').map((s) => s.name)).toEqual(['git-commit', 'weekly-report']);
    expect(slashMatches(skills, '提交').map((s) => s.name)).toEqual(['git-commit']);
    expect(slashMatches(skills, 'report').map((s) => s.name)).toEqual(['weekly-report']);
  });

  it('filters as you type, moves with the arrows and picks with Enter; the message sent starts with /name', async () => {
    const c = memoryClient({ skills });
    renderWith(<Chat />, c, { workspace: WS, skills });
    await userEvent.type(box(), '/');
    const list = await screen.findByRole('listbox', { name: 'Skills to load' });
    expect(options().map((o) => o.textContent)).toEqual([
      '/git-commit Clean commits',
      '/weekly-report The weekly report',
    ]);
    expect(box().getAttribute('aria-controls')).toBe(list.id);
    expect(options()[0]!.getAttribute('aria-selected')).toBe('true');
    await userEvent.keyboard('{ArrowDown}');
    expect(box().getAttribute('aria-activedescendant')).toBe(options()[1]!.id);
    await userEvent.keyboard('{ArrowDown}');
    expect(options()[0]!.getAttribute('aria-selected')).toBe('true');
    await userEvent.type(box(), 'wee');
    expect(options()).toHaveLength(1);
    await userEvent.keyboard('{Enter}');
    expect(box().value).toBe('/weekly-report ');
    expect(screen.queryByRole('listbox')).toBeNull();
    await userEvent.type(box(), 'for the team{Enter}');
    await waitFor(() => expect(c.calls.some((x) => x.method === 'chat.send')).toBe(true));
    expect(c.calls.find((x) => x.method === 'chat.send')!.args[0]).toMatchObject({
      text: '/weekly-report for the team',
    });
  });

  it('Esc closes it and keeps the text; a click picks; nothing matching says so, in Chinese', async () => {
    const c = memoryClient({ skills });
    renderWith(<Chat />, c, { workspace: WS, skills }, 'zh');
    await userEvent.type(box(), '/git');
    await screen.findByRole('listbox', { name: '要加载的技能' });
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(box().value).toBe('/git');
    await userEvent.type(box(), '-');
    await userEvent.click(within(await screen.findByRole('listbox')).getByRole('option', { name: /git-commit/ }));
    expect(box().value).toBe('/git-commit ');
    expect(document.activeElement).toBe(box());
    await userEvent.clear(box());
    await userEvent.type(box(), '/zzz');
    expect((await screen.findByRole('status')).textContent).toContain('没有匹配“zzz”的已启用技能');
  });
});
