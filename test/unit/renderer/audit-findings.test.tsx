// One audit block for every review: the install dialog, a skill from a repository waiting for approval and a trust
// review show the same legend, findings (level, file:line, rule, the line), permissions and reviewed hash, from one
// component, in English and in Chinese.
import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AuditFindings } from '../../../renderer/src/components/Findings';
import { InstallDialog } from '../../../renderer/src/components/InstallDialog';
import { TrustReview } from '../../../renderer/src/components/TrustReview';
import type { OpenedSource } from '../../../preload/contract';
import { asks, audited, memoryClient, outcome, skill } from './memory-client';
import { renderWith, WS } from './render';

const finding = {
  file: 'scripts/run.sh',
  line: 3,
  level: 'P1' as const,
  rule: 'net.curl',
  family: 'network',
  message: 'downloads from the network',
  excerpt: 'curl https://example.com/x <b>bold</b>',
};
const permissions = asks({ tools: ['bash'], network: true, read: ['**'] });
// The trust review's hash is the memory client's `hash-<name>`: the same everywhere, so the blocks can be compared.
const report = outcome({
  approvalId: 'ap-1',
  skill: 'fetcher',
  level: 'P1',
  status: 'pending',
  contentHash: 'hash-fetcher',
  findings: [finding],
  permissions,
});

const block = (root: HTMLElement) => {
  const b = root.querySelector('.audit-findings');
  expect(b).toBeTruthy();
  return b as HTMLElement;
};

async function installDialogBlock(): Promise<string> {
  const c = memoryClient();
  c.installReports['/tmp/fetcher'] = report;
  const { unmount } = renderWith(<InstallDialog />, c, { workspace: WS, installOpen: true });
  await userEvent.type(screen.getByLabelText('Skill folder or .zip path'), '/tmp/fetcher');
  await userEvent.click(screen.getByRole('button', { name: 'Audit' }));
  await screen.findByText('scripts/run.sh:3');
  const html = block(screen.getByRole('dialog')).outerHTML;
  unmount();
  return html;
}

async function sourceInstallBlock(): Promise<string> {
  const c = memoryClient();
  const opened = {
    openId: 'o1',
    display: 'https://git.example/team/skills.git',
    kind: 'repository',
    skills: [{ name: 'fetcher', description: 'Fetches', level: 'P1', findings: 1, contentHash: 'hash-fetcher' }],
    plugins: [],
  } as unknown as OpenedSource;
  c.handlers['sources.open'] = () => opened;
  c.handlers['sources.install'] = () => ({ results: [report] });
  const { unmount } = renderWith(<InstallDialog />, c, { workspace: WS, installOpen: true });
  await userEvent.click(screen.getByRole('tab', { name: 'From a repository or marketplace' }));
  await userEvent.type(screen.getByLabelText('Repository or marketplace'), opened.display);
  await userEvent.click(screen.getByRole('button', { name: 'Fetch' }));
  await userEvent.click(await screen.findByRole('button', { name: /Review/ }));
  await userEvent.click(screen.getByRole('button', { name: 'Approve' }));
  await screen.findByText('scripts/run.sh:3');
  const html = block(screen.getByRole('dialog')).outerHTML;
  unmount();
  return html;
}

async function trustReviewBlock(): Promise<string> {
  const c = memoryClient({
    // skills.show reports the permissions of the listed skill.
    skills: [
      Object.assign(skill('fetcher', { tier: 'project', enabled: false, audit: audited('P1', 'needs-trust') }), {
        permissions,
      }),
    ],
  });
  c.findings.fetcher = [finding];
  const { unmount } = renderWith(<TrustReview name="fetcher" tier="project" />, c, { workspace: WS });
  await screen.findByText('scripts/run.sh:3');
  const html = block(screen.getByRole('dialog')).outerHTML;
  unmount();
  return html;
}

describe('audit findings', () => {
  it('shows the legend, each finding with its level, file:line, rule and line, the permissions and the hash', () => {
    const { container } = renderWith(
      <AuditFindings
        findings={[finding]}
        permissions={permissions}
        contentHash={'0123456789abcdef' + 'f'.repeat(48)}
      />,
      memoryClient(),
    );
    const b = within(block(container));
    expect(block(container).querySelector('.level-legend')?.textContent).toBe(
      'P0 refused · P1 needs your approval · P2 clean',
    );
    expect(b.getByText('scripts/run.sh:3')).toBeTruthy();
    expect(b.getByText('net.curl')).toBeTruthy();
    // The offending line is text, never markup.
    expect(b.getByText('curl https://example.com/x <b>bold</b>')).toBeTruthy();
    expect(container.querySelector('b')).toBeNull();
    expect(b.getByText('bash')).toBeTruthy();
    expect(b.getByText('0123456789abcdef')).toBeTruthy();
  });

  it('says so when there are no findings and no permission request, in Chinese too', () => {
    const { container } = renderWith(<AuditFindings findings={[]} />, memoryClient(), {}, 'zh');
    const b = within(block(container));
    expect(b.getByText('没有发现问题。')).toBeTruthy();
    expect(b.getByText('未请求权限（按最小权限处理）。')).toBeTruthy();
    expect(container.textContent).not.toMatch(/Findings|permissions/);
  });

  it('the install dialog, a source install waiting for approval and a trust review show the same block', async () => {
    const install = await installDialogBlock();
    const source = await sourceInstallBlock();
    const trust = await trustReviewBlock();
    expect(install).toContain('net.curl');
    expect(source).toBe(install);
    expect(trust).toBe(install);
  });
});
