// The sidebar's Updates badge asks main as the catalog changes, and asks it to refresh (fetch every source) only on
// Check for updates: main answers a catalog change that left the locks alone from its last check.
import { describe, expect, it } from 'vitest';
import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { UpdatesBadge } from '../../../renderer/src/components/SkillUpdates';
import { contractError, type SkillUpdate } from '../../../preload/contract';
import { useView } from '../../../renderer/src/state/store';
import { memoryClient } from './memory-client';
import { renderWith, WS } from './render';

const available: SkillUpdate = {
  name: 'tidy',
  tier: 'project',
  status: 'available',
  from: 'a'.repeat(40),
  to: 'b'.repeat(40),
};

/** A check that failed as main sends it: the code naming the skill, with the source's own words inside. */
const failed: SkillUpdate = {
  name: 'vanishing',
  tier: 'user',
  status: 'error',
  reason: 'file:///r/gone.git: no such repository',
  words: {
    code: 'update.checkFailed',
    params: { skill: 'vanishing', why: { code: 'source.noRepo', params: { source: 'file:///r/gone.git' } } },
  },
  from: 'c'.repeat(40),
};
/** A skill of a marketplace plugin the marketplace no longer lists: the reason names the plugin, not the skill. */
const pluginGone: SkillUpdate = {
  name: 'pin',
  tier: 'project',
  status: 'error',
  words: {
    code: 'update.checkFailed',
    params: {
      skill: 'pin',
      why: { code: 'update.pluginGone', params: { plugin: 'pinned', marketplace: 'https://m.example/m.json' } },
    },
  },
  from: 'e'.repeat(40),
};
const upToDate: SkillUpdate = { name: 'steady', tier: 'project', status: 'up-to-date', from: 'd'.repeat(40) };

describe('Updates badge', () => {
  it('a catalog change asks without refresh; Check for updates asks with it, as the user asking', async () => {
    const c = memoryClient();
    const asked: string[] = [];
    c.handlers['sources.updates'] = ({ refresh, asked: byUser }) => {
      asked.push(`${refresh ?? '-'}/${byUser ?? '-'}`);
      return { items: asked.length > 2 ? [available] : [] };
    };
    renderWith(<UpdatesBadge />, c, { workspace: WS });
    await screen.findByRole('button', { name: 'Check for updates' });
    await act(async () => useView.getState().set({ catalogTick: useView.getState().catalogTick + 1 }));
    expect(asked).toEqual(['-/-', '-/-']);
    await userEvent.click(screen.getByRole('button', { name: 'Check for updates' }));
    await screen.findByRole('button', { name: 'Updates: 1' });
    // Only the click may ask the project's sources on this computer (main's sources.updates).
    expect(asked).toEqual(['-/-', '-/-', 'true/true']);
  });

  it('failed checks are counted on the badge and each names its skill once in the dialog, in English and Chinese', async () => {
    for (const [lang, badge, lines] of [
      [
        'en',
        'Updates: 1, 2 checks failed',
        {
          vanishing: 'vanishing: could not check for an update (file:///r/gone.git: no such repository)',
          pin: 'pin: could not check for an update (plugin "pinned" is no longer listed in https://m.example/m.json)',
        },
      ],
      [
        'zh',
        '更新：1，2 项检查失败',
        {
          vanishing: 'vanishing：无法检查更新（file:///r/gone.git：没有这个仓库）',
          pin: 'pin：无法检查更新（插件「pinned」已不在 https://m.example/m.json 中）',
        },
      ],
    ] as const) {
      const c = memoryClient();
      c.handlers['sources.updates'] = () => ({ items: [available, failed, pluginGone, upToDate] });
      const { unmount } = renderWith(<UpdatesBadge />, c, { workspace: WS }, lang);
      await userEvent.click(await screen.findByRole('button', { name: badge }));
      for (const [name, line] of Object.entries(lines))
        expect((await screen.findByRole('region', { name })).textContent).toContain(line);
      expect(screen.getByRole('region', { name: 'tidy' })).toBeTruthy();
      expect(screen.queryByRole('region', { name: 'steady' })).toBeNull();
      unmount();
    }
  });

  it('only failed checks still show the badge: a failure is never read as up to date', async () => {
    const c = memoryClient();
    c.handlers['sources.updates'] = () => ({ items: [failed, upToDate] });
    renderWith(<UpdatesBadge />, c, { workspace: WS });
    await userEvent.click(await screen.findByRole('button', { name: '1 check failed' }));
    expect((await screen.findByRole('alert')).textContent).toContain('vanishing: could not check for an update');
  });

  it('a check that fails as a whole (a lock that does not parse) is said, not dropped', async () => {
    const c = memoryClient();
    c.handlers['sources.updates'] = () => {
      throw contractError('invalid_input', '/w/.knack/skills/skills.lock.json:3: not JSON');
    };
    renderWith(<UpdatesBadge />, c, { workspace: WS });
    expect((await screen.findByRole('alert')).textContent).toContain('skills.lock.json:3');
  });
});
