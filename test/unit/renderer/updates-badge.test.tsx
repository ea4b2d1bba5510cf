// The sidebar's Updates badge asks main as the catalog changes, and asks it to refresh (fetch every source) only on
// Check for updates: main answers a catalog change that left the locks alone from its last check.
import { describe, expect, it } from 'vitest';
import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { UpdatesBadge } from '../../../renderer/src/components/SkillUpdates';
import type { SkillUpdate } from '../../../preload/contract';
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

describe('Updates badge', () => {
  it('a catalog change asks without refresh; Check for updates asks with it', async () => {
    const c = memoryClient();
    const asked: (boolean | undefined)[] = [];
    Object.assign(c, {
      skillUpdates: async (refresh?: boolean) => {
        asked.push(refresh);
        return asked.length > 2 ? [available] : [];
      },
    });
    renderWith(<UpdatesBadge />, c, { workspace: WS });
    await screen.findByRole('button', { name: 'Check for updates' });
    await act(async () => useView.getState().set({ catalogTick: useView.getState().catalogTick + 1 }));
    expect(asked).toEqual([undefined, undefined]);
    await userEvent.click(screen.getByRole('button', { name: 'Check for updates' }));
    await screen.findByRole('button', { name: 'Updates: 1' });
    expect(asked).toEqual([undefined, undefined, true]);
  });
});
