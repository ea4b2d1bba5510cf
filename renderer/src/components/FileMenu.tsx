// The `@` menu of the message box: the caret in a word that starts with `@` (at the box's start or after a space),
// anywhere in the box, lists the open folder's files, ranked by main for what follows the `@` (`workspace.files`,
// fuzzy). ↑/↓ move, Enter or Tab picks from the answer for what is typed now (waiting for it when main has not answered
// yet): the path, relative to the folder, replaces that word only (quoted as a JSON string when it holds a space or a
// quote), and the caret goes after it. Esc closes. A mention
// names a file and attaches nothing: the model reads it with read_file, and the gate decides that read. Each path is
// React text, never HTML. Like the `/` menu, kept out of the box's component: it spreads `aria`, asks `onKeyDown`
// first and renders `menu` beside it.
import {
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactNode,
  type RefObject,
} from 'react';
import { useTranslation } from 'react-i18next';
import { menuKey } from './menu-keys';
import { useClient } from '../api/context';
import { ErrorText, failure, type Failure } from '../i18n/ErrorText';
import { useView } from '../state/store';

/** Rows the menu shows at most. */
const MAX_ROWS = 8;

/** An `@` that starts a word (the box's start or after a space), up to the caret. */
const MENTION_BEFORE = /(^|\s)@([^\s@]*)$/u;

export interface Mention {
  /** Where the `@` is. */
  start: number;
  /** Where the word ends (the next space, or the end of the text). */
  end: number;
  /** What follows the `@`, to the word's end. */
  query: string;
}

/**
 * The `@word` the caret is in, wherever it is in the box; undefined when the caret is in no such word
 * (`me@example.com`, a word with no `@`, a selection). `caret`: the text's end when left out.
 */
function mentionAt(text: string, caret: number | null = text.length): Mention | undefined {
  if (caret === null) return undefined;
  const before = MENTION_BEFORE.exec(text.slice(0, caret));
  if (!before) return undefined;
  const rest = /^[^\s@]*/u.exec(text.slice(caret))![0];
  return { start: before.index + before[1]!.length, end: caret + rest.length, query: before[2]! + rest };
}

/** What follows the `@` of the word at the caret; undefined when the menu does not apply. */
export function mentionQuery(text: string, caret?: number | null): string | undefined {
  return mentionAt(text, caret)?.query;
}

/**
 * The box's text with the `@word` at the caret replaced by `path` (quoted when it holds a space or a quote) and one
 * space after it, the rest of the text as it was; and the caret, after that space.
 */
export function mentionText(text: string, path: string, caret?: number | null): { text: string; caret: number } {
  const m = mentionAt(text, caret);
  if (!m) return { text, caret: caret ?? text.length };
  const shown = /[\s"'\\]/u.test(path) ? JSON.stringify(path) : path;
  const tail = text.slice(m.end);
  const out = `${text.slice(0, m.start)}${shown}${/^\s/u.test(tail) ? '' : ' '}${tail}`;
  return { text: out, caret: m.start + shown.length + 1 };
}

interface Answer {
  query: string;
  paths: string[];
  truncated: boolean;
  error?: Failure;
}

export interface FileMenu {
  /** Spread on the textarea (after the `/` menu's: the two never apply at once). */
  aria: { 'aria-controls'?: string; 'aria-activedescendant'?: string };
  /** True when the key was the menu's (the box does nothing more with it). */
  onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>): boolean;
  /** The box's caret moved or its text changed: call from its `onSelect` and `onChange`. */
  onSelect(): void;
  menu: ReactNode;
}

