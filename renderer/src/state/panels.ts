// Which side panels are shown (the skills sidebar on the left, loaded skills and the context meter on the right),
// remembered across reloads with zustand's persist middleware (localStorage; no hand-written storage code).
// With no choice made yet, a window narrower than WIDE starts with the right panel folded: the chat keeps most of it.
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';

/** Below this window width (px) the right panel starts folded until the user opens it. */
const WIDE = 1200;

export interface PanelState {
  sidebar: boolean;
  panels: boolean;
  toggle(which: 'sidebar' | 'panels'): void;
}

const wide = () => typeof window === 'undefined' || window.innerWidth >= WIDE;

export const usePanels = create<PanelState>()(
  persist(
    (set, get) => ({
      sidebar: true,
      panels: wide(),
      toggle: (which) => set({ [which]: !get()[which] }),
    }),
    {
      name: 'knack.panels',
      // Storage refused (private mode, quota): the panels still fold, only a reload forgets it.
      storage: createJSONStorage(() => localStorage),
      partialize: (s) => ({ sidebar: s.sidebar, panels: s.panels }),
    },
  ),
);
