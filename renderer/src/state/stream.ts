// Subscribes to the chat events (transcript.ts CHAT_EVENTS) and applies them to the store once per animation frame
// (a 20,000-token answer arrives as thousands of deltas; batching keeps each frame's work small).
import { useEffect } from 'react';
import type { KnackClient } from '../api/client';
import { CHAT_EVENTS, type ChatEvent } from './transcript';
import { useView } from './store';

export function useChatStream(client: KnackClient): void {
  useEffect(() => {
    let queue: ChatEvent[] = [];
    let scheduled = false;
    const raf =
      typeof requestAnimationFrame === 'function' ? requestAnimationFrame : (f: () => void) => setTimeout(f, 16);
    const flush = () => {
      scheduled = false;
      const batch = queue;
      queue = [];
      useView.getState().applyChat(batch);
    };
    const offs = CHAT_EVENTS.map((name) =>
      client.on(name, (payload) => {
        queue.push({ name, ...payload } as ChatEvent);
        if (!scheduled) {
          scheduled = true;
          raf(flush);
        }
      }),
    );
    return () => {
      for (const off of offs) off();
      queue = [];
    };
  }, [client]);
}
