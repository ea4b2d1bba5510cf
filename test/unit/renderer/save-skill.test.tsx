// Save as skill in the window: the offer on a task's notice, the draft in an editor beside its audit, the scope, and
// the install through the same audit and approval (P1 asks, P0 is refused and the draft stays open to fix).
import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from '../../../renderer/src/App';
import { Sidebar } from '../../../renderer/src/components/Sidebar';
import { useSaveSkill } from '../../../renderer/src/components/SaveSkill';
import type { AuditReport, InstallOutcome, MethodOutput } from '../../../preload/contract';
import { useView } from '../../../renderer/src/state/store';
import { asks, type MemoryClient, memoryClient, skill } from './memory-client';
import { ENGLISH_SENTENCE, outsideCode, renderWith, WS } from './render';

const TEXT =
  '---\nname: release-day\ndescription: Find the release day.\nread_when:\n  - when is the release\npermissions:\n  tools:\n    - read_file\nagent_created: true\n---\n\n1. Read notes.txt.\n';

const clean: AuditReport = {
  skill: 'release-day',
  dir: '/tmp/release-day',
  level: 'P2',
  findings: [],
  permissions: asks({ tools: ['read_file'], read: ['notes.txt'] }),
  contentHash: 'aaaa',
  files: 1,
  bytes: 100,
  manifestDiagnostics: [],
};

const p0: AuditReport = {
  ...clean,
  level: 'P0',
  contentHash: 'bbbb',
  findings: [
    {
      file: 'SKILL.md',
      line: 12,
      level: 'P0',
      rule: 'destructive.rm-root',
      family: 'exec',
      message: 'deletes the home folder',
      excerpt: 'rm -rf ~/ <img src=x onerror=alert(1)>',
    },
  ],
};

/** An install of the draft as main answers it, with the audit of the text sent. */
const installed = (report: AuditReport, o: Omit<InstallOutcome, 'report'> = { status: 'installed' }) => ({
  skill: 'release-day',
  ...o,
  report,
});

function withDrafts(c: MemoryClient, draft: MethodOutput<'chat.draftSkill'>, installs: InstallOutcome[]) {
  c.handlers['chat.draftSkill'] = () => draft;
  c.handlers['skills.checkDraft'] = ({ text }) => ({ report: text.includes('rm -rf') ? p0 : clean });
  c.handlers['skills.installDraft'] = () => installs.shift()!;
  return c;
}

const offer = {
  id: 'a1',
  role: 'assistant' as const,
  parts: [
    {
      kind: 'notice' as const,
      level: 'info' as const,
      text: 'this task used 3 tool calls; it can be saved as a skill',
      words: { code: 'noticeSkillOffer', params: { calls: 3 } },
    },
  ],
};

beforeEach(() => useSaveSkill.getState().open(undefined));

