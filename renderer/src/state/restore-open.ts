// The conversation open in each folder survives a reload or a restart: main keeps its id per workspace (in the
// store: serve picks a new port, so a new page origin, on each run), and coming back to the folder opens it again.
// A conversation that cannot be opened any more leaves a notice.
import { useEffect } from 'react';
import { failure } from '../i18n/ErrorText';
import type { KnackClient } from '../api/client';
import { heldConversation, useView } from './store';
import { opened } from './transcript';

/** An info notice (queued: it never hides an error such as "your message could not be sent", when the connection that
 * failed both calls drops). */
function notice(key: string, e: unknown): void {
  useView.getState().notify({ kind: 'info', text: failure(e, key) });
}

export function useRestoreOpen(client: KnackClient): void {
  // Keep the id of the conversation on screen; a new chat in the same folder forgets it. A folder switch first
  // empties the chat: that is not the user leaving the conversation, so it is not written.
  useEffect(
    () =>
      useView.subscribe((now, before) => {
        const path = now.workspace?.path;
        if (!path || path !== before.workspace?.path || now.sessionId === before.sessionId) return;
        client
          .call('sessions.remember', { id: now.sessionId ?? null })
          .catch((e: unknown) => notice('chat.rememberFailed', e));
      }),
    [client],
  );

  const path = useView((s) => s.workspace?.path);
  useEffect(() => {
    if (!path) return;
    const epoch = useView.getState().epoch;
    const untouched = () => useView.getState().workspace?.path === path && useView.getState().epoch === epoch;
    let id: string | null = null;
    client
      .call('sessions.remembered', {})
      .then((r) => {
        const s = useView.getState();
        id = r.id;
        // A conversation holding an unsent message is opened by useHeldReturn; one already on screen stays.
        if (!id || !untouched() || s.sessionId || heldConversation(s.heldDrafts, path)) return;
        return client.call('sessions.open', { id }).then((o) => {
          const { messages, running } = opened(o);
          if (untouched() && !useView.getState().sessionId) useView.getState().showSession(id!, messages, running);
        });
      })
      .catch((e: unknown) => {
        if (id) void client.call('sessions.remember', { id: null }).catch(() => undefined);
        if (untouched()) notice('chat.restoreFailed', e);
      });
  }, [client, path]);
}
