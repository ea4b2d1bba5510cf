// The conversation open in each folder survives a reload or a restart: its id is kept in localStorage per folder,
// and coming back to the folder opens it again. A conversation that cannot be opened any more leaves a notice.
import { useEffect } from 'react';
import i18n from 'i18next';
import { errorText } from '../api/context';
import type { KnackClient } from '../api/client';
import { heldConversation, useView } from './store';

const KEY = 'knack.openConversation\n';

function remembered(path: string): string | undefined {
  try {
    return localStorage.getItem(KEY + path) ?? undefined;
  } catch {
    return undefined;
  }
}

function remember(path: string, id: string | undefined): void {
  try {
    if (id) localStorage.setItem(KEY + path, id);
    else localStorage.removeItem(KEY + path);
  } catch {
    // Storage refused (private mode, quota): the window works on, only a reload starts a new chat.
  }
}

export function useRestoreOpen(client: KnackClient): void {
  // Keep the id of the conversation on screen; a new chat in the same folder forgets it. A folder switch first
  // empties the chat: that is not the user leaving the conversation, so it is not written.
  useEffect(
    () =>
      useView.subscribe((now, before) => {
        const path = now.workspace?.path;
        if (!path || path !== before.workspace?.path || now.sessionId === before.sessionId) return;
        remember(path, now.sessionId);
      }),
    [],
  );

  const path = useView((s) => s.workspace?.path);
  useEffect(() => {
    if (!path) return;
    const s = useView.getState();
    const id = remembered(path);
    // A conversation holding an unsent message is opened by useHeldReturn.
    if (!id || s.sessionId || heldConversation(s.heldDrafts, path)) return;
    const epoch = s.epoch;
    const untouched = () => useView.getState().workspace?.path === path && useView.getState().epoch === epoch;
    client.openSession(id).then(
      ({ messages, running }) => {
        if (untouched()) useView.getState().showSession(id, messages, running);
      },
      (e: unknown) => {
        remember(path, undefined);
        if (untouched())
          useView
            .getState()
            .set({ toast: { kind: 'info', text: i18n.t('chat.restoreFailed', { error: errorText(e) }) } });
      },
    );
  }, [client, path]);
}
