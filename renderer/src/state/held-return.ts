// Coming back to a folder where a message that could not be sent waits for one of its conversations: that
// conversation is opened again, its message back in the input box. If it cannot be opened, the text goes to the box on screen.
import { useEffect } from 'react';
import i18n from 'i18next';
import type { KnackClient } from '../api/client';
import { heldAbove, heldConversation, heldKey, useView } from './store';
import { opened } from './transcript';

export function useHeldReturn(client: KnackClient): void {
  const path = useView((s) => s.workspace?.path);
  useEffect(() => {
    if (!path) return;
    const s = useView.getState();
    const id = heldConversation(s.heldDrafts, path);
    if (!id || s.sessionId) return;
    const epoch = s.epoch;
    // Still where the user came back to (nothing else chosen meanwhile)?
    const untouched = () => useView.getState().workspace?.path === path && useView.getState().epoch === epoch;
    client.call('sessions.open', { id }).then(
      (o) => {
        const { messages, running } = opened(o);
        if (untouched()) useView.getState().showSession(id, messages, running);
      },
      () => {
        if (!untouched()) return;
        // The conversation is gone: its text comes into this box rather than waiting for nothing.
        const now = useView.getState();
        const key = heldKey(path, id);
        const text = now.heldDrafts[key];
        if (text === undefined) return;
        const { [key]: _gone, ...heldDrafts } = now.heldDrafts;
        now.set({ heldDrafts, draft: heldAbove(text, now.draft) });
        now.notify({ kind: 'info', text: () => i18n.t('chat.heldHere') });
      },
    );
  }, [client, path]);
}
