// Data several component tests show: install reports, an approval request with what the gate checked, a tool call.
import type { EventPayload, ToolCallCard } from '../../../preload/contract';
import { asks, outcome } from './memory-client';

/** A P1 install report: a finding with its line, the permissions asked, a diff that widens them. */
export const p1Report = outcome({
  approvalId: 'ap-1',
  skill: 'fetcher',
  level: 'P1' as const,
  status: 'pending' as const,
  contentHash: 'abc123def4567890ffff',
  findings: [
    {
      file: 'scripts/run.sh',
      line: 3,
      level: 'P1' as const,
      rule: 'net.curl',
      family: 'exec',
      message: 'downloads from the network',
      excerpt: 'curl https://example.com/x',
    },
  ],
  permissions: asks({ tools: ['bash'], network: true, read: ['**'] }),
  diff: { lines: ['+ tool bash', '+ network on'], widened: true },
});
/** A P0 install, refused with its reason and finding. */
export const p0Report = outcome({
  skill: 'evil',
  level: 'P0' as const,
  status: 'refused' as const,
  contentHash: 'ffff',
  reason: 'it deletes your home folder',
  findings: [
    {
      file: 'SKILL.md',
      line: 9,
      level: 'P0' as const,
      rule: 'rm.home',
      family: 'exec',
      message: 'removes the home folder',
      excerpt: 'rm -rf ~',
    },
  ],
});

/** An approval for write_file asked by a rule, with the acting skill and the real path the gate checked. */
export const gatedWrite: Omit<EventPayload<'chat.approval'>, 'sessionId'> = {
  approvalId: 'a1',
  tool: 'write_file',
  args: { path: 'out.txt' },
  actor: { kind: 'agent', activeSkills: [] },
  reason: 'your rule asks every time',
  summary: 'write_file',
  alwaysPreview: ['allow write_file in /home/me/alpha'],
  decision: {
    rule: 'ask write_file in /home/me/alpha',
    scope: 'workspace /home/me/alpha, skill deploy',
    skill: {
      name: 'deploy',
      tier: 'user',
      dir: '/home/me/.workbuddy/skills/deploy',
      hash: '0123456789abcdef0123',
    },
    paths: { read: [], write: ['/home/me/alpha/out.txt'] },
  },
};

/** A read_file call the gate allowed, done in 12 ms. */
export const readFileCall: ToolCallCard = {
  callId: 't1',
  tool: 'read_file',
  args: { path: 'a.txt' },
  status: 'ok',
  durationMs: 12,
  output: 'contents of a',
};

/** An approval main asks in conversation s1 for the agent's call: `reason` asks, nothing to save, unless given. */
export function approval(
  p: Pick<EventPayload<'chat.approval'>, 'approvalId' | 'tool' | 'args'> & Partial<EventPayload<'chat.approval'>>,
): EventPayload<'chat.approval'> {
  return {
    sessionId: 's1',
    actor: { kind: 'agent', activeSkills: [] },
    reason: 'asks',
    summary: p.tool,
    alwaysPreview: [],
    ...p,
  };
}
