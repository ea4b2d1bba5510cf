// Subscribes to chat events and applies them to the store once per animation frame (a 20,000-token answer
// arrives as thousands of deltas; batching keeps each frame's work small).
import { useEffect } from 'react';
import type { KnackClient } from '../api/client';
import type { ChatEvent } from '../api/types';
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
    const off = client.onChat((e) => {
      queue.push(e);
      if (!scheduled) {
        scheduled = true;
        raf(flush);
      }
    });
    return () => {
      off();
      queue = [];
    };
  }, [client]);
}
