// The notice queue: one notice never hides another. Errors stay until dismissed (Retry where the call can be made
// again), info notices go after a while on screen, several stack newest first with "+N more", the same one twice shows
// once with a count, Esc dismisses the focused one, and each is an alert or a status for screen readers.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from 'i18next';
import { App } from '../../../renderer/src/App';
import { NoticesAt } from '../../../renderer/src/components/Notices';
import { Sidebar } from '../../../renderer/src/components/Sidebar';
import {
  INFO_KEPT,
  INFO_MS,
  NOTICES_SHOWN,
  noticeText,
  withNotice,
  type NoticeText,
} from '../../../renderer/src/state/notices';
import { useView } from '../../../renderer/src/state/store';
import { memoryClient, skill } from './memory-client';
import { outsideCode, renderWith, WS } from './render';
import { failure } from '../../../renderer/src/i18n/ErrorText';

const notify = (kind: 'error' | 'info', text: NoticeText, retry?: () => void) =>
  act(() => useView.getState().notify({ kind, text, ...(retry ? { retry } : {}) }));
const region = () => screen.getByRole('region', { name: 'Notifications' });

afterEach(() => {
  vi.useRealTimers();
});

describe('notice queue (store)', () => {
  it('keeps every notice, newest first; the same one again moves up once, counted, with the same id', () => {
    let q = withNotice([], { kind: 'error', text: 'A failed' });
    q = withNotice(q, { kind: 'info', text: 'B happened' });
    const id = q[1]!.id;
    const retry = () => undefined;
    q = withNotice(q, { kind: 'error', text: 'A failed', retry });
    expect(q.map((n) => [n.text, n.count])).toEqual([
      ['A failed', 2],
      ['B happened', 1],
    ]);
    expect(q[0]!.id).toBe(id);
    expect(q[0]!.retry).toBe(retry);
    // The same words as an info notice are another notice.
    q = withNotice(q, { kind: 'info', text: 'A failed' });
    expect(q).toHaveLength(3);
  });

  it('drops the oldest info notices past the limit and never an error', () => {
    let q = withNotice([], { kind: 'error', text: 'the first error' });
    for (let i = 0; i < INFO_KEPT + 5; i++) q = withNotice(q, { kind: 'info', text: `info ${i}` });
    expect(q.filter((n) => n.kind === 'info')).toHaveLength(INFO_KEPT);
    expect(q.some((n) => n.text === 'info 0')).toBe(false);
    expect(q.some((n) => n.text === `info ${INFO_KEPT + 4}`)).toBe(true);
    expect(q.some((n) => n.text === 'the first error')).toBe(true);
  });

  it('a message that was not sent and a later info notice are both kept (the info no longer replaces the error)', () => {
    renderWith(<></>, memoryClient(), { workspace: WS });
    const s = useView.getState();
    expect(s.giveBack('/home/me/beta', undefined, s.epoch, 'ship it')).toBe(false);
    useView.getState().notify({ kind: 'info', text: 'The conversation open before could not be opened again' });
    expect(useView.getState().notices.map((n) => [n.kind, noticeText(n)])).toEqual([
      ['info', 'The conversation open before could not be opened again'],
      ['error', expect.stringMatching(/^A message you wrote in beta could not be sent/)],
    ]);
  });

  it("two conversations' unsent messages in one batch of events are two notices", () => {
    renderWith(<></>, memoryClient(), {
      workspace: WS,
      mine: ['s1', 's2'],
      homes: { s1: '/home/me/beta', s2: '/home/me/gamma' },
    });
    act(() =>
      useView.getState().applyChat([
        { name: 'chat.turnEnd', sessionId: 's1', turnId: 'm1', reason: 'error', unsent: 'one' },
        { name: 'chat.turnEnd', sessionId: 's2', turnId: 'm2', reason: 'error', unsent: 'two' },
      ]),
    );
    expect(useView.getState().notices.map(noticeText)).toEqual([
      expect.stringContaining('gamma'),
      expect.stringContaining('beta'),
    ]);
  });
});

