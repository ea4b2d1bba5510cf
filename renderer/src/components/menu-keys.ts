// The keys of a menu that opens under the message box (the slash menu of skills, the @ menu of files).
import type { KeyboardEvent } from 'react';

interface MenuKeys<T> {
  open: boolean;
  /**
   * The rows answer what is typed now. Left out: always. False (an answer for an older query still shown, or none
   * yet): Enter and Tab call `wait` instead of picking, so they never pick from the old answer.
   */
  ready?: boolean;
  wait?(): void;
  rows: readonly T[];
  /** The highlighted row. */
  at: number;
  move(to: number): void;
  pick(row: T): void;
  /** Esc: close the menu on the text as it is. */
  close(): void;
}

/**
 * Arrows move (wrapping), Enter or Tab picks (or, while the rows are not ready, waits for them), Esc closes; a key typed while an input method composes is left to it.
 * True when the key was the menu's (the box does nothing more with it).
 */
export function menuKey<T>(e: KeyboardEvent<HTMLTextAreaElement>, m: MenuKeys<T>): boolean {
  if (!m.open || e.nativeEvent.isComposing) return false;
  if (e.key === 'Escape') {
    e.preventDefault();
    e.stopPropagation();
    m.close();
    return true;
  }
  const picks = (e.key === 'Enter' && !e.shiftKey) || e.key === 'Tab';
  if (m.ready === false && picks) {
    e.preventDefault();
    m.wait?.();
    return true;
  }
  const n = m.rows.length;
  if (n === 0) return false;
  if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
    e.preventDefault();
    m.move((m.at + (e.key === 'ArrowDown' ? 1 : -1) + n) % n);
    return true;
  }
  if (picks) {
    e.preventDefault();
    m.pick(m.rows[m.at]!);
    return true;
  }
  return false;
}
