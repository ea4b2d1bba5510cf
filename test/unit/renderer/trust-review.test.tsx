// Trusting a skill is always a review: Trust (sidebar, detail page, a switch on an untrusted skill) opens the report
// (level with its legend, findings with file:line and the line, permissions) and only Approve trusts, at the reviewed
// hash. Focus starts on Reject: a stray Enter never trusts. A blocked skill's switch says why.
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from '../../../renderer/src/App';
import { useView } from '../../../renderer/src/state/store';
import { noticeText } from '../../../renderer/src/state/notices';
import { audited, memoryClient, skill } from './memory-client';
import { renderWith, WS } from './render';

function client() {
  const c = memoryClient({
    skills: [
      skill('risky', { tier: 'project', enabled: false, audit: audited('P1', 'needs-trust') }),
      skill('evil', { tier: 'project', enabled: false, audit: audited('P0', 'blocked') }),
    ],
  });
  c.findings.risky = [
    {
      file: 'SKILL.md',
      line: 7,
      level: 'P1',
      rule: 'pkg.global',
      family: 'exec',
      message: 'installs a package globally',
      excerpt: 'npm install -g left-pad',
    },
  ];
  return c;
}

describe('trust review', () => {
  it('Trust in the sidebar shows the findings with file:line; Enter on the opened review rejects, Approve trusts', async () => {
    const c = client();
    renderWith(<App />, c, { workspace: WS });
    await userEvent.click(await screen.findByRole('button', { name: 'Trust risky' }));
    const dialog = await screen.findByRole('dialog', { name: 'Review risky' });
    await within(dialog).findByText('SKILL.md:7');
    expect(within(dialog).getByText('npm install -g left-pad')).toBeTruthy();
    expect(within(dialog).getByText('P1 · needs your approval')).toBeTruthy();
    expect(dialog.textContent).toContain('refused');
    // focus is on Reject: the stray Enter that trusted a skill before now rejects
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Reject'));
    await userEvent.keyboard('{Enter}');
    expect(await within(dialog).findByText('Rejected: risky stays off.')).toBeTruthy();
    expect(c.calls.some((x) => x.method === 'skills.trust')).toBe(false);
    expect(document.activeElement?.textContent).toBe('Close');
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await userEvent.click(screen.getByRole('button', { name: 'Trust risky' }));
    const again = await screen.findByRole('dialog', { name: 'Review risky' });
    await userEvent.click(await within(again).findByRole('button', { name: 'Approve' }));
    expect(await within(again).findByText(/risky is trusted and on/)).toBeTruthy();
    expect(c.calls.find((x) => x.method === 'skills.trust')?.args).toEqual([
      { name: 'risky', contentHash: 'hash-risky' },
    ]);
  });

  it('the switch of an untrusted skill opens its review; the switch of a blocked one says why', async () => {
    const c = client();
    renderWith(<App />, c, { workspace: WS });
    await userEvent.click(await screen.findByRole('switch', { name: 'Enable evil' }));
    expect(noticeText(useView.getState().notices[0] ?? { text: '' })).toMatch(/evil is blocked/);
    expect(c.calls.some((x) => x.method === 'skills.setEnabled')).toBe(false);
    await userEvent.click(screen.getByRole('switch', { name: 'Enable risky' }));
    expect(await screen.findByRole('dialog', { name: 'Review risky' })).toBeTruthy();
    expect(c.calls.some((x) => x.method === 'skills.setEnabled' || x.method === 'skills.trust')).toBe(false);
  });

  it('the detail page has Trust / Enable / Disable and never points to the command line', async () => {
    const c = client();
    c.skills.push(skill('tidy', { tier: 'user', enabled: false }));
    renderWith(<App />, c, { workspace: WS, view: 'skill', selectedSkill: { name: 'risky', tier: 'project' } });
    await screen.findByText(/waits for your review/);
    expect(document.body.textContent).not.toMatch(/knack skills|--update|read_when/);
    await userEvent.click(screen.getByRole('button', { name: 'Review and trust…' }));
    expect(await screen.findByRole('dialog', { name: 'Review risky' })).toBeTruthy();
    await userEvent.keyboard('{Escape}');

    useView.getState().set({ selectedSkill: { name: 'tidy', tier: 'user' } });
    await userEvent.click(await screen.findByRole('button', { name: 'Enable' }));
    await waitFor(() =>
      expect(c.calls.find((x) => x.method === 'skills.setEnabled')?.args).toEqual([{ name: 'tidy', enabled: true }]),
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Disable' }));
    await waitFor(() => expect(c.skills.find((s) => s.name === 'tidy')?.enabled).toBe(false));
  });

  it('a refused trust (the skill turned P0 after it was shown) is said in Chinese, with no English sentence', async () => {
    const c = client();
    c.handlers['skills.trust'] = () => {
      throw {
        code: 'refused',
        message:
          'P0 skills cannot be trusted: SKILL.md:9 rm.home: recursive delete of the root, home or current folder',
        words: {
          code: 'trust.p0',
          params: {
            summary: {
              code: 'trustFinding',
              params: { file: 'SKILL.md', line: 9, rule: 'rm.home', message: { code: 'audit.destructive.rm-root' } },
            },
          },
        },
      };
    };
    renderWith(<App />, c, { workspace: WS }, 'zh');
    await userEvent.click(await screen.findByRole('button', { name: '信任 risky' }));
    const dialog = await screen.findByRole('dialog', { name: '审阅 risky' });
    await userEvent.click(await within(dialog).findByRole('button', { name: '批准' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toContain('P0 技能不能被信任：SKILL.md:9 rm.home：递归删除根目录、主目录或当前目录');
    expect(alert.textContent).not.toMatch(/cannot|recursive|delete/);
  });
});
