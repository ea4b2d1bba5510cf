// Serve mode's notifications: the browser's Notification API, once the user allowed it (the header's bell asks), when
// an answer of a conversation of this window ends or one waits for an approval and the page does not have the focus.
// The desktop app notifies from its main process (Electron's Notification), so this stays off there.
import { useEffect, useState } from 'react';
import i18n from 'i18next';
import type { KnackClient } from '../api/client';
import { useView } from './store';

/** The browser's permission, or undefined where there is no Notification API. */
function notifyPermission(): NotificationPermission | undefined {
  return typeof Notification === 'undefined' ? undefined : Notification.permission;
}

export function useNotifications(client: KnackClient): void {
  useEffect(() => {
    if (client.mode !== 'serve' || notifyPermission() === undefined) return;
    /** Shown only for this window's conversations (in serve mode every tab hears every session), in the background. */
    const show = (sessionId: string, title: string, body: () => string) => {
      const s = useView.getState();
      if (sessionId !== s.sessionId && !s.mine.includes(sessionId)) return;
      if (document.hasFocus() || Notification.permission !== 'granted') return;
      const n = new Notification(title, { body: body(), tag: `knack:${sessionId}` });
      n.onclick = () => window.focus();
    };
    const offs = [
      client.on('chat.approval', (e) =>
        // The summary starts with the tool's name (the service's callSummary).
        show(e.sessionId, i18n.t('notify.approval'), () => e.summary.slice(0, 120)),
      ),
      client.on('chat.turnEnd', (e) => {
        if (e.unsent !== undefined) return;
        const title =
          e.reason === 'stopped' ? i18n.t('notify.stopped') : e.error ? i18n.t('notify.failed') : i18n.t('notify.done');
        show(
          e.sessionId,
          title,
          () =>
            e.error?.message.slice(0, 120) ?? i18n.t('notify.open', { name: useView.getState().workspace?.name ?? '' }),
        );
      }),
    ];
    return () => {
      for (const off of offs) off();
    };
  }, [client]);
}

/** The permission as it is now, and a way to ask (a click: browsers ask only from a user gesture). */
export function useNotifyPermission(): [NotificationPermission | undefined, () => void] {
  const [perm, setPerm] = useState(notifyPermission);
  const ask = () => {
    void Notification.requestPermission().then(setPerm, () => setPerm(notifyPermission()));
  };
  return [perm, ask];
}
