// Held installs outlive the dialog that held them: the sidebar says how many wait, and each opens the same review
// (findings with file:line and the line, permissions, diff, the bound hash) ending in Approve or Reject.
import { describe, expect, it } from 'vitest';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PendingBadge } from '../../../renderer/src/components/PendingInstalls';
import { useView } from '../../../renderer/src/state/store';
import { noticeText } from '../../../renderer/src/state/notices';
import i18n from 'i18next';
import { memoryClient, type MemoryClient } from './memory-client';
import { renderWith, WS } from './render';

const held = (skill: string, hash: string): MemoryClient['held'][number] => ({
  approvalId: `ap-${skill}`,
  kind: 'install',
  skill,
  tier: 'project',
  source: `/data/fetched/src-1/${skill}`,
  target: `/home/me/alpha/.workbuddy/skills/${skill}`,
  contentHash: hash,
  level: 'P1',
  createdAt: 1,
  findings: [
    {
      file: 'SKILL.md',
      line: 8,
      rule: 'network.curl',
      family: 'network',
      level: 'P1',
      excerpt: 'curl -s https://api.example.com/<b>data</b>',
      message: 'downloads from the network',
    },
  ],
  permissions: { tools: ['bash'], commands: {}, network: true, read: [], write: [], declared: 'permissions' },
  diff: { widened: true, lines: ['+ network on'] },
});

const approvals = (c: MemoryClient) =>
  c.calls.filter((x) => x.method.startsWith('skills.') && x.method !== 'skills.pendingInstalls');

