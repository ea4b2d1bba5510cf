// The context meter's line for the folder's own instructions (AGENTS.md or CLAUDE.md): its file and tokens in English
// and Chinese, that it was cut, or why it or a file it imports could not be read; no line when the folder has neither file.
import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { ContextMeter } from '../../../renderer/src/components/ContextMeter';
import type { ContextView } from '../../../preload/contract';
import { say } from '../../../preload/words';
import { memoryClient } from './memory-client';
import { renderWith, WS } from './render';

type Item = ContextView['sections'][number]['items'][number];

function withInstructions(tokens: number, item?: Item) {
  const c = memoryClient();
  c.context.sections = [
    c.context.sections[0]!,
    { section: 'instructions', tokens, items: item ? [item] : [] },
    ...c.context.sections.slice(1),
  ];
  return c;
}

const legend = () => [...document.querySelectorAll('.legend li')].map((li) => li.textContent);

describe('ContextMeter: project instructions', () => {
  it('names the file and its tokens, in English and Chinese', async () => {
    for (const [lang, line] of [
      ['en', 'Project instructions (AGENTS.md): 1,234'],
      ['zh', '项目说明（AGENTS.md）: 1,234'],
    ] as const) {
      const c = withInstructions(1234, {
        label: 'AGENTS.md',
        tokens: 1234,
        words: say('instructionsRead', { file: 'AGENTS.md' }),
      });
      const { unmount } = renderWith(<ContextMeter />, c, { workspace: WS, sessionId: 's1' }, lang);
      await screen.findByRole('meter');
      expect(legend()[1]).toBe(line);
      expect(legend().some((l) => l?.startsWith('instructions'))).toBe(false);
      unmount();
    }
  });

  it('says the file was cut', async () => {
    const c = withInstructions(9000, {
      label: 'CLAUDE.md',
      tokens: 9000,
      words: say('instructionsCut', { file: 'CLAUDE.md', cap: 32768, size: 50000 }),
    });
    renderWith(<ContextMeter />, c, { workspace: WS, sessionId: 's1' });
    await screen.findByRole('meter');
    expect(legend()[1]).toBe('Project instructions (CLAUDE.md), cut to the first 32768 of 50000 bytes: 9,000');
  });

  it('says why the file could not be read, as a warning without a token count', async () => {
    const c = withInstructions(0, {
      label: 'AGENTS.md',
      tokens: 0,
      words: say('instructionsUnreadable', { file: 'AGENTS.md', why: say('instructionsNotUtf8') }),
    });
    renderWith(<ContextMeter />, c, { workspace: WS, sessionId: 's1' }, 'zh');
    await screen.findByRole('meter');
    const li = document.querySelectorAll('.legend li')[1]!;
    expect(li.textContent).toBe('项目说明（AGENTS.md）无法读取：不是 UTF-8 文本');
    expect(li.className).toContain('warn-text');
  });

  it('says which import could not be read and why, as a warning, in English and Chinese', async () => {
    for (const [lang, line] of [
      [
        'en',
        'Project instructions (CLAUDE.md): its import ../.ssh/id_rsa could not be read: it is outside the open folder',
      ],
      ['zh', '项目说明（CLAUDE.md）：它导入的 ../.ssh/id_rsa 无法读取：它在打开的文件夹之外'],
    ] as const) {
      const c = withInstructions(300, {
        label: 'CLAUDE.md',
        tokens: 300,
        words: say('instructionsImportUnreadable', {
          file: 'CLAUDE.md',
          import: '../.ssh/id_rsa',
          why: say('instructionsImportOutside'),
        }),
      });
      const { unmount } = renderWith(<ContextMeter />, c, { workspace: WS, sessionId: 's1' }, lang);
      await screen.findByRole('meter');
      const li = document.querySelectorAll('.legend li')[1]!;
      expect(li.textContent).toBe(line);
      expect(li.className).toContain('warn-text');
      unmount();
    }
  });

  it('shows no line when the folder has no instructions file', async () => {
    const c = withInstructions(0);
    renderWith(<ContextMeter />, c, { workspace: WS, sessionId: 's1' });
    await screen.findByRole('meter');
    expect(legend()).toEqual(['System: 1,200', 'Skill catalog: 800', 'Loaded skills: 0', 'Tools: 2,000', 'History: 0']);
  });
});
