// The window's notices as a queue, not one slot: a later notice never hides an earlier one. Errors stay until the user
// dismisses them (with Retry where the failed call can be made again); info notices go on their own once seen. The
// same notice again is shown once, with a count. Pure functions: the store (store.ts) holds the list.
import { shownText, type Failure } from '../i18n/ErrorText';

export type NoticeKind = 'error' | 'info';

/**
 * What a notice says: a string, a function that says it in the window's language now (it follows a switch), or a
 * failure (shown with another party's own words in code, ErrorText).
 */
export type NoticeText = string | (() => string) | Failure;

export interface NoticeInput {
  kind: NoticeKind;
  text: NoticeText;
  /** Makes the failed call again (the notice goes as it is pressed). */
  retry?: () => void;
}

export interface Notice extends NoticeInput {
  id: number;
  /** How many times it came (the same kind and text shows once). */
  count: number;
}

/** At most this many are shown at once, newest on top; the rest wait behind "+N more". */
export const NOTICES_SHOWN = 3;
/** How long an info notice stays once on screen, unless the pointer or the focus is on it (ms). */
export const INFO_MS = 6000;
/** Info notices beyond this many are dropped, oldest first; errors are never dropped (each waits for the user). */
export const INFO_KEPT = 20;

let nextId = 1;

/** The notice's words in the window's language now. */
export function noticeText(n: { text: NoticeText }): string {
  return typeof n.text === 'function' ? n.text() : shownText(n.text);
}

/**
 * The queue with `n` added, newest first. The same kind and words again moves to the top with its count raised and the
 * latest Retry; it keeps its id, so a focused notice keeps the focus.
 */
export function withNotice(list: readonly Notice[], n: NoticeInput): Notice[] {
  const text = noticeText(n);
  const same = list.find((x) => x.kind === n.kind && noticeText(x) === text);
  const added: Notice = same
    ? { ...same, count: same.count + 1, ...(n.retry ? { retry: n.retry } : {}) }
    : { ...n, id: nextId++, count: 1 };
  const next = [added, ...list.filter((x) => x !== same)];
  let infos = 0;
  return next.filter((x) => x.kind === 'error' || ++infos <= INFO_KEPT);
}

/** The queue without the notice `id`. */
export function withoutNotice(list: readonly Notice[], id: number): Notice[] {
  return list.filter((x) => x.id !== id);
}
