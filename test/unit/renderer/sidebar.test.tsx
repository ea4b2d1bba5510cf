// The skills sidebar: tiers, filter (English and Chinese), switches, badges, trust, empty and error states, virtualization.
import { describe, expect, it } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Sidebar } from '../../../renderer/src/components/Sidebar';
import { TrustAllDialog } from '../../../renderer/src/components/TrustAllDialog';
import { useView } from '../../../renderer/src/state/store';
import { noticeText } from '../../../renderer/src/state/notices';
import type { Diagnostic } from '../../../preload/contract';
import type { BrokenSkill } from '../../../renderer/src/state/skills';
import { audited, memoryClient, skill } from './memory-client';
import { renderWith, WS } from './render';

const three = () => [
  skill('git-commit', { triggers: ['提交代码', 'commit'], description: 'Clean commits' }),
  skill('notes', { tier: 'user', source: 'agents' }),
  skill('deploy', {
    tier: 'project',
    audit: audited('P1', 'trusted'),
    diagnostics: [problem('a'), problem('b'), { ...problem('c'), severity: 'info' }],
  }),
  skill('git-commit', { tier: 'project', description: 'Project override' }),
];

/** A warning in a SKILL.md. */
const problem = (message: string): Diagnostic => ({ severity: 'warning', code: 'w', file: 'SKILL.md', message });

/** A project skill whose SKILL.md could not be read, with its first error. */
const badSkill = (d: Partial<Diagnostic> & { message: string }, dir = '/w/.workbuddy/skills/bad'): BrokenSkill => ({
  tier: 'project',
  dir,
  file: `${dir}/SKILL.md`,
  diagnostics: [{ severity: 'error', code: 'e', file: `${dir}/SKILL.md`, ...d }],
});

