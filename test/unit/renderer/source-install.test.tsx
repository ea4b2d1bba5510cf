// A skill from a repository whose name is already installed: the install dialog says so and offers Update or keep;
// nothing is replaced until Update, which asks main to replace exactly that skill, and closing keeps the installed one.
import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { InstallDialog } from '../../../renderer/src/components/InstallDialog';
import type { OpenedSource } from '../../../preload/contract';
import { memoryClient, outcome } from './memory-client';
import { renderWith, WS } from './render';

const opened = {
  openId: 'o1',
  display: 'https://git.example/team/skills.git',
  kind: 'repository',
  skills: [{ name: 'tidy', description: 'Tidies', level: 'P2', findings: 0, contentHash: 'c'.repeat(64) }],
  plugins: [],
} as unknown as OpenedSource;

function client() {
  const c = memoryClient();
  const installs: unknown[][] = [];
  c.handlers['sources.open'] = () => opened;
  c.handlers['sources.install'] = ({ openId, skills, tier, replace }) => {
    installs.push([openId, skills, tier, replace === true]);
    return {
      results: [
        outcome({
          skill: 'tidy',
          status: replace ? 'installed' : 'exists',
          contentHash: 'c'.repeat(64),
          ...(replace ? {} : { reason: 'tidy is already installed' }),
        }),
      ],
    };
  };
  return { c, installs };
}

async function installTidy() {
  await userEvent.click(screen.getByRole('tab', { name: 'From a repository or marketplace' }));
  await userEvent.type(screen.getByLabelText('Repository or marketplace'), opened.display);
  await userEvent.click(screen.getByRole('button', { name: 'Fetch' }));
  await userEvent.click(await screen.findByRole('button', { name: 'Review 1 skill' }));
  await userEvent.click(screen.getByRole('button', { name: 'Approve' }));
  return screen.findByText('already installed — update or keep');
}

describe('source install name clash', () => {
  it('offers Update or keep; Update replaces exactly that skill', async () => {
    const { c, installs } = client();
    renderWith(<InstallDialog />, c, { workspace: WS, installOpen: true });
    await installTidy();
    expect(installs).toEqual([['o1', ['tidy'], 'project', false]]);
    const dialog = screen.getByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Update (replace the installed one)' }));
    expect(await within(dialog).findByText('installed')).toBeTruthy();
    expect(installs).toEqual([
      ['o1', ['tidy'], 'project', false],
      ['o1', ['tidy'], 'project', true],
    ]);
  });

  it('closing keeps the installed one: nothing is replaced', async () => {
    const { c, installs } = client();
    renderWith(<InstallDialog />, c, { workspace: WS, installOpen: true });
    await installTidy();
    await userEvent.click(within(screen.getByRole('dialog')).getAllByRole('button', { name: 'Close' }).at(-1)!);
    expect(installs).toEqual([['o1', ['tidy'], 'project', false]]);
  });
});

describe('a source that is refused, in Chinese', () => {
  it('says an unreachable source in Chinese, with no English sentence', async () => {
    const { c } = client();
    c.handlers['sources.open'] = () => {
      throw {
        code: 'refused',
        message: "http://127.0.0.1:9/x.git: network error (fatal: unable to access 'http://127.0.0.1:9/x.git/')",
        words: { code: 'source.unreachable', params: { source: 'http://127.0.0.1:9/x.git' } },
      };
    };
    renderWith(<InstallDialog />, c, { workspace: WS, installOpen: true }, 'zh');
    await userEvent.click(screen.getByRole('tab', { name: '从仓库或市场' }));
    await userEvent.type(screen.getByLabelText('仓库或市场'), 'http://127.0.0.1:9/x.git');
    await userEvent.click(screen.getByRole('button', { name: '获取' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('http://127.0.0.1:9/x.git：无法连接（网络错误：主机没有响应）');
    expect(alert.textContent).not.toMatch(/network|unable|fatal/);
  });

  it('says why a fetch failed under its field, above the marketplace search, and a failed search under the search', async () => {
    const { c } = client();
    c.handlers['sources.open'] = () => {
      throw { code: 'refused', message: 'unreachable', words: { code: 'source.unreachable', params: { source: 'x' } } };
    };
    c.handlers['sources.browse'] = () => {
      throw { code: 'internal', message: 'no marketplace answered' };
    };
    renderWith(<InstallDialog />, c, { workspace: WS, installOpen: true });
    await userEvent.click(screen.getByRole('tab', { name: 'From a repository or marketplace' }));
    await userEvent.type(screen.getByLabelText('Repository or marketplace'), 'x');
    await userEvent.click(screen.getByRole('button', { name: 'Fetch' }));
    const fetched = await screen.findByRole('alert');
    const field = screen.getByLabelText('Repository or marketplace');
    const search = screen.getByLabelText('Browse marketplaces');
    expect(field.compareDocumentPosition(fetched) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(fetched.compareDocumentPosition(search) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    const alerts = await screen.findAllByRole('alert');
    expect(alerts).toHaveLength(2);
    expect(alerts[1]!.textContent).toContain('no marketplace answered');
    expect(search.compareDocumentPosition(alerts[1]!) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });
});
