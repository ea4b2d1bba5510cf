// An install the assistant proposed (the skill_marketplace tool's result) as the chat shows it: a card with the skill,
// its marketplace and a "Review install" button that opens the install dialog on that marketplace with the skill
// ticked; nothing installs from the card. What the card shows of a hostile entry stays text, and the same result from
// another tool shows no card.
import { describe, expect, it } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from '../../../renderer/src/App';
import type { OpenedSource } from '../../../preload/contract';
import { memoryClient } from './memory-client';
import { renderWith, WS } from './render';

const proposal = {
  installProposal: {
    marketplace: 'https://git.example/team/market.git',
    marketplaceName: 'team-market',
    plugin: 'pdf-tools',
    skill: 'pdf',
    description: 'Reads PDFs <img src=x onerror=alert(1)>',
    level: 'P2',
    command: 'knack skills add https://git.example/team/market.git --skill pdf',
  },
  note: 'Shown to the user.',
};

function withSources() {
  const c = memoryClient();
  const opened: OpenedSource = {
    openId: 'o1',
    display: proposal.installProposal.marketplace,
    kind: 'marketplace',
    skills: [
      { name: 'pdf', description: 'Reads PDFs', level: 'P2', findings: 0, contentHash: 'a'.repeat(64) },
      { name: 'docx', description: 'Word files', level: 'P2', findings: 0, contentHash: 'b'.repeat(64) },
    ],
    plugins: [],
  } as unknown as OpenedSource;
  const calls: unknown[][] = [];
  c.handlers['sources.open'] = ({ source, want }) => {
    calls.push([source, want]);
    return opened;
  };
  return { c, calls };
}

const toolEvent = (tool: string, args: Record<string, unknown>) => ({
  sessionId: 's1',
  turnId: 'm1',
  card: { callId: `t-${tool}`, tool, args, status: 'ok' as const, output: JSON.stringify(proposal) },
});

describe('install proposals', () => {
  it('a proposal shows a card; Review install opens the dialog on that marketplace with the skill ticked', async () => {
    const { c, calls } = withSources();
    renderWith(<App />, c, { workspace: WS, sessionId: 's1' });
    act(() =>
      c.event(
        'chat.toolCall',
        toolEvent('DeferExecuteTool', { name: 'skill_marketplace', arguments: { propose: {} } }),
      ),
    );
    const card = await screen.findByRole('region', { name: 'The assistant proposes a skill' }, { timeout: 10_000 });
    expect(within(card).getByText(/Reads PDFs <img src=x onerror=alert\(1\)>/)).toBeTruthy();
    expect(card.querySelector('img')).toBeNull();
    expect(within(card).getByText(/team-market/)).toBeTruthy();
    expect(calls).toEqual([]);
    await userEvent.click(within(card).getByRole('button', { name: 'Review install' }));
    await waitFor(() => expect(calls).toEqual([[proposal.installProposal.marketplace, ['pdf-tools']]]), {
      timeout: 10_000,
    });
    const pdf = await screen.findByRole('checkbox', { name: /pdf/ }, { timeout: 10_000 });
    expect((pdf as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole('checkbox', { name: /docx/ }) as HTMLInputElement).checked).toBe(false);
    expect(c.calls.some((x) => x.method === 'sources.install')).toBe(false);
  });

  it('the same result from another tool shows no card', async () => {
    const { c } = withSources();
    renderWith(<App />, c, { workspace: WS, sessionId: 's1' });
    act(() => c.event('chat.toolCall', toolEvent('read_file', { path: 'proposal.json' })));
    await screen.findByRole('region', { name: 'Tool call read_file' }, { timeout: 10_000 });
    expect(screen.queryByRole('region', { name: 'The assistant proposes a skill' })).toBeNull();
  });

  it('the card speaks Chinese', async () => {
    const { c } = withSources();
    renderWith(<App />, c, { workspace: WS, sessionId: 's1' }, 'zh');
    act(() => c.event('chat.toolCall', toolEvent('skill_marketplace', { propose: {} })));
    const card = await screen.findByRole('region', { name: '助手推荐了一个技能' }, { timeout: 10_000 });
    expect(within(card).getByRole('button', { name: '审阅安装' })).toBeTruthy();
  });
});
