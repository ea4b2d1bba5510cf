// The keyboard commands: one table drives the command palette, the global shortcuts and the shortcuts list.
import { usePanels } from '../state/panels';
import type { ViewState } from '../state/store';

export interface Command {
  id: string;
  /** i18n key of the label. */
  label: string;
  /** Displayed and matched: `Mod` is Ctrl (Cmd on macOS). */
  keys?: string;
  run(s: ViewState): void;
}

export const COMMANDS: Command[] = [
  { id: 'palette', label: 'cmd.palette', keys: 'Mod+K', run: (s) => s.set({ paletteOpen: true }) },
  { id: 'chat', label: 'cmd.chat', keys: 'Mod+1', run: (s) => s.set({ view: 'chat' }) },
  { id: 'new', label: 'cmd.newChat', keys: 'Mod+N', run: (s) => s.newChat() },
  { id: 'install', label: 'cmd.install', keys: 'Mod+I', run: (s) => s.set({ installOpen: true }) },
  { id: 'filter', label: 'cmd.filter', keys: 'Mod+F', run: () => document.getElementById('skill-filter')?.focus() },
  {
    id: 'message',
    label: 'cmd.message',
    keys: 'Mod+L',
    // From any view: Chat comes up and its box takes the focus (what is typed next is never lost to another view).
    run: (s) => s.set({ view: 'chat', paletteOpen: false, composerFocus: s.composerFocus + 1 }),
  },
  { id: 'tools', label: 'cmd.tools', keys: 'Mod+2', run: (s) => s.set({ view: 'tools' }) },
  { id: 'sessions', label: 'cmd.sessions', keys: 'Mod+3', run: (s) => s.set({ view: 'sessions' }) },
  { id: 'settings', label: 'cmd.settings', keys: 'Mod+,', run: (s) => s.set({ view: 'settings' }) },
  { id: 'plan', label: 'cmd.plan', keys: 'Mod+Shift+P', run: (s) => s.set({ planMode: !s.planMode }) },
  { id: 'shortcuts', label: 'cmd.shortcuts', keys: 'Mod+/', run: (s) => s.set({ shortcutsOpen: true }) },
  { id: 'sidebar', label: 'cmd.sidebar', keys: 'Mod+B', run: () => usePanels.getState().toggle('sidebar') },
  { id: 'panels', label: 'cmd.panels', keys: 'Mod+Shift+B', run: () => usePanels.getState().toggle('panels') },
  { id: 'workspace', label: 'cmd.workspace', run: (s) => s.set({ picking: true }) },
];

/** A shortcut as the user presses it, named as the header names Ctrl K (Ctrl works on macOS too: see matchesKeys). */
export function shownKeys(keys: string): string {
  return keys.replace(/^Mod\+/, 'Ctrl+');
}

/** True when a keyboard event is the command's shortcut. */
export function matchesKeys(keys: string, e: KeyboardEvent): boolean {
  const parts = keys.split('+');
  const key = parts[parts.length - 1]!.toLowerCase();
  const mod = parts.includes('Mod');
  const shift = parts.includes('Shift');
  if (mod !== (e.ctrlKey || e.metaKey)) return false;
  if (shift !== e.shiftKey) return false;
  return e.key.toLowerCase() === key;
}