describe('Waiting for your approval', () => {
  it('shows nothing while nothing waits, and a count once the install dialog that held one closes', async () => {
    const c = memoryClient();
    renderWith(<PendingBadge />, c, { workspace: WS, installOpen: true });
    await act(async () => {});
    expect(screen.queryByRole('button', { name: /waiting for your approval/ })).toBeNull();
    c.held = [held('fetcher', 'a'.repeat(64)), held('poster', 'b'.repeat(64))];
    await act(async () => useView.getState().set({ installOpen: false }));
    await screen.findByRole('button', { name: '2 waiting for your approval' });
  });

  it('opens the review of each held install; Approve sends the reviewed hash and Reject the approval id', async () => {
    const c = memoryClient();
    c.held = [held('fetcher', 'a'.repeat(64)), held('poster', 'b'.repeat(64))];
    renderWith(<PendingBadge />, c, { workspace: WS });
    await userEvent.click(await screen.findByRole('button', { name: '2 waiting for your approval' }));
    const dialog = screen.getByRole('dialog', { name: 'Waiting for your approval' });
    const fetcher = within(dialog).getByRole('region', { name: 'fetcher' });
    // The same review as the install dialog: file:line, the rule, the line itself (as text, never markup), the diff.
    within(fetcher).getByText('SKILL.md:8');
    within(fetcher).getByText('network.curl');
    within(fetcher).getByText('curl -s https://api.example.com/<b>data</b>');
    within(fetcher).getByText('+ network on');
    within(fetcher).getByText('aaaaaaaaaaaaaaaa');
    within(fetcher).getByText('/home/me/alpha/.workbuddy/skills/fetcher');

    await userEvent.click(within(fetcher).getByRole('button', { name: 'Approve fetcher' }));
    await within(fetcher).findByText('installed');
    const poster = within(dialog).getByRole('region', { name: 'poster' });
    await userEvent.click(within(poster).getByRole('button', { name: 'Reject poster' }));
    await within(poster).findByText('rejected');
    expect(approvals(c).map((x) => [x.method, x.args[0]])).toEqual([
      ['skills.approveInstall', { approvalId: 'ap-fetcher', contentHash: 'a'.repeat(64) }],
      ['skills.rejectInstall', { approvalId: 'ap-poster' }],
    ]);
    // Closing after an install refreshes the skills, and nothing waits any more.
    const tick = useView.getState().catalogTick;
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(useView.getState().catalogTick).toBe(tick + 1);
    await act(async () => {});
    expect(screen.queryByRole('button', { name: /waiting for your approval/ })).toBeNull();
  });

  it('an approval main refuses (the held copy changed) says why and installs nothing', async () => {
    const c = memoryClient();
    c.held = [held('fetcher', 'a'.repeat(64))];
    c.handlers['skills.approveInstall'] = () => ({
      status: 'refused',
      skill: 'fetcher',
      reason: 'fetcher changed after it was reviewed; nothing was installed; install it again to review it',
    });
    renderWith(<PendingBadge />, c, { workspace: WS });
    await userEvent.click(await screen.findByRole('button', { name: '1 waiting for your approval' }));
    await userEvent.click(screen.getByRole('button', { name: 'Approve fetcher' }));
    await screen.findByText(/refused fetcher changed after it was reviewed/);
    const tick = useView.getState().catalogTick;
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(useView.getState().catalogTick).toBe(tick);
  });

  it('a held install whose copy is gone says so, offers no Approve, and is dismissed', async () => {
    const c = memoryClient();
    c.held = [{ ...held('fetcher', 'a'.repeat(64)), gone: true }];
    renderWith(<PendingBadge />, c, { workspace: WS });
    await userEvent.click(await screen.findByRole('button', { name: '1 waiting for your approval' }));
    const gone = screen.getByRole('group', { name: 'fetcher is no longer available' });
    within(gone).getByText(/No longer available: what it would install \(\/data\/fetched\/src-1\/fetcher\) is gone/);
    expect(screen.queryByRole('button', { name: 'Approve fetcher' })).toBeNull();
    await userEvent.click(within(gone).getByRole('button', { name: 'Dismiss fetcher' }));
    await screen.findByText('dismissed');
    expect(approvals(c).map((x) => [x.method, x.args[0]])).toEqual([
      ['skills.rejectInstall', { approvalId: 'ap-fetcher' }],
    ]);
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    await act(async () => {});
    expect(screen.queryByRole('button', { name: /waiting for your approval/ })).toBeNull();
  });

  it('held copies removed at open are said once as a notice, in English and in Chinese', async () => {
    const c = memoryClient();
    c.heldRemoved = ['/data/fetched/src-a', '/data/uploads/zip-b'];
    renderWith(<PendingBadge />, c, { workspace: WS });
    await act(async () => {});
    const texts = () => useView.getState().notices.map((n) => `${n.kind}:${noticeText(n)}:${n.count}`);
    expect(texts()).toEqual(['info:Removed 2 held copies of skills that no install was waiting for any more.:1']);
    // The notice is said in the window's language when it is shown, also after a switch.
    await act(() => i18n.changeLanguage('zh'));
    expect(texts()).toEqual(['info:已删除 2 个不再有安装等待的技能暂存副本。:1']);
    await act(() => i18n.changeLanguage('en'));
    // Read again (an install dialog closed, the catalog changed): not said again.
    await act(async () => useView.getState().set({ catalogTick: useView.getState().catalogTick + 1 }));
    await act(async () => {});
    expect(c.calls.filter((x) => x.method === 'skills.pendingInstalls').length).toBeGreaterThan(1);
    expect(texts()).toHaveLength(1);
    const z = memoryClient();
    z.heldRemoved = ['/data/fetched/src-a'];
    renderWith(<PendingBadge />, z, { workspace: WS }, 'zh');
    await act(async () => {});
    expect(useView.getState().notices.map((n) => noticeText(n))).toEqual(['已删除 1 个不再有安装等待的技能暂存副本。']);
  });

  it('a list main cannot read is said, not hidden; the Chinese window says it in Chinese', async () => {
    const c = memoryClient();
    c.failing.add('skills.pendingInstalls');
    renderWith(<PendingBadge />, c, { workspace: WS });
    expect((await screen.findByRole('alert')).textContent).toMatch(/skills.pendingInstalls failed/);
    const z = memoryClient();
    z.held = [held('fetcher', 'a'.repeat(64))];
    renderWith(<PendingBadge />, z, { workspace: WS }, 'zh');
    await userEvent.click(await screen.findByRole('button', { name: '1 个等待你的批准' }));
    screen.getByRole('dialog', { name: '等待你的批准' });
    screen.getByRole('button', { name: '批准 fetcher' });
  });
});