describe('save as skill', () => {
  it('the notice offers it; the draft opens in an editor with its audit and installs in the scope picked', async () => {
    const c = withDrafts(memoryClient(), { report: clean, text: TEXT, calls: 3 }, [installed(clean)]);
    renderWith(<App />, c, { workspace: WS, sessionId: 's1', messages: [offer] });
    await userEvent.click(screen.getByRole('button', { name: 'Save as skill' }));
    const dialog = await screen.findByRole('dialog', { name: 'Save as skill' });
    const editor = (await within(dialog).findByRole('textbox', { name: 'SKILL.md' })) as HTMLTextAreaElement;
    expect(editor.value).toBe(TEXT);
    expect(c.calls.find((x) => x.method === 'chat.draftSkill')!.args).toEqual([{ sessionId: 's1' }]);
    const audit = within(dialog).getByRole('region', { name: 'Audit of the draft' });
    expect(audit.textContent).toContain('P2');
    expect(audit.textContent).toContain('read_file');
    await userEvent.selectOptions(within(dialog).getByRole('combobox', { name: 'Save to' }), 'project');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Install' }));
    expect(await within(dialog).findByText(/Saved as release-day/)).toBeTruthy();
    expect(c.calls.find((x) => x.method === 'skills.installDraft')!.args).toEqual([
      { text: TEXT, tier: 'project', replace: false },
    ]);
    expect(useView.getState().catalogTick).toBeGreaterThan(0);
  });

  it('a P0 draft is refused with its finding, escaped, and stays open to fix; the fixed text installs after approval', async () => {
    const bad = `${TEXT}\n\`\`\`sh\nrm -rf ~/\n\`\`\`\n`;
    const c = withDrafts(memoryClient(), { report: p0, text: bad, calls: 4 }, [
      installed(p0, { status: 'refused', reason: 'P0: SKILL.md:12 destructive.rm-root: deletes the home folder' }),
      installed({ ...clean, level: 'P1' }, { status: 'pending', approvalId: 'ap1' }),
    ]);
    c.handlers['skills.approveInstall'] = () => installed(clean);
    renderWith(<App />, c, { workspace: WS, sessionId: 's1' });
    useSaveSkill.getState().open('s1');
    const dialog = await screen.findByRole('dialog', { name: 'Save as skill' });
    const editor = (await within(dialog).findByRole('textbox', { name: 'SKILL.md' })) as HTMLTextAreaElement;
    // The hostile line is shown as text, never as markup.
    expect(dialog.querySelector('img')).toBeNull();
    expect(dialog.textContent).toContain('<img src=x onerror=alert(1)>');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Install' }));
    expect((await within(dialog).findByRole('alert')).textContent).toMatch(/Not installed: the draft audits P0/);
    // Still open, still editable.
    await userEvent.clear(editor);
    await userEvent.type(
      editor,
      TEXT.replace(/[{[]/g, (x) => x + x),
    );
    expect(within(dialog).getByText(/Edited since this audit/)).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Check again' }));
    await waitFor(() => expect(within(dialog).queryByText(/Edited since this audit/)).toBeNull());
    expect(within(dialog).getByRole('region', { name: 'Audit of the draft' }).textContent).toContain('P2');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Install' }));
    expect(await within(dialog).findByText('It needs your approval before it is installed.')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect(await within(dialog).findByText(/Saved as release-day/)).toBeTruthy();
    expect(c.calls.find((x) => x.method === 'skills.approveInstall')!.args).toEqual([
      { approvalId: 'ap1', contentHash: 'aaaa' },
    ]);
  });

  it('a draft that fails says why and offers to try again; Escape closes it; in Chinese', async () => {
    const c = memoryClient();
    let fail = true;
    c.handlers['chat.draftSkill'] = () => {
      if (fail)
        throw {
          code: 'unavailable',
          message: 'the skill could not be drafted: the model\'s draft holds no JSON object: "Sure! Here it is."',
          words: { code: 'draft.noJson', params: { detail: 'Sure! Here it is.' } },
        };
      return { report: clean, text: TEXT, calls: 3 };
    };
    renderWith(<App />, c, { workspace: WS, sessionId: 's1', messages: [offer] }, 'zh');
    await userEvent.click(screen.getByRole('button', { name: '保存为技能' }));
    const dialog = await screen.findByRole('dialog', { name: '保存为技能' });
    // A Chinese lead and why in Chinese; what the model wrote, as it wrote it, in code.
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toBe('无法起草技能：模型的草稿里没有 JSON 对象：Sure! Here it is.');
    expect(alert.querySelector('code')?.textContent).toBe('Sure! Here it is.');
    expect(outsideCode(alert)).not.toMatch(ENGLISH_SENTENCE);
    fail = false;
    await userEvent.click(within(dialog).getByRole('button', { name: '重试' }));
    expect(await within(dialog).findByRole('textbox', { name: 'SKILL.md' })).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: '安装' })).toBeTruthy();
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('a skill the agent wrote is marked in the sidebar, in both languages', async () => {
    const c = memoryClient({
      skills: [skill('release-day', { tier: 'user', agentCreated: true }), skill('git-commit')],
    });
    const first = renderWith(<Sidebar />, c, { workspace: WS });
    const badge = await screen.findByText('by the agent');
    expect(badge.getAttribute('title')).toContain('agent_created');
    expect(screen.getAllByText('by the agent')).toHaveLength(1);
    first.unmount();
    renderWith(<Sidebar />, c, { workspace: WS }, 'zh');
    expect(await screen.findByText('由智能体创建')).toBeTruthy();
  });
});
