// The install dialog: audit report (level, findings file:line with the line, permissions, update diff),
// Approve bound to the content hash, Reject, P0 refused without Approve, errors.
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { InstallDialog } from '../../../renderer/src/components/InstallDialog';
import { memoryClient, outcome } from './memory-client';
import { p0Report as p0, p1Report as p1 } from './samples';
import { renderWith, WS } from './render';

async function audit(source: string) {
  await userEvent.type(screen.getByLabelText('Skill folder or .zip path'), source);
  await userEvent.click(screen.getByRole('button', { name: 'Audit' }));
}

describe('install dialog', () => {
  it('shows a P1 report with findings, permissions and the diff, and approves with the audited hash', async () => {
    const c = memoryClient();
    c.installReports['/tmp/fetcher'] = p1;
    renderWith(<InstallDialog />, c, { workspace: WS, installOpen: true });
    const dialog = screen.getByRole('dialog', { name: 'Install a skill' });
    await audit('/tmp/fetcher');
    expect(await within(dialog).findByText('scripts/run.sh:3')).toBeTruthy();
    expect(within(dialog).getByText('curl https://example.com/x')).toBeTruthy();
    expect(within(dialog).getByText('P1 · needs your approval')).toBeTruthy();
    expect(within(dialog).getByText('+ network on')).toBeTruthy();
    expect(within(dialog).getByText('bash')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect(await within(dialog).findByText('fetcher is installed.')).toBeTruthy();
    expect(c.calls.find((x) => x.method === 'skills.approveInstall')?.args).toEqual([
      { approvalId: 'ap-1', contentHash: 'abc123def4567890ffff' },
    ]);
  });

  it('refuses a P0 skill: says why and offers no Approve', async () => {
    const c = memoryClient();
    c.installReports['/tmp/evil'] = p0;
    renderWith(<InstallDialog />, c, { workspace: WS, installOpen: true });
    await audit('/tmp/evil');
    expect((await screen.findByRole('alert')).textContent).toContain('it deletes your home folder');
    expect(screen.getByText('SKILL.md:9')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull();
  });

  it('rejects a pending install and says nothing was installed', async () => {
    const c = memoryClient();
    c.installReports['/tmp/fetcher'] = p1;
    renderWith(<InstallDialog />, c, { workspace: WS, installOpen: true });
    await audit('/tmp/fetcher');
    await userEvent.click(await screen.findByRole('button', { name: 'Reject' }));
    expect(await screen.findByText('Rejected. Nothing was installed.')).toBeTruthy();
    expect(c.calls.some((x) => x.method === 'skills.rejectInstall')).toBe(true);
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull();
  });

  it('shows the error for a path that does not exist and asks for a path when empty', async () => {
    const c = memoryClient();
    renderWith(<InstallDialog />, c, { workspace: WS, installOpen: true });
    await userEvent.click(screen.getByRole('button', { name: 'Audit' }));
    expect(screen.getByRole('alert').textContent).toBe('Type the path of a skill folder or .zip.');
    await audit('/tmp/missing');
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toContain('/tmp/missing: no such file or folder'),
    );
  });

  it('installs a clean P2 skill at once', async () => {
    const c = memoryClient();
    c.installReports['/tmp/clean'] = outcome({ skill: 'clean', status: 'installed' });
    renderWith(<InstallDialog />, c, { workspace: WS, installOpen: true });
    await audit('/tmp/clean');
    expect(await screen.findByText('clean is installed.')).toBeTruthy();
    expect(screen.getByText('No findings.')).toBeTruthy();
  });

  it('closes on Escape', async () => {
    const c = memoryClient();
    const { container } = renderWith(<InstallDialog />, c, { workspace: WS, installOpen: true });
    await userEvent.keyboard('{Escape}');
    const { useView } = await import('../../../renderer/src/state/store');
    expect(useView.getState().installOpen).toBe(false);
    expect(container).toBeTruthy();
  });

  it('audits a .zip dropped on the dialog (sent as bytes), then approves it bound to the audited hash', async () => {
    const c = memoryClient();
    c.installReports['fetcher.zip'] = p1;
    renderWith(<InstallDialog />, c, { workspace: WS, installOpen: true });
    const dialog = screen.getByRole('dialog', { name: 'Install a skill' });
    const zone = within(dialog).getByText('Drop a skill .zip here').parentElement!;
    const file = new File([new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2])], 'fetcher.zip', { type: 'application/zip' });
    fireEvent.drop(zone, { dataTransfer: { files: [file], types: ['Files'] } });
    expect(await within(dialog).findByText('scripts/run.sh:3')).toBeTruthy();
    const [sent] = c.calls.find((x) => x.method === 'skills.installUpload')!.args as [
      { filename: string; data: string; tier: string },
    ];
    expect(sent.filename).toBe('fetcher.zip');
    expect([...atob(sent.data)].map((ch) => ch.charCodeAt(0))).toEqual([0x50, 0x4b, 0x03, 0x04, 1, 2]);
    expect(sent.tier).toBe('project');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect(await within(dialog).findByText('fetcher is installed.')).toBeTruthy();
    expect(c.calls.find((x) => x.method === 'skills.approveInstall')?.args).toEqual([
      { approvalId: 'ap-1', contentHash: 'abc123def4567890ffff' },
    ]);
  });

  it('takes a .zip from the file field too, and says so when a dropped file is not a .zip', async () => {
    const c = memoryClient();
    c.installReports['evil.zip'] = p0;
    renderWith(<InstallDialog />, c, { workspace: WS, installOpen: true });
    const dialog = screen.getByRole('dialog', { name: 'Install a skill' });
    const zone = within(dialog).getByText('Drop a skill .zip here').parentElement!;
    fireEvent.drop(zone, { dataTransfer: { files: [new File(['x'], 'notes.txt')], types: ['Files'] } });
    expect(await within(dialog).findByText('notes.txt is not a .zip file.')).toBeTruthy();
    expect(c.calls.some((x) => x.method === 'skills.installUpload')).toBe(false);
    await userEvent.upload(
      within(dialog).getByLabelText('Skill .zip file'),
      new File(['PK'], 'evil.zip', { type: 'application/zip' }),
    );
    expect(await within(dialog).findByText('P0 · refused')).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: 'Approve' })).toBeNull();
  });

  it('a .zip dropped on the window opens the dialog and audits it', async () => {
    const c = memoryClient();
    c.installReports['fetcher.zip'] = p1;
    const file = new File(['PK'], 'fetcher.zip');
    renderWith(<InstallDialog />, c, { workspace: WS, installOpen: true, installFile: file });
    const dialog = screen.getByRole('dialog', { name: 'Install a skill' });
    expect(await within(dialog).findByText('P1 · needs your approval')).toBeTruthy();
    await waitFor(() => expect(c.calls.filter((x) => x.method === 'skills.installUpload')).toHaveLength(1));
  });
});

describe('install results in Chinese', () => {
  it('says why main refused in Chinese, the finding in its own words, with no English sentence', async () => {
    const c = memoryClient();
    c.installReports['/tmp/evil'] = {
      ...p0,
      reason: 'P0: SKILL.md:9 rm.home: recursive delete of the root, home or current folder',
      words: {
        code: 'install.p0',
        params: {
          finding: {
            code: 'trustFinding',
            params: { file: 'SKILL.md', line: 9, rule: 'rm.home', message: { code: 'audit.destructive.rm-root' } },
          },
        },
      },
    };
    renderWith(<InstallDialog />, c, { workspace: WS, installOpen: true }, 'zh');
    await userEvent.type(screen.getByLabelText('技能文件夹或 .zip 路径'), '/tmp/evil');
    await userEvent.click(screen.getByRole('button', { name: '审计' }));
    const alert = (await screen.findByRole('alert')).textContent ?? '';
    expect(alert).toContain('已拒绝： P0：SKILL.md:9 rm.home：递归删除根目录、主目录或当前目录');
    expect(alert).not.toMatch(/recursive|delete/);
  });
});