export function useFileMenu(
  text: string,
  setText: (t: string) => void,
  box: RefObject<HTMLTextAreaElement | null>,
): FileMenu {
  const { t } = useTranslation();
  const id = useId();
  const client = useClient();
  const folder = useView((s) => s.workspace?.path);
  // Where the caret is (null: a selection, no menu); the text's end until the box says.
  const [caret, setCaret] = useState<number | null>();
  const at0 = caret === undefined ? text.length : caret === null ? null : Math.min(caret, text.length);
  const mention = folder ? mentionAt(text, at0) : undefined;
  const query = mention?.query;
  // The highlighted row, for the query it was moved on: a new query starts at the first row again.
  const [active, setActive] = useState({ query, row: 0 });
  // The text the user closed the menu on (Esc): it stays closed until the text changes.
  const [closedOn, setClosedOn] = useState<string>();
  const [answer, setAnswer] = useState<Answer>();
  const open = query !== undefined && closedOn !== text;
  // Enter or Tab before main answered what is typed now: the query it waits for, picked when that answer comes.
  const waiting = useRef<string | undefined>(undefined);
  const latest = useRef({ text, at0 });
  latest.current = { text, at0 };
  const caretWanted = useRef<number | undefined>(undefined);

  const pick = (path: string) => {
    const next = mentionText(latest.current.text, path, latest.current.at0);
    waiting.current = undefined;
    caretWanted.current = next.caret;
    setCaret(next.caret);
    setText(next.text);
  };
  const pickRef = useRef(pick);
  pickRef.current = pick;

  // After a pick, the box's caret goes after the path (the text is set by then).
  useLayoutEffect(() => {
    const el = box.current;
    const want = caretWanted.current;
    if (el && want !== undefined && el.value === text) {
      el.setSelectionRange(want, want);
      caretWanted.current = undefined;
    }
  }, [box, text]);

  useEffect(() => {
    if (!open) return;
    let current = true;
    client.call('workspace.files', { query, limit: MAX_ROWS }).then(
      (r) => {
        if (!current) return;
        setAnswer({ query, ...r });
        if (waiting.current === query) {
          waiting.current = undefined;
          if (r.paths[0] !== undefined) pickRef.current(r.paths[0]);
        }
      },
      (e: unknown) => {
        if (!current) return;
        if (waiting.current === query) waiting.current = undefined;
        setAnswer({ query, paths: [], truncated: false, error: failure(e, 'mention.failed') });
      },
    );
    return () => {
      current = false;
    };
  }, [client, folder, open, query]);

  const rows = open && answer ? answer.paths : [];
  const ready = open && answer?.query === query;
  const at = Math.min(active.query === query ? active.row : 0, Math.max(rows.length - 1, 0));
  const optionId = (i: number) => `${id}-opt-${i}`;

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>): boolean =>
    menuKey(e, {
      open,
      ready,
      rows,
      at,
      move: (row) => setActive({ query, row }),
      pick,
      wait: () => {
        waiting.current = query;
      },
      close: () => setClosedOn(text),
    });

  const onSelect = () => {
    const el = box.current;
    if (el) setCaret(el.selectionStart === el.selectionEnd ? el.selectionStart : null);
  };

  // Nothing until main's first answer (no flash of "no match"); then the latest answer stays until the next one.
  const menu =
    open && answer ? (
      <div className="slash-menu file-menu">
        {answer.error ? (
          <p className="error small-text" role="alert">
            <ErrorText error={answer.error} />
          </p>
        ) : rows.length === 0 ? (
          <p className="muted small-text" role="status">
            {t('mention.none', { query: answer.query })}
          </p>
        ) : (
          <ul id={`${id}-list`} role="listbox" aria-label={t('mention.label')}>
            {rows.map((path, i) => (
              <li
                key={path}
                id={optionId(i)}
                role="option"
                aria-selected={i === at}
                className={i === at ? 'active' : undefined}
                // Keep the focus in the box: a click picks without blurring it.
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => pick(path)}
              >
                {path}
              </li>
            ))}
          </ul>
        )}
        {answer.truncated && !answer.error ? <p className="muted small-text">{t('mention.truncated')}</p> : null}
      </div>
    ) : null;

  return {
    aria: open && rows.length ? { 'aria-controls': `${id}-list`, 'aria-activedescendant': optionId(at) } : {},
    onKeyDown,
    onSelect,
    menu,
  };
}
