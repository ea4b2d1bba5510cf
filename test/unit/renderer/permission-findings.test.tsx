// A skill whose permission request cannot be read shows the audit's finding on its page in the window's language:
// in Chinese, the field and the glob as written and no English sentence (the words are what main's audit sends).
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { App } from '../../../renderer/src/App';
import { say } from '../../../preload/words';
import type { AuditFinding } from '../../../preload/contract';
import type { Lang } from '../../../renderer/src/i18n';
import { audited, memoryClient, skill } from './memory-client';
import { renderWith, WS } from './render';

afterEach(cleanup);

// main/core/skills/trust/audit.ts unreadablePermissions over main/core/policy/permissions.ts's words, hostile glob.
const words = say('audit.manifest.permissions', {
  field: 'permissions.paths.read[0]',
  error: say('permissions.glob', {
    glob: '/etc/<img src=x>',
    problem: say('permissions.path.absolute', { where: say('permissions.where.workspace') }),
  }),
});
const finding: AuditFinding = {
  file: 'SKILL.md',
  line: 6,
  level: 'P0',
  rule: 'manifest.permissions',
  family: 'manifest',
  excerpt: 'permissions.paths.read[0]',
  message:
    'permissions.paths.read[0]: "/etc/<img src=x>" is an absolute path (paths are relative to the workspace) (a permission request that cannot be read cannot be confined)',
  words,
};

async function findingLine(lang: Lang): Promise<string> {
  const c = memoryClient({
    skills: [skill('fetcher', { tier: 'project', enabled: false, audit: audited('P0', 'blocked') })],
  });
  c.findings.fetcher = [finding];
  renderWith(<App />, c, { workspace: WS, view: 'skill', selectedSkill: { name: 'fetcher', tier: 'project' } }, lang);
  await screen.findByText('SKILL.md:6');
  expect(document.querySelector('img')).toBeNull();
  return document.querySelector('.finding div')!.textContent!;
}

describe("a skill's permissions finding", () => {
  it('is said in Chinese on its page, with no English sentence', async () => {
    const line = await findingLine('zh');
    expect(line).toContain('permissions.paths.read[0]：「/etc/<img src=x>」是绝对路径（路径相对于工作区）');
    expect(line.replace(/manifest\.permissions|permissions\.paths\.read\[0\]|\/etc\/<img src=x>/g, '')).not.toMatch(
      /\b[A-Za-z]{2,}\b(?:[\s,]+\b[A-Za-z]{2,}\b){2,}/,
    );
  });

  it('is said in English as the CLI says it', async () => {
    expect(await findingLine('en')).toContain(finding.message);
  });
});
