// Desktop notifications as plain data (en/zh), free of Electron: main.ts shows one with Electron's Notification when
// an answer ends or an approval waits and no Knack window has the focus. Summaries are cut short; a notification is
// plain text (no markup is read in it).
import type { EventName, EventPayload } from '../../preload/contract.js';
import type { MenuLanguage } from './menu.js';

const WORDS = {
  en: {
    done: 'Knack: the answer is ready',
    stopped: 'Knack: the answer stopped',
    failed: 'Knack: the answer failed',
    approval: 'Knack is waiting for your approval',
    doneBody: 'Open Knack to read it.',
  },
  zh: {
    done: 'Knack：回答已完成',
    stopped: 'Knack：回答已停止',
    failed: 'Knack：回答失败',
    approval: 'Knack 正在等待你的批准',
    doneBody: '打开 Knack 查看。',
  },
} as const;

const short = (s: string, n = 120) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** The notification for a service event, or undefined when the event is not one to notify. */
export function notificationOf(
  name: EventName,
  payload: unknown,
  lang: MenuLanguage,
): { title: string; body: string } | undefined {
  const w = WORDS[lang];
  if (name === 'chat.approval') {
    const p = payload as EventPayload<'chat.approval'>;
    return { title: w.approval, body: short(p.summary) }; // the summary starts with the tool's name
  }
  if (name === 'chat.turnEnd') {
    const p = payload as EventPayload<'chat.turnEnd'>;
    if (p.unsent !== undefined) return undefined; // nothing was answered: the window gives the message back
    const title = p.reason === 'done' ? w.done : p.reason === 'stopped' ? w.stopped : w.failed;
    return { title, body: p.error ? short(p.error.message) : w.doneBody };
  }
  return undefined;
}
