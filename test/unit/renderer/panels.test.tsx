// Loaded-skill panel, context meter, skill detail and sessions: content, empty and error states.
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ContextMeter } from '../../../renderer/src/components/ContextMeter';
import { CONTEXT_SECTIONS } from '../../../preload/contract';
import { say } from '../../../preload/words';
import { LoadedSkills } from '../../../renderer/src/components/LoadedSkills';
import { Sessions } from '../../../renderer/src/components/Sessions';
import { SkillDetail } from '../../../renderer/src/components/SkillDetail';
import { useView } from '../../../renderer/src/state/store';
import { asks, audited, memoryClient, session, skill } from './memory-client';
import { renderWith, WS } from './render';

const loaded = [
  {
    name: 'git-commit',
    tier: 'builtin' as const,
    reason: 'trigger: 提交代码',
    version: 'a1b2c3d4e5f6a7b8',
    tokens: 812,
    resources: [{ path: 'references/style.md', tokens: 40 }],
  },
  {
    name: 'conventional',
    tier: 'user' as const,
    reason: 'dependency of git-commit',
    version: 'ffffeeee0000',
    tokens: 100,
    resources: [],
  },
];

/** A parser's own message holding markup and markdown. */
const YAML = 'bad indentation <img src=x onerror=alert(1)> **here**';

describe('loaded skills panel', () => {
  it('lists each loaded skill with why, tier, version, tokens and resources, and unloads one', async () => {
    const c = memoryClient({ loaded });
    renderWith(<LoadedSkills />, c, { workspace: WS, sessionId: 's1' });
    const region = screen.getByRole('region', { name: 'Loaded skills' });
    expect(await within(region).findByText('trigger: 提交代码')).toBeTruthy();
    expect(within(region).getByText('dependency of git-commit')).toBeTruthy();
    expect(within(region).getByText('a1b2c3d4e5f6')).toBeTruthy();
    expect(within(region).getByText('812')).toBeTruthy();
    expect(within(region).getByText('1 resource read')).toBeTruthy();
    await userEvent.click(within(region).getByRole('button', { name: 'Unload conventional' }));
    await waitFor(() => expect(within(region).queryByText('dependency of git-commit')).toBeNull());
    expect(c.calls.at(-1)).toEqual({ method: 'chat.unloadSkill', args: [{ sessionId: 's1', name: 'conventional' }] });
  });

  it('is empty before a conversation and shows errors', async () => {
    renderWith(<LoadedSkills />, memoryClient({ loaded }), { workspace: WS });
    expect(screen.getByText('No skill loaded in this conversation.')).toBeTruthy();
  });

  it('shows the error when the loaded skills cannot be read', async () => {
    const c = memoryClient();
    c.failing.add('context.get');
    renderWith(<LoadedSkills />, c, { workspace: WS, sessionId: 's1' });
    expect((await screen.findByRole('alert')).textContent).toContain('context.get failed on purpose');
  });
});

describe('context meter', () => {
  it('shows tokens by section against the window and what the catalog left out', async () => {
    const c = memoryClient();
    c.context.leftOut = ['rare-skill'];
    renderWith(<ContextMeter />, c, { workspace: WS, sessionId: 's1' });
    const meter = await screen.findByRole('meter');
    expect(meter.getAttribute('aria-valuenow')).toBe('4000');
    expect(meter.getAttribute('aria-valuemax')).toBe('200000');
    expect(screen.getByText('Skill catalog: 800')).toBeTruthy();
    expect(screen.getByText('1 skill left out of the catalog')).toBeTruthy();
  });

  it('labels every section the core sends in English and Chinese, never with the raw section name', async () => {
    // The real list the service sends (preload/contract.ts), tool results ("observations") included.
    // The folder's instructions are named by their file (the item's words).
    const file = { label: 'AGENTS.md', tokens: 200, words: say('instructionsRead', { file: 'AGENTS.md' }) };
    const sections = CONTEXT_SECTIONS.map((section, i) => ({
      section,
      tokens: 100 * (i + 1),
      items: section === 'instructions' ? [file] : [],
    }));
    const labels = {
      en: [
        'System',
        'Project instructions (AGENTS.md)',
        'Skill catalog',
        'Loaded skills',
        'Tools',
        'History',
        'Tool results',
      ],
      zh: ['系统', '项目说明（AGENTS.md）', '技能目录', '已加载技能', '工具', '历史', '工具结果'],
    };
    for (const lang of ['en', 'zh'] as const) {
      const c = memoryClient();
      c.context.sections = sections;
      const { unmount } = renderWith(<ContextMeter />, c, { workspace: WS, sessionId: 's1' }, lang);
      await screen.findByRole('meter');
      const legend = [...document.querySelectorAll('.legend li')].map((li) => li.textContent);
      expect(legend).toEqual(sections.map((s, i) => `${labels[lang][i]}: ${s.tokens.toLocaleString()}`));
      for (const name of CONTEXT_SECTIONS) expect(legend.some((l) => l?.startsWith(`${name}:`))).toBe(false);
      unmount();
    }
  });
});

