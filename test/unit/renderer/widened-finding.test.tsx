// An update that asks for more than the installed version: its finding's quoted line is the permission diff, said in
// the window's language (the CLI keeps the English excerpt).
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from '@testing-library/react';
import { AuditFindings } from '../../../renderer/src/components/Findings';
import type { AuditFinding } from '../../../preload/contract';
import type { Lang } from '../../../renderer/src/i18n';
import { english, say } from '../../../preload/words';
import { memoryClient } from './memory-client';
import { renderWith } from './render';

afterEach(cleanup);

// main/core/policy/diff.ts permissionDiff's words for an update adding a tool, the network and a hostile write glob;
// the audit's excerpt is their English joined by `; ` (test/unit/policy/diff.test.ts checks the audit's own).
const words = [
  say('diff.added', { change: say('diff.tool', { tool: 'bash' }) }),
  say('diff.added', { change: say('diff.network') }),
  say('diff.added', { change: say('diff.write', { glob: 'out/<img src=x>/**' }) }),
];
const diff = { words, lines: words.map(english) };
const finding: AuditFinding = {
  file: 'SKILL.md',
  line: 1,
  rule: 'permissions.widened',
  family: 'permissions',
  level: 'P1',
  excerpt: diff.lines.join('; '),
  excerptWords: diff.words,
  message: 'the update asks for more than the installed version',
};

function excerptIn(lang: Lang, f: AuditFinding = finding): string {
  const { container } = renderWith(<AuditFindings findings={[f]} />, memoryClient(), {}, lang);
  expect(container.querySelector('img')).toBeNull();
  const pre = container.querySelector('.finding .excerpt');
  expect(pre).toBeTruthy();
  return pre!.textContent!;
}

describe('a widening finding', () => {
  it('quotes the diff in Chinese, with no English sentence and the names as written', () => {
    expect(finding.excerpt).toBe('+ tool bash; + network: on; + write out/<img src=x>/**');
    const zh = excerptIn('zh');
    expect(zh.split('\n')).toEqual(['+ 工具 bash', '+ 网络：开启', '+ 写入 out/<img src=x>/**']);
    expect(zh).not.toMatch(/\b[A-Za-z]{2,}\b(?:[\s,]+\b[A-Za-z]{2,}\b){2,}/);
    expect(zh).not.toMatch(/tool|network|write/);
  });

  it('quotes the diff in English line by line, as the CLI says it', () => {
    expect(excerptIn('en').split('\n')).toEqual(finding.excerpt.split('; '));
  });

  it('a finding stored before its excerpt had words shows the excerpt as it is', () => {
    const { excerptWords: _, ...old } = finding;
    expect(excerptIn('zh', old)).toBe(finding.excerpt);
  });
});