describe('notices (component)', () => {
  it('shows two errors as alerts and an info as a status, newest on top, and the rest behind "+N more"', async () => {
    renderWith(<NoticesAt place="chat" />, memoryClient(), { workspace: WS });
    notify('error', 'Your message could not be sent.');
    notify('error', 'deploy could not be turned on: unavailable');
    notify('info', 'This conversation will not reopen by itself.');
    const alerts = screen.getAllByRole('alert');
    expect(alerts.map((a) => within(a).getByText(/./, { selector: '.toast-text' }).textContent)).toEqual([
      'deploy could not be turned on: unavailable',
      'Your message could not be sent.',
    ]);
    expect(screen.getByRole('status').textContent).toContain('This conversation will not reopen by itself.');
    const texts = () => [...region().querySelectorAll('.toast-text')].map((x) => x.textContent);
    expect(texts()[0]).toBe('This conversation will not reopen by itself.');

    notify('error', 'A fourth thing failed.');
    expect(texts()).toHaveLength(NOTICES_SHOWN);
    expect(texts()).not.toContain('Your message could not be sent.');
    await userEvent.click(screen.getByRole('button', { name: '+1 more' }));
    expect(texts()).toContain('Your message could not be sent.');
    await userEvent.click(screen.getByRole('button', { name: 'Show fewer' }));
    expect(texts()).toHaveLength(NOTICES_SHOWN);
  });

  it('shows the same notice once with a count', () => {
    renderWith(<NoticesAt place="chat" />, memoryClient(), { workspace: WS });
    notify('error', 'The store is busy.');
    notify('error', 'The store is busy.');
    notify('error', 'The store is busy.');
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    expect(screen.getByRole('alert').textContent).toContain('shown 3 times');
    expect(screen.getByRole('alert').textContent).toContain('×3');
  });

  it('Esc dismisses the focused notice; the focus goes to the next, then back where it was', async () => {
    renderWith(
      <>
        <button type="button">before</button>
        <NoticesAt place="chat" />
      </>,
      memoryClient(),
      { workspace: WS },
    );
    notify('error', 'first failure');
    notify('error', 'second failure');
    const before = screen.getByRole('button', { name: 'before' });
    before.focus();
    await userEvent.tab();
    expect(document.activeElement?.closest('[role="alert"]')?.textContent).toContain('second failure');
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByText('second failure')).toBeNull();
    expect(document.activeElement?.closest('[role="alert"]')?.textContent).toContain('first failure');
    await userEvent.keyboard('{Escape}');
    expect(screen.queryAllByRole('alert')).toHaveLength(0);
    expect(document.activeElement).toBe(before);
  });

  it('an info notice goes after a while on screen, not while hovered; an error stays until dismissed', () => {
    vi.useFakeTimers();
    renderWith(<NoticesAt place="chat" />, memoryClient(), { workspace: WS });
    notify('error', 'a failure');
    notify('info', 'for your information');
    act(() => vi.advanceTimersByTime(INFO_MS + 1));
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.getByRole('alert').textContent).toContain('a failure');

    notify('info', 'read me slowly');
    act(() => {
      screen.getByRole('status').dispatchEvent(new MouseEvent('mouseover', { bubbles: true }));
    });
    act(() => vi.advanceTimersByTime(INFO_MS * 3));
    expect(screen.getByRole('status').textContent).toContain('read me slowly');
    act(() => {
      screen.getByRole('status').dispatchEvent(new MouseEvent('mouseout', { bubbles: true }));
    });
    act(() => vi.advanceTimersByTime(INFO_MS + 1));
    expect(screen.queryByRole('status')).toBeNull();

    act(() => screen.getByRole('button', { name: 'Dismiss' }).click());
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('an info notice behind "+N more" does not time out before it was on screen', () => {
    vi.useFakeTimers();
    renderWith(<NoticesAt place="chat" />, memoryClient(), { workspace: WS });
    notify('info', 'the oldest news');
    for (let i = 0; i < NOTICES_SHOWN; i++) notify('error', `failure ${i}`);
    act(() => vi.advanceTimersByTime(INFO_MS * 5));
    expect(useView.getState().notices.map(noticeText)).toContain('the oldest news');
    act(() => screen.getAllByRole('button', { name: 'Dismiss' })[0]!.click());
    expect(screen.getByRole('status').textContent).toContain('the oldest news');
    act(() => vi.advanceTimersByTime(INFO_MS + 1));
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('Retry on a failed switch makes the call again and the notice goes', async () => {
    const c = memoryClient({ skills: [skill('deploy', { tier: 'project' })] });
    c.failing.add('skills.setEnabled');
    renderWith(
      <>
        <Sidebar />
        <NoticesAt place="chat" />
      </>,
      c,
      { workspace: WS },
    );
    await userEvent.click(await screen.findByRole('switch', { name: 'Enable deploy' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(/deploy could not be turned off: .*skills.setEnabled failed on purpose/);
    c.failing.delete('skills.setEnabled');
    await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    await waitFor(() =>
      expect(screen.getByRole('switch', { name: 'Enable deploy' }).getAttribute('aria-checked')).toBe('false'),
    );
    expect(c.calls.filter((x) => x.method === 'skills.setEnabled')).toHaveLength(2);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("says a notice in the window's language, also after a switch, and counts it the same in both", async () => {
    renderWith(<NoticesAt place="chat" />, memoryClient(), { workspace: WS });
    const blocked = () => i18n.t('skills.whyBlocked', { name: 'evil' });
    notify('error', blocked);
    expect(screen.getByRole('alert').textContent).toContain('evil is blocked');
    await act(() => i18n.changeLanguage('zh'));
    expect(screen.getByRole('alert').textContent).toContain('evil 已被阻止');
    notify('error', blocked);
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    expect(screen.getByRole('alert').textContent).toContain('出现了 2 次');
  });

  it("shows a failure's own words in code after the lead, follows a switch, and counts it once", async () => {
    renderWith(<NoticesAt place="chat" />, memoryClient(), { workspace: WS }, 'zh');
    const detail = '<img src=x onerror=alert(1)> **disk I/O error**';
    const err = {
      code: 'internal',
      message: detail,
      words: { code: 'service.failed', params: { method: 'x', detail } },
    };
    notify('error', failure(err, 'skills.enableFailed', { name: 'pdf' }));
    const alert = screen.getByRole('alert');
    expect(alert.querySelector('img, strong')).toBeNull();
    expect([...alert.querySelectorAll('code')].map((c) => c.textContent)).toEqual([detail]);
    expect(outsideCode(alert.querySelector('.toast-text')!)).toBe('无法开启 pdf：x 失败：');
    await act(() => i18n.changeLanguage('en'));
    expect(outsideCode(screen.getByRole('alert').querySelector('.toast-text')!)).toBe(
      'pdf could not be turned on: x failed: ',
    );
    notify('error', failure(err, 'skills.enableFailed', { name: 'pdf' }));
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    expect(noticeText(useView.getState().notices[0]!)).toBe(`pdf could not be turned on: x failed: ${detail}`);
  });

  it('speaks Chinese', async () => {
    renderWith(<NoticesAt place="chat" />, memoryClient(), { workspace: WS }, 'zh');
    notify('error', '出错了', () => undefined);
    notify('error', '出错了');
    for (let i = 0; i < NOTICES_SHOWN; i++) notify('info', `消息 ${i}`);
    expect(screen.getByRole('region', { name: '通知' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '还有 1 条' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: '还有 1 条' }));
    const alert = screen.getByRole('alert');
    expect(within(alert).getByRole('button', { name: '重试' })).toBeTruthy();
    expect(within(alert).getAllByRole('button', { name: '关闭' })).toHaveLength(1);
    expect(alert.textContent).toContain('出现了 2 次');
  });
});

describe('where the notices are (App)', () => {
  /** `a` comes before `b` in the page (and so in the Tab order). */
  const before = (a: Element, b: Element) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;

  it('in the chat: one region, after the transcript and above the message box, never in the right panel', async () => {
    renderWith(<App />, memoryClient(), { workspace: WS });
    notify('error', 'weekly-report could not be turned off');
    const regions = screen.getAllByRole('region', { name: 'Notifications' });
    expect(regions).toHaveLength(1);
    const chat = screen.getByRole('region', { name: 'Chat' });
    expect(chat.contains(regions[0]!)).toBe(true);
    expect(before(screen.getByRole('log', { name: 'Conversation' }), regions[0]!)).toBe(true);
    expect(before(regions[0]!, screen.getByRole('textbox', { name: 'Message' }))).toBe(true);
    expect(document.getElementById('side-panels')!.contains(regions[0]!)).toBe(false);
  });

  it('in another view: one region under it, in the middle column, outside the right panel', async () => {
    renderWith(<App />, memoryClient(), { workspace: WS, view: 'settings' });
    notify('error', 'weekly-report could not be turned off');
    const regions = screen.getAllByRole('region', { name: 'Notifications' });
    expect(regions).toHaveLength(1);
    expect(before(screen.getByRole('main'), regions[0]!)).toBe(true);
    expect(before(regions[0]!, document.getElementById('side-panels')!)).toBe(true);
    expect(regions[0]!.classList.contains('in-column')).toBe(true);
  });

  it('on the open-folder screen over a folder: one region, on that screen', async () => {
    renderWith(<App />, memoryClient(), { workspace: WS, picking: true });
    notify('error', 'A message you wrote in alpha could not be sent');
    expect(screen.getAllByRole('region', { name: 'Notifications' })).toHaveLength(1);
    expect(screen.getByRole('alert').textContent).toContain('could not be sent');
  });

  it("Shift+Tab from the message box reaches a notice's Retry and Dismiss", async () => {
    renderWith(<App />, memoryClient(), { workspace: WS });
    notify('error', 'weekly-report could not be turned off', () => undefined);
    screen.getByRole('textbox', { name: 'Message' }).focus();
    const alert = screen.getByRole('alert');
    const seen: (string | null)[] = [];
    for (let i = 0; i < 4 && !seen.includes('Retry'); i++) {
      await userEvent.tab({ shift: true });
      if (alert.contains(document.activeElement)) seen.push(document.activeElement!.textContent);
    }
    expect(seen).toEqual(['×Dismiss', 'Retry']);
  });
});