describe('skill detail', () => {
  it('shows manifest facts, permissions, findings, resources and the rendered SKILL.md', async () => {
    const c = memoryClient({
      skills: [skill('deploy', { tier: 'project', audit: audited('P1', 'trusted'), triggers: ['上线'] })],
    });
    c.handlers['skills.show'] = () => ({
      ...c.skills[0]!,
      readWhen: c.skills[0]!.triggers,
      dependsOn: [],
      allowedTools: [],
      permissions: asks({ tools: ['bash'], read: ['**'], write: ['dist/**'] }),
      report: {
        skill: 'deploy',
        dir: c.skills[0]!.dir,
        level: 'P1',
        contentHash: 'hash-deploy',
        files: 2,
        bytes: 200,
        manifestDiagnostics: [],
        findings: [
          {
            file: 'scripts/go.sh',
            line: 4,
            level: 'P1',
            rule: 'x',
            family: 'exec',
            message: 'runs a remote script',
            excerpt: 'curl | sh',
          },
        ],
      },
      diagnostics: [
        {
          severity: 'warning',
          code: 'w',
          file: 'SKILL.md',
          line: 2,
          field: 'name',
          message: 'differs from the folder',
        },
        {
          severity: 'error',
          code: 'diag.yaml',
          file: 'SKILL.md',
          line: 3,
          message: `Invalid YAML in frontmatter: ${YAML}`,
          words: { code: 'diag.yaml', params: { error: YAML } },
        },
      ],
      resources: ['scripts/go.sh'],
      body: '# Deploying\n\nRun the checks.',
    });
    renderWith(<SkillDetail />, c, {
      workspace: WS,
      selectedSkill: { name: 'deploy', tier: 'project' },
      view: 'skill',
    });
    expect(await screen.findByRole('heading', { name: 'Deploying' })).toBeTruthy();
    expect(screen.getByText('scripts/go.sh:4')).toBeTruthy();
    expect(screen.getByText('curl | sh')).toBeTruthy();
    expect(screen.getByText('dist/**')).toBeTruthy();
    expect(screen.getByText('上线')).toBeTruthy();
    expect(screen.getByText(/differs from the folder/)).toBeTruthy();
    // The YAML parser's own message: as it said it, in code, never read as markup.
    const parser = screen.getByText(YAML);
    expect(parser.tagName).toBe('CODE');
    expect(parser.closest('li')!.textContent).toContain(`Invalid YAML in frontmatter: ${YAML}`);
    expect(document.querySelector('.page img, li img, li strong')).toBeNull();
  });

  it('shows the error for a skill that cannot be shown', async () => {
    const c = memoryClient();
    renderWith(<SkillDetail />, c, { workspace: WS, selectedSkill: { name: 'gone', tier: 'user' }, view: 'skill' });
    expect((await screen.findByRole('alert')).textContent).toBe('no skill named "gone" in this workspace');
  });
});

describe('sessions', () => {
  it('lists past conversations and reopens one into the chat', async () => {
    const c = memoryClient();
    renderWith(<Sessions />, c, { workspace: WS, view: 'sessions' });
    await userEvent.click(await screen.findByRole('button', { name: 'Open First chat' }));
    await waitFor(() => expect(useView.getState().view).toBe('chat'));
    expect(useView.getState().sessionId).toBe('s1');
    expect(useView.getState().messages[0]?.parts[0]).toEqual({ kind: 'text', text: 'hello again' });
  });

  it('says which conversations are still answering', async () => {
    const c = memoryClient();
    c.sessions = [session('s1', 'First chat'), session('s2', 'Long job', { messages: 5, running: true })];
    renderWith(<Sessions />, c, { workspace: WS, view: 'sessions' });
    const items = await screen.findAllByRole('listitem');
    expect(items[0]!.textContent).not.toContain('still answering');
    expect(items[1]!.textContent).toContain('still answering');
  });

  it('shows the empty state', async () => {
    const c = memoryClient();
    c.sessions = [];
    renderWith(<Sessions />, c, { workspace: WS, view: 'sessions' });
    expect(await screen.findByText('No conversations yet.')).toBeTruthy();
  });
});
