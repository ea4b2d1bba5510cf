// axe clean, in English and Chinese: the chat (a streamed Markdown answer with code and a table, a tool card, an
// approval card with what the gate checked, a loaded skill, a notice, the message actions, files attached and refused),
// a branched conversation (version switches, a message being edited), the / and @ menus and a dropped skill package, the
// skills sidebar (tiers, a shadowed skill, problems, a broken SKILL.md), the install dialog (a P1 report with findings
// and the permission diff, a refused P0), Settings and Tools, Sessions found by a search, renamed and deleted, the
// save-as-skill editor with a P0 finding, and the MCP server form with its review. Rules needing layout are left to the
// journeys.
import { describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { App } from '../../../renderer/src/App';
import { Chat } from '../../../renderer/src/components/Chat';
import type { ChatMessage } from '../../../renderer/src/state/transcript';
import { InstallDialog } from '../../../renderer/src/components/InstallDialog';
import { useSaveSkill } from '../../../renderer/src/components/SaveSkill';
import { Sessions } from '../../../renderer/src/components/Sessions';
import { Settings } from '../../../renderer/src/components/Settings';
import { Sidebar } from '../../../renderer/src/components/Sidebar';
import { Tools } from '../../../renderer/src/components/Tools';
import type { Lang } from '../../../renderer/src/i18n';
import { axeProblems } from './axe';
import { asks, audited, memoryClient, session, skill } from './memory-client';
import { renderWith, WS } from './render';
import { gatedWrite, p0Report, p1Report, readFileCall } from './samples';

const PNG = Uint8Array.from(
  atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=='),
  (ch) => ch.charCodeAt(0),
);

/** Wait until `selector` is in the document (the same in both languages). */
const shown = (selector: string) => waitFor(() => expect(document.querySelector(selector)).toBeTruthy());

describe.each(['en', 'zh'] as Lang[])('axe finds nothing wrong (%s)', (lang) => {
  it('in the chat: answer, tool card, approval card, notices, message actions and attachments', async () => {
    const c = memoryClient();
    renderWith(<App />, c, { workspace: WS }, lang);
    const box = await waitFor(() => document.querySelector<HTMLTextAreaElement>('form.composer textarea')!);
    await userEvent.type(box, 'tidy the changelog{Enter}');
    await waitFor(() => expect(c.calls.some((x) => x.method === 'chat.send')).toBe(true));
    act(() => {
      c.event('chat.skillLoaded', {
        sessionId: 's1',
        turnId: 'm1',
        skill: 'changelog',
        tier: 'user',
        reason: 'trigger: tidy',
        tokens: 80,
      });
      c.event('chat.delta', {
        sessionId: 's1',
        turnId: 'm1',
        kind: 'text',
        text: '# Plan\n\nSome **bold** text\n\n```js\nconst x = 1;\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n',
      });
      c.event('chat.toolCall', { sessionId: 's1', turnId: 'm1', card: readFileCall });
      c.event('chat.approval', { sessionId: 's1', ...gatedWrite });
      c.event('chat.notice', {
        sessionId: 's1',
        level: 'warning',
        kind: 'notice',
        text: 'The context is nearly full.',
      });
    });
    await shown('dl.gate-decision');
    await shown('table');
    // Files in the box: one attached, one refused (a binary file that is not an image).
    const pick = document.querySelector<HTMLInputElement>('form.composer input[type="file"]')!;
    await userEvent.upload(pick, [
      new File([PNG], 'dot.png', { type: 'image/png' }),
      new File([new Uint8Array([0, 1, 2, 255, 254])], 'blob.bin', { type: 'application/octet-stream' }),
    ]);
    await shown('.attached .file-chip');
    await shown('.attached .refused');
    expect(await axeProblems(document)).toEqual([]);
    // The answer ends: Copy, Edit, Regenerate and the answer's end line.
    act(() => c.event('chat.turnEnd', { sessionId: 's1', turnId: 'm1', reason: 'done' }));
    await waitFor(() => expect(document.querySelector('form.composer button[type="submit"]')).toBeTruthy());
    expect(await axeProblems(document)).toEqual([]);
  });

  it('in a branched conversation: the version switches, and a message being edited with its files', async () => {
    const messages: ChatMessage[] = [
      {
        id: 'u1',
        role: 'user',
        parts: [{ kind: 'text', text: 'summarise the notes' }],
        versions: { index: 1, count: 2 },
        files: [{ kind: 'text', name: 'notes.txt', mime: 'text/plain', size: 36 }],
      },
      {
        id: 'a1',
        role: 'assistant',
        parts: [{ kind: 'text', text: 'A Friday release.' }],
        versions: { index: 0, count: 2 },
      },
    ];
    renderWith(<Chat />, memoryClient(), { workspace: WS, sessionId: 's1', messages }, lang);
    await screen.findByRole('group', { name: i18next.t('chat.versions.answer') });
    expect(await axeProblems()).toEqual([]);
    await userEvent.click(screen.getByRole('button', { name: i18next.t('chat.edit.button') }));
    await screen.findByRole('list', { name: i18next.t('chat.edit.files') });
    expect(await axeProblems()).toEqual([]);
  });

  it('in the message box: the / and @ menus, and a dropped skill package offered to the installer', async () => {
    const skills = [skill('weekly-report', { description: 'The weekly report' })];
    const c = memoryClient({ skills });
    c.handlers['workspace.files'] = () => ({ paths: ['src/app.ts', 'docs/my notes.md'], truncated: true });
    renderWith(<Chat />, c, { workspace: WS, sessionId: 's1', skills }, lang);
    const box = document.querySelector<HTMLTextAreaElement>('form.composer textarea')!;
    await userEvent.type(box, '/wee');
    await screen.findByRole('listbox', { name: i18next.t('slash.label') });
    expect(await axeProblems()).toEqual([]);
    await userEvent.clear(box);
    await userEvent.type(box, 'read @s');
    await screen.findByRole('listbox', { name: i18next.t('mention.label') });
    expect(await axeProblems()).toEqual([]);
    const zip = new File([new Uint8Array([0x50, 0x4b, 3, 4])], 'my-skill.zip', { type: 'application/zip' });
    const dataTransfer = {
      types: ['Files'],
      files: [zip],
      items: [{ kind: 'file', type: zip.type, getAsFile: () => zip, webkitGetAsEntry: () => null }],
    };
    const chat = screen.getByRole('region', { name: i18next.t('chat.title') });
    fireEvent.dragOver(chat, { dataTransfer });
    fireEvent.drop(chat, { dataTransfer });
    await screen.findByRole('group', { name: i18next.t('chat.attach.packageLabel') });
    expect(await axeProblems()).toEqual([]);
  });

  it('in the skills sidebar: tiers, a shadowed skill, problems and a SKILL.md that does not read', async () => {
    const c = memoryClient({
      skills: [
        skill('git-commit', { triggers: ['提交代码', 'commit'], description: 'Clean commits' }),
        skill('notes', { tier: 'user', source: 'agents' }),
        skill('deploy', {
          tier: 'project',
          audit: audited('P1', 'trusted'),
          diagnostics: [{ severity: 'warning', code: 'w', file: 'SKILL.md', message: 'a' }],
        }),
        skill('git-commit', { tier: 'project', description: 'Project override' }),
      ],
    });
    c.skills[0]!.shadowedBy = { tier: 'project', file: '/w/.workbuddy/skills/git-commit/SKILL.md' };
    c.broken = [
      {
        tier: 'project',
        dir: '/w/.workbuddy/skills/bad',
        file: '/w/.workbuddy/skills/bad/SKILL.md',
        diagnostics: [
          { severity: 'error', code: 'e', file: '/w/.workbuddy/skills/bad/SKILL.md', line: 3, message: 'missing' },
        ],
      },
    ];
    renderWith(<Sidebar />, c, { workspace: WS }, lang);
    await waitFor(() => expect(screen.getAllByRole('heading', { level: 3 }).length).toBeGreaterThan(1));
    expect(await axeProblems()).toEqual([]);
  });

  it('in the install dialog: a P1 report with findings and the diff, then a refused P0', async () => {
    const c = memoryClient();
    c.installReports['/tmp/fetcher'] = p1Report;
    c.installReports['/tmp/evil'] = p0Report;
    for (const [source, finding] of [
      ['/tmp/fetcher', 'scripts/run.sh:3'],
      ['/tmp/evil', 'SKILL.md:9'],
    ] as const) {
      cleanup();
      renderWith(<InstallDialog />, c, { workspace: WS, installOpen: true }, lang);
      const path = screen.getByRole('dialog').querySelector<HTMLInputElement>('input[type="text"], input:not([type])')!;
      fireEvent.change(path, { target: { value: source } });
      fireEvent.submit(path.closest('form')!);
      await waitFor(() => expect(screen.getByText(finding)).toBeTruthy());
      expect(await axeProblems()).toEqual([]);
    }
  });

  it('in Settings and Tools', async () => {
    const c = memoryClient();
    renderWith(
      <>
        <Settings />
        <Tools />
      </>,
      c,
      { workspace: WS },
      lang,
    );
    await waitFor(() => expect(c.calls.some((x) => x.method === 'settings.get')).toBe(true));
    await waitFor(() => expect(document.querySelectorAll('select, input').length).toBeGreaterThan(2));
    expect(await axeProblems()).toEqual([]);
  });

  it('in Sessions, found by a search', async () => {
    const c = memoryClient();
    c.sessions = [session('s1', 'rotate keys', { messages: 4 }), session('s2', 'lunch plans')];
    c.searchHits['walrus'] = [
      {
        session: c.sessions[0]!,
        in: 'answer',
        snippet: [
          { text: '…use the ', hit: false },
          { text: 'walrus', hit: true },
          { text: ' procedure', hit: false },
        ],
      },
    ];
    renderWith(<Sessions />, c, { workspace: WS }, lang);
    await screen.findByText('lunch plans');
    expect(await axeProblems()).toEqual([]);
    await userEvent.type(screen.getByRole('searchbox'), 'walrus');
    await waitFor(() => expect(document.querySelector('mark')).toBeTruthy());
    expect(await axeProblems()).toEqual([]);
  });

  it('in Sessions, renaming one and confirming a delete', async () => {
    const c = memoryClient();
    c.sessions = [session('s1', 'rotate keys', { messages: 4 }), session('s2', 'lunch plans')];
    renderWith(<Sessions />, c, { workspace: WS }, lang);
    const rename = i18next.t('sessionsFind.renameOne', { title: 'lunch plans' });
    await userEvent.click(await screen.findByRole('button', { name: rename }));
    await userEvent.clear(
      screen.getByRole('textbox', { name: i18next.t('sessionsFind.newTitle', { title: 'lunch plans' }) }),
    );
    await userEvent.click(screen.getByRole('button', { name: i18next.t('sessionsFind.save') }));
    await screen.findByRole('alert'); // an empty title is refused, said beside the field
    expect(await axeProblems()).toEqual([]);
    await userEvent.click(
      screen.getByRole('button', { name: i18next.t('sessionsFind.deleteOne', { title: 'rotate keys' }) }),
    );
    await screen.findByRole('dialog', { name: i18next.t('sessionsFind.confirmTitle') });
    expect(await axeProblems()).toEqual([]);
  });

  it('in the save-as-skill editor, with a P0 finding', async () => {
    const c = memoryClient();
    const check = {
      skill: 'release-day',
      dir: '/tmp/release-day',
      level: 'P0' as const,
      contentHash: 'bbbb',
      files: 1,
      bytes: 100,
      manifestDiagnostics: [],
      permissions: asks({ tools: ['read_file'], read: ['notes.txt'] }),
      findings: [
        {
          file: 'SKILL.md',
          line: 12,
          level: 'P0' as const,
          rule: 'destructive.rm-root',
          family: 'exec',
          message: 'deletes the home folder',
          excerpt: 'rm -rf ~/',
        },
      ],
    };
    c.handlers['chat.draftSkill'] = () => ({
      report: check,
      text: '---\nname: release-day\n---\n\nrm -rf ~/\n',
      calls: 3,
    });
    c.handlers['skills.checkDraft'] = () => ({ report: check });
    renderWith(<App />, c, { workspace: WS, sessionId: 's1' }, lang);
    act(() => useSaveSkill.getState().open('s1'));
    const dialog = await screen.findByRole('dialog', { name: i18next.t('saveSkill.title') });
    await waitFor(() => expect(dialog.textContent).toContain('SKILL.md:12'));
    expect(await axeProblems(document)).toEqual([]);
    act(() => useSaveSkill.getState().open(undefined));
  });

  it('in the MCP server form and its review', async () => {
    const c = memoryClient();
    renderWith(<Tools />, c, { workspace: WS }, lang);
    await userEvent.click(await screen.findByRole('button', { name: i18next.t('mcpForm.add') }));
    const form = screen.getByRole('form', { name: i18next.t('mcpForm.add') });
    expect(await axeProblems()).toEqual([]);
    await userEvent.type(screen.getByLabelText(i18next.t('mcpForm.name')), 'tracker');
    await userEvent.type(screen.getByLabelText(i18next.t('mcpForm.command')), 'node');
    await userEvent.click(screen.getByRole('button', { name: i18next.t('mcpForm.add_env') }));
    await userEvent.type(screen.getByLabelText(i18next.t('mcpForm.secretName', { n: 1 })), 'TRACKER_TOKEN');
    await userEvent.click(screen.getByRole('button', { name: i18next.t('mcpForm.toReview') }));
    await screen.findByRole('region', { name: i18next.t('mcpForm.review') });
    expect(form).toBeTruthy();
    expect(await axeProblems()).toEqual([]);
  });
});
