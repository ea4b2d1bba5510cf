// Serve mode's notifications: the browser's Notification API, once the user allowed it (the header's bell asks), when
// an answer of a conversation of this window ends or one waits for an approval and the page does not have the focus.
// The desktop app notifies from its main process (Electron's Notification), so this stays off there.
import { useEffect, useState } from 'react';
import i18n from 'i18next';
import type { KnackClient } from '../api/client';
import { useView } from './store';

/** The browser's permission, or undefined where there is no Notification API. */
export function notifyPermission(): NotificationPermission | undefined {
  return typeof Notification === 'undefined' ? undefined : Notification.permission;
}

export function useNotifications(client: KnackClient): void {
  useEffect(() => {
    if (client.mode !== 'serve' || notifyPermission() === undefined) return;
    return client.onChat((e) => {
      if (e.type !== 'done' && e.type !== 'approval') return;
      if (e.type === 'done' && e.unsent !== undefined) return;
      const s = useView.getState();
      // This window's conversations only (in serve mode every tab hears every session).
      if (e.sessionId !== s.sessionId && !s.mine.includes(e.sessionId)) return;
      if (document.hasFocus() || Notification.permission !== 'granted') return;
      const title =
        e.type === 'approval'
          ? i18n.t('notify.approval')
          : e.stopped
            ? i18n.t('notify.stopped')
            : e.error
              ? i18n.t('notify.failed')
              : i18n.t('notify.done');
      const body =
        e.type === 'approval'
          ? `${e.request.tool}: ${e.request.summary ?? ''}`.slice(0, 120)
          : (e.error?.slice(0, 120) ?? i18n.t('notify.open', { name: s.workspace?.name ?? '' }));
      const n = new Notification(title, { body, tag: `knack:${e.sessionId}` });
      n.onclick = () => window.focus();
    });
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
