// An update's permission diff is said in the window's language: in Chinese, each change with the tool, command or glob
// as written and no English sentence outside those names; in English, the CLI's lines. A hostile glob stays text.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DiffLines } from '../../../renderer/src/components/Findings';
import { UpdatesBadge } from '../../../renderer/src/components/SkillUpdates';
import { say } from '../../../preload/words';
import type { SkillUpdate } from '../../../preload/contract';
import type { Lang } from '../../../renderer/src/i18n';
import { memoryClient } from './memory-client';
import { renderWith, WS } from './render';

afterEach(cleanup);

const GLOB = 'out/<img src=x>/**';
// main/core/policy/diff.ts permissionDiff's words for each kind of line, and their English (`lines`).
const changes = [
  say('diff.added', { change: say('diff.tool', { tool: 'web_fetch' }) }),
  say('diff.added', { change: say('diff.command', { command: 'bash(git push:*)' }) }),
  say('diff.added', { change: say('diff.network') }),
  say('diff.added', { change: say('diff.read', { glob: 'docs/**' }) }),
  say('diff.added', { change: say('diff.write', { glob: GLOB }) }),
  say('diff.removed', { change: say('diff.tool', { tool: 'grep' }) }),
];
const lines = [
  '+ tool web_fetch',
  '+ command bash(git push:*)',
  '+ network: on',
  '+ read docs/**',
  `+ write ${GLOB}`,
  '- tool grep',
];
const update: SkillUpdate = {
  name: 'tidy',
  tier: 'project',
  status: 'available',
  from: 'a'.repeat(40),
  to: 'b'.repeat(40),
  level: 'P1',
  diff: { widened: true, lines, words: changes },
};

/** The update dialog's diff for `tidy`, as its list items' text. */
async function diffIn(lang: Lang): Promise<{ items: string[]; region: HTMLElement }> {
  const c = memoryClient();
  c.handlers['sources.updates'] = () => ({ items: [update] });
  renderWith(<UpdatesBadge />, c, { workspace: WS }, lang);
  await userEvent.click(await screen.findByRole('button', { name: lang === 'zh' ? '更新：1' : 'Updates: 1' }));
  const region = await screen.findByRole('region', { name: 'tidy' });
  expect(document.querySelector('img')).toBeNull();
  const items = [...region.querySelectorAll('ul.diff li')].map((li) => li.textContent!);
  return { items, region };
}

describe("an update's permission diff", () => {
  it('is said in Chinese, with no English sentence outside names', async () => {
    const { items, region } = await diffIn('zh');
    expect(items).toEqual([
      '+ 工具 web_fetch',
      '+ 命令 bash(git push:*)',
      '+ 网络：开启',
      '+ 读取 docs/**',
      `+ 写入 ${GLOB}`,
      '- 工具 grep',
    ]);
    const text = region.textContent!.replace(/web_fetch|bash\(git push:\*\)|docs\/\*\*|out\/<img src=x>\/\*\*/g, '');
    expect(text).not.toMatch(/\b[A-Za-z]{2,}\b(?:[\s,]+\b[A-Za-z]{2,}\b){2,}/);
  });

  it('is said in English as the CLI says it', async () => {
    expect((await diffIn('en')).items).toEqual(lines);
  });

  it('shows the English lines of an approval stored before the diff had words', () => {
    render(<DiffLines diff={{ widened: true, lines: ['+ tool bash'] }} />);
    expect(screen.getByRole('listitem').textContent).toBe('+ tool bash');
  });
});
