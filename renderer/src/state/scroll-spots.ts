// Where the user was in each conversation's transcript, so a reload (or coming back to the chat) opens it there:
// following the answer at the bottom, or the block read last and how far into it. Remembered with zustand's persist
// middleware (localStorage, no hand-written storage code), for the last SPOTS conversations.
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';

/** How many conversations' spots are kept; the one touched longest ago goes first. */
const SPOTS = 100;

/** Within this many px of the bottom, the user is following the answer. */
export const FOLLOW_PX = 40;

/**
 * `follow`: at the bottom, following the answer. Else `at`: the place of the block at the top of the transcript among
 * its messages and their Markdown blocks (in document order), and `offset`: how many px of it are scrolled past.
 */
export type ScrollSpot = { follow: true } | { follow: false; at: number; offset: number };

interface ScrollSpots {
  spots: Record<string, ScrollSpot>;
  keep(sessionId: string, spot: ScrollSpot): void;
}

export const useScrollSpots = create<ScrollSpots>()(
  persist(
    (set, get) => ({
      spots: {},
      keep(sessionId, spot) {
        const { [sessionId]: was, ...rest } = get().spots;
        if (was && JSON.stringify(was) === JSON.stringify(spot)) return;
        const names = Object.keys(rest);
        // Insertion order is the order of use: the spot kept last goes to the end, the oldest leave from the front.
        for (const n of names.slice(0, Math.max(0, names.length - SPOTS + 1))) delete rest[n];
        set({ spots: { ...rest, [sessionId]: spot } });
      },
    }),
    {
      name: 'knack.scroll',
      // Storage refused (private mode, quota): the spot holds while the window is open, only a reload forgets it.
      storage: createJSONStorage(() => localStorage),
      partialize: (s) => ({ spots: s.spots }),
    },
  ),
);

/** The places a spot can name: each message and each Markdown block inside one, in document order. */
function marks(log: HTMLElement): HTMLElement[] {
  return [...log.querySelectorAll<HTMLElement>(':scope > article, :scope > article .md-block')];
}

/** Where the transcript `log` is scrolled to now. */
export function spotOf(log: HTMLElement): ScrollSpot {
  if (log.scrollHeight - log.scrollTop - log.clientHeight < FOLLOW_PX) return { follow: true };
  const top = log.getBoundingClientRect().top;
  const all = marks(log);
  // The innermost place holding the top line (a block comes after its message); else the first one below it.
  let at = -1;
  all.forEach((m, i) => {
    const r = m.getBoundingClientRect();
    if (r.top <= top && r.bottom > top) at = i;
  });
  if (at < 0)
    at = Math.max(
      0,
      all.findIndex((m) => m.getBoundingClientRect().top > top),
    );
  const r = all[at]?.getBoundingClientRect();
  return { follow: false, at, offset: r ? Math.round(top - r.top) : 0 };
}

/** Scroll `log` to `spot`; false when the place it names is not in the transcript (then it is left as it is). */
export function scrollToSpot(log: HTMLElement, spot: ScrollSpot): boolean {
  if (spot.follow) {
    log.scrollTop = log.scrollHeight;
    return true;
  }
  const m = marks(log)[spot.at];
  if (!m) return false;
  log.scrollTop += m.getBoundingClientRect().top - log.getBoundingClientRect().top + spot.offset;
  return true;
}

/**
 * Keep `log` at `spot` for the next `frames` frames: blocks coming into view are laid out at their real height only
 * then (`content-visibility: auto` gave them an estimate), which moves what is below them. Ends at once when the user
 * scrolls by hand (wheel, touch, a key, the scrollbar); returns what ends it sooner.
 */
export function holdSpot(log: HTMLElement, spot: ScrollSpot, frames = 30): () => void {
  let left = frames;
  let frame = 0;
  const hands = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;
  const end = () => {
    cancelAnimationFrame(frame);
    for (const h of hands) log.removeEventListener(h, end);
  };
  const tick = () => {
    scrollToSpot(log, spot);
    if (--left > 0) frame = requestAnimationFrame(tick);
    else end();
  };
  for (const h of hands) log.addEventListener(h, end, { passive: true });
  frame = requestAnimationFrame(tick);
  return end;
}

/**
 * While `following()`, keep the bottom of `log` in view as its messages change size (blocks get their real height only
 * as they come into view, and a streamed answer grows). One ResizeObserver for the transcript's life: each message is
 * observed once as it is added and left when removed (a MutationObserver on the list's children only), so a streamed
 * word costs nothing here however long the conversation. Returns what ends both observers.
 */
export function followSizes(log: HTMLElement, following: () => boolean): () => void {
  if (typeof ResizeObserver === 'undefined') return () => {};
  const sized = new ResizeObserver(() => {
    if (following()) log.scrollTop = log.scrollHeight;
  });
  for (const child of log.children) sized.observe(child);
  const listed = new MutationObserver((changes) => {
    for (const c of changes) {
      c.removedNodes.forEach((n) => n instanceof Element && sized.unobserve(n));
      c.addedNodes.forEach((n) => n instanceof Element && n.parentNode === log && sized.observe(n));
    }
  });
  listed.observe(log, { childList: true });
  return () => {
    listed.disconnect();
    sized.disconnect();
  };
}