describe('skills sidebar', () => {
  it('groups skills by tier with the project tier first and marks a shadowed skill', async () => {
    const c = memoryClient({ skills: three() });
    c.skills[0]!.shadowedBy = { tier: 'project', file: '/w/.workbuddy/skills/git-commit/SKILL.md' };
    renderWith(<Sidebar />, c, { workspace: WS });
    const headings = await screen.findAllByRole('heading', { level: 3 });
    expect(headings.map((h) => h.textContent)).toEqual(['Project (2)', 'User (1)', 'Built-in (1)']);
    expect(screen.getByText('shadowed by Project')).toBeTruthy();
    expect(screen.getByText('.agents')).toBeTruthy();
    expect(screen.getByText('P1 · approved by you')).toBeTruthy();
    expect(screen.getByText('2 problems')).toBeTruthy();
  });

  it('says a P1 the user trusted is approved, and only an untrusted one asks (both languages)', async () => {
    const skills = () => [
      skill('deploy', { tier: 'project', audit: audited('P1', 'trusted') }),
      skill('risky', { tier: 'project', enabled: false, audit: audited('P1', 'needs-trust') }),
    ];
    const badge = (name: string) => within(document.querySelector(`[data-skill="${name}"]`) as HTMLElement);
    renderWith(<Sidebar />, memoryClient({ skills: skills() }), { workspace: WS });
    await screen.findByRole('switch', { name: 'Enable deploy' });
    expect(badge('deploy').getByText('P1 · approved by you')).toBeTruthy();
    expect(badge('deploy').queryByRole('button', { name: 'Trust deploy' })).toBeNull();
    expect(badge('risky').getByText('P1 · needs your approval')).toBeTruthy();
    expect(badge('risky').getByRole('button', { name: 'Trust risky' })).toBeTruthy();
  });

  it('says a trusted P1 is approved in Chinese', async () => {
    const c = memoryClient({ skills: [skill('deploy', { tier: 'project', audit: audited('P1', 'trusted') })] });
    const { container } = renderWith(<Sidebar />, c, { workspace: WS }, 'zh');
    await waitFor(() => expect(container.querySelector('[data-skill="deploy"]')).toBeTruthy());
    expect(screen.getByText('P1 · 已由你批准')).toBeTruthy();
    expect(screen.queryByText('P1 · 需要你的批准')).toBeNull();
  });

  it('filters by trigger words in Chinese', async () => {
    const c = memoryClient({ skills: three() });
    renderWith(<Sidebar />, c, { workspace: WS });
    await screen.findByRole('switch', { name: 'Enable deploy' });
    await userEvent.type(screen.getByRole('searchbox', { name: 'Filter skills' }), '提交');
    await waitFor(() => expect(screen.queryByRole('switch', { name: 'Enable deploy' })).toBeNull());
    expect(screen.getAllByRole('switch', { name: 'Enable git-commit' })).toHaveLength(1);
    expect(screen.getByText('1 of 4')).toBeTruthy();
  });

  it('says when nothing matches the filter', async () => {
    const c = memoryClient({ skills: three() });
    renderWith(<Sidebar />, c, { workspace: WS, filter: 'zzz-nothing' });
    expect(await screen.findByText('No skill matches the filter.')).toBeTruthy();
  });

  it('toggles a skill off through the client and keeps the switch state from the engine', async () => {
    const c = memoryClient({ skills: three() });
    renderWith(<Sidebar />, c, { workspace: WS });
    const sw = await screen.findByRole('switch', { name: 'Enable deploy' });
    expect(sw.getAttribute('aria-checked')).toBe('true');
    await userEvent.click(sw);
    await waitFor(() =>
      expect(screen.getByRole('switch', { name: 'Enable deploy' }).getAttribute('aria-checked')).toBe('false'),
    );
    expect(c.calls.find((x) => x.method === 'skills.setEnabled')?.args).toEqual([{ name: 'deploy', enabled: false }]);
  });

  it('rolls the switch back and shows the error when the engine refuses', async () => {
    const c = memoryClient({ skills: three() });
    c.failing.add('skills.setEnabled');
    renderWith(<Sidebar />, c, { workspace: WS });
    await userEvent.click(await screen.findByRole('switch', { name: 'Enable deploy' }));
    await waitFor(() =>
      expect(noticeText(useView.getState().notices[0] ?? { text: '' })).toContain(
        'skills.setEnabled failed on purpose',
      ),
    );
    expect(screen.getByRole('switch', { name: 'Enable deploy' }).getAttribute('aria-checked')).toBe('true');
  });

  it('shows "checking…" while an audit runs, and Trust on a pending skill opens its review (trusts nothing)', async () => {
    const c = memoryClient({
      skills: [
        skill('slow', { audit: audited(undefined, 'checking'), tier: 'user' }),
        skill('risky', { tier: 'project', enabled: false, audit: audited('P1', 'needs-trust') }),
      ],
    });
    renderWith(<Sidebar />, c, { workspace: WS });
    expect(await screen.findByText('checking…')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Trust risky' }));
    expect(useView.getState().trustReview).toEqual({ name: 'risky', tier: 'project' });
    expect(c.calls.some((x) => x.method === 'skills.trust')).toBe(false);
  });

  it('trust all shows the grouped summary and trusts only after confirmation', async () => {
    const c = memoryClient({
      skills: [
        skill('a', { audit: audited('P1', 'needs-trust'), tier: 'project' }),
        skill('b', { audit: audited('P1', 'needs-trust'), tier: 'project' }),
      ],
    });
    renderWith(<Sidebar />, c, { workspace: WS });
    await userEvent.click(await screen.findByRole('button', { name: 'Trust all…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Trust all pending skills' });
    // Which skills, said once in the sentence that opens it (not the command line's summary, nor a loose list).
    expect(within(dialog).getByText('2 skills wait for your trust: a, b. What they ask for:')).toBeTruthy();
    expect(within(dialog).queryByText('2 skills ask for bash')).toBeNull();
    expect(within(dialog).getAllByText('a, b')).toHaveLength(1);
    const group = within(dialog)
      .getByText(/downloads from the network/)
      .closest('li')!;
    expect(group.textContent, 'the rule id is not shown as text').not.toContain('net.curl');
    expect(group.textContent).toContain('2 skills');
    expect(group.textContent).toContain('3 findings');
    expect(group.textContent).toContain('downloads from the network');
    expect(within(dialog).getByText('The most you grant by saying yes')).toBeTruthy();
    expect(c.calls.filter((x) => x.method === 'skills.trustAll')).toEqual([
      { method: 'skills.trustAll', args: [{ dryRun: true }] },
    ]);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Trust 2 skills' }));
    expect(await within(dialog).findByText('Trusted 2 skills.')).toBeTruthy();
  });

  it('trust all with one skill says what it asks for; with none waiting it says so, and offers nothing to trust', async () => {
    const c = memoryClient({ skills: [skill('solo', { audit: audited('P1', 'needs-trust'), tier: 'project' })] });
    const { unmount } = renderWith(<Sidebar />, c, { workspace: WS });
    await userEvent.click(await screen.findByRole('button', { name: 'Trust all…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Trust all pending skills' });
    expect(within(dialog).getByText('1 skill waits for your trust: solo. What it asks for:')).toBeTruthy();
    unmount();
    // In Chinese (one plural form) the sentence fits one skill as well as many.
    const zh = renderWith(<TrustAllDialog onClose={() => {}} />, c, { workspace: WS }, 'zh');
    expect(await screen.findByText('有 1 个技能等待你的信任：solo。请求如下：')).toBeTruthy();
    // Its punctuation is Chinese too: full-width brackets and colon around the findings.
    expect(screen.getByText(/downloads from the network/).closest('li')!.textContent).toContain('（3 处发现）：');
    zh.unmount();
    // Trusted meanwhile (from another window): nothing waits.
    c.skills[0]!.audit = { ...c.skills[0]!.audit, status: 'trusted' };
    renderWith(<TrustAllDialog onClose={() => {}} />, c, { workspace: WS });
    const none = await screen.findByText('No skill waits for your trust.');
    expect(none.closest('[role="dialog"]')!.textContent).not.toContain('The most you grant');
    expect(screen.queryByRole('button', { name: /^Trust / })).toBeNull();
  });

  it('shows the empty state', async () => {
    const empty = memoryClient();
    renderWith(<Sidebar />, empty, { workspace: WS });
    expect(await screen.findByText('No skills found in this workspace.')).toBeTruthy();
  });

  it('shows the error when the skills cannot be listed', async () => {
    const broken = memoryClient();
    broken.failing.add('skills.list');
    renderWith(<Sidebar />, broken, { workspace: WS });
    expect((await screen.findByRole('alert')).textContent).toContain('skills.list failed on purpose');
  });

  it('gives a row without a badge no empty badge line, and a shorter slot than a row with one', async () => {
    const c = memoryClient({
      skills: [skill('git-commit'), skill('deploy', { tier: 'project', audit: audited('P2') })],
    });
    renderWith(<Sidebar />, c, { workspace: WS });
    await screen.findByRole('switch', { name: 'Enable git-commit' });
    const row = (name: string) => document.querySelector(`[data-skill="${name}"]`) as HTMLElement;
    expect(row('git-commit').querySelector('.badges')).toBeNull();
    expect(row('deploy').querySelector('.badges')?.textContent).toBe('P2 · clean');
    const slot = (name: string) => parseFloat(row(name).closest<HTMLElement>('[role="listitem"]')!.style.height);
    expect(slot('git-commit')).toBeLessThan(slot('deploy'));
    // Filtered from one row to another (the same number of rows), the slot follows the row shown.
    act(() => useView.getState().set({ filter: 'deploy' }));
    await waitFor(() => expect(row('git-commit')).toBeNull());
    act(() => useView.getState().set({ filter: 'git-commit' }));
    await waitFor(() => expect(row('deploy')).toBeNull());
    expect(slot('git-commit')).toBeLessThan(62);
  });

  it('renders only a window of 2,000 skills', async () => {
    const many = Array.from({ length: 2000 }, (_, i) =>
      skill(`skill-${String(i).padStart(4, '0')}`, { tier: (['builtin', 'user', 'project'] as const)[i % 3] }),
    );
    const c = memoryClient({ skills: many });
    renderWith(<Sidebar />, c, { workspace: WS });
    await screen.findByText('2000 of 2000');
    const switches = screen.getAllByRole('switch');
    expect(switches.length).toBeGreaterThan(5);
    expect(switches.length).toBeLessThan(60);
  });

  it('refreshes when the catalog changes on disk', async () => {
    const c = memoryClient({ skills: three() });
    renderWith(<Sidebar />, c, { workspace: WS });
    await screen.findByRole('switch', { name: 'Enable deploy' });
    c.skills.push(skill('fresh', { tier: 'user' }));
    c.catalogChanged(WS.path);
    expect(await screen.findByRole('switch', { name: 'Enable fresh' })).toBeTruthy();
  });

  it('patches one row when a verdict arrives, without reading the list again', async () => {
    const c = memoryClient({ skills: three() });
    renderWith(<Sidebar />, c, { workspace: WS });
    const sw = await screen.findByRole('switch', { name: 'Enable deploy' });
    const reads = c.calls.filter((x) => x.method === 'skills.list').length;
    const row = {
      ...c.skills.find((s) => s.name === 'deploy')!,
      enabled: !sw.getAttribute('aria-checked')?.startsWith('t'),
      audit: audited('P1', 'needs-trust'),
    };
    act(() => c.skillChanged(row));
    expect(await screen.findByRole('button', { name: 'Trust deploy' })).toBeTruthy();
    expect(c.calls.filter((x) => x.method === 'skills.list').length).toBe(reads);
    // a change naming only changed skills waits for their verdicts; another folder's change is not this list's
    act(() => c.event('catalog.changed', { workspace: WS.path, added: [], removed: [], changed: ['deploy'] }));
    act(() => c.event('catalog.changed', { workspace: '/elsewhere', added: ['x'], removed: [], changed: [] }));
    expect(c.calls.filter((x) => x.method === 'skills.list').length).toBe(reads);
    // a row the list does not have yet: read the list
    c.skills.push(skill('newcomer', { tier: 'user' }));
    act(() => c.skillChanged(skill('newcomer', { tier: 'user' })));
    expect(await screen.findByRole('switch', { name: 'Enable newcomer' })).toBeTruthy();
  });

  it('names switches with the skill name in Chinese too', async () => {
    const c = memoryClient({ skills: three() });
    renderWith(<Sidebar />, c, { workspace: WS }, 'zh');
    expect(await screen.findByRole('switch', { name: '启用 deploy' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: '项目 (2)' })).toBeTruthy();
  });

  it('lists the skills that could not be read with file, line and reason', async () => {
    const c = memoryClient({ skills: three() });
    c.broken = [badSkill({ line: 3, field: 'description', message: 'missing' })];
    renderWith(<Sidebar />, c, { workspace: WS });
    const group = await screen.findByRole('list', { name: '1 skill could not be read' });
    expect(within(group).getByText('bad/SKILL.md:3')).toBeTruthy();
    expect(within(group).getByText('description: missing')).toBeTruthy();
    expect(within(group).getByText('/w/.workbuddy/skills/bad/SKILL.md')).toBeTruthy();
  });

  it('a skill that breaks while edited stays in its place, marked broken, and comes back when fixed', async () => {
    const c = memoryClient({ skills: three() });
    renderWith(<Sidebar />, c, { workspace: WS });
    await screen.findByRole('switch', { name: 'Enable deploy' });
    const deploy = c.skills.find((s) => s.name === 'deploy')!;
    c.skills = c.skills.filter((s) => s !== deploy);
    c.broken = [badSkill({ line: 2, message: 'bad YAML' }, deploy.dir)];
    act(() => c.catalogChanged(WS.path));
    await screen.findByText('could not be read');
    // Not also "approved by you": that level was the text's before it broke.
    const row = document.querySelector('[data-skill="deploy"]')!;
    expect(row.textContent).not.toContain('P1');
    const sw = screen.getByRole('switch', { name: 'Enable deploy' }) as HTMLButtonElement;
    expect(sw.disabled).toBe(true);
    expect(sw.getAttribute('aria-checked')).toBe('false');
    c.skills.push(deploy);
    c.broken = [];
    act(() => c.catalogChanged(WS.path));
    await waitFor(() => expect(screen.queryByText('could not be read')).toBeNull());
    expect((screen.getByRole('switch', { name: 'Enable deploy' }) as HTMLButtonElement).disabled).toBe(false);
    expect(document.querySelector('[data-skill="deploy"]')!.textContent).toContain('P1 · approved by you');
  });
});

describe('why a switch is off, in Chinese', () => {
  it('says the P0 finding and a user-disabled skill in Chinese, no English left', async () => {
    const message = { code: 'audit.exec.pipe-to-shell' };
    const c = memoryClient({
      skills: [
        skill('inject', {
          tier: 'project',
          audit: audited('P0', 'blocked'),
          enabled: false,
          disabledReason: 'audit P0 (refused): run.sh:3 exec.pipe-to-shell: downloads code and runs it straight away',
          disabledWords: {
            code: 'skillOff.p0',
            params: {
              summary: {
                code: 'trustFinding',
                params: { file: 'run.sh', line: 3, rule: 'exec.pipe-to-shell', message },
              },
            },
          },
        }),
        skill('quiet', {
          tier: 'user',
          enabled: false,
          disabledReason: 'disabled by the user in this workspace',
          disabledWords: { code: 'skillOff.user' },
        }),
      ],
    });
    const { container } = renderWith(<Sidebar />, c, { workspace: WS }, 'zh');
    await waitFor(() => expect(container.querySelector('[data-skill="inject"] [role="switch"]')).toBeTruthy());
    const blocked = container.querySelector('[data-skill="inject"] [role="switch"]')!.getAttribute('title') ?? '';
    expect(blocked).toContain('审计 P0（已拒绝）：run.sh:3 exec.pipe-to-shell：下载代码并立即执行');
    expect(blocked).not.toMatch(/refused|downloads/);
    const off = container.querySelector('[data-skill="quiet"] [role="switch"]')!.getAttribute('title');
    expect(off).toBe('你在这个工作区关闭了它');
  });

  it('says why a SKILL.md could not be read in Chinese, the field and line kept', async () => {
    const c = memoryClient({ skills: three() });
    c.broken = [
      badSkill({
        line: 1,
        field: 'name',
        message: 'Missing required field in frontmatter: name',
        words: { code: 'diag.missingField', params: { field: 'name' } },
      }),
    ];
    renderWith(<Sidebar />, c, { workspace: WS }, 'zh');
    await waitFor(() => expect(screen.getByText('bad/SKILL.md:1')).toBeTruthy());
    expect(screen.getByText('name: YAML 头部缺少必填字段：name')).toBeTruthy();
    expect(screen.queryByText(/Missing required/)).toBeNull();
  });

  it("says a SKILL.md that is not YAML in Chinese, the parser's own message as it said it, in code", async () => {
    const c = memoryClient({ skills: three() });
    // As main/core/skills/format/frontmatter.ts words it for `description: Use when: deploying`.
    const error = 'Nested mappings are not allowed in compact mappings';
    c.broken = [
      badSkill({
        line: 3,
        field: 'description',
        message: `Invalid YAML in frontmatter: ${error} (a value containing ": " must be quoted)`,
        words: { code: 'diag.yamlQuote', params: { error } },
      }),
    ];
    renderWith(<Sidebar />, c, { workspace: WS }, 'zh');
    const said = await screen.findByText(error);
    expect(said.tagName).toBe('CODE');
    expect(said.parentElement?.textContent).toBe(`description: YAML 头部无效：${error}（含有「: 」的值必须加引号）`);
  });
});
