// The `@` menu of the message box: `@` at the start of the box or after a space lists the open folder's files, ranked
// by main for what follows the `@` (`workspace.files`, fuzzy). ↑/↓ move, Enter or Tab picks (the path, relative to
// the folder, replaces `@query`; quoted as a JSON string when it holds a space or a quote), Esc closes. A mention
// names a file and attaches nothing: the model reads it with read_file, and the gate decides that read. Each path is
// React text, never HTML. Like the `/` menu, kept out of the box's component: it spreads `aria`, asks `onKeyDown`
// first and renders `menu` beside it.
import { useEffect, useId, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { menuKey } from './menu-keys';
import { useClient } from '../api/context';
import { ErrorText, failure, type Failure } from '../i18n/ErrorText';
import { useView } from '../state/store';

/** Rows the menu shows at most. */
const MAX_ROWS = 8;

const MENTION = /(^|\s)@([^\s@]*)$/u;

/** What follows an `@` that starts the box's last word; undefined when the menu does not apply (`me@example.com`). */
export function mentionQuery(text: string): string | undefined {
  return MENTION.exec(text)?.[2];
}

/** The box's text with the last word's `@query` replaced by `path` (quoted when it holds a space or a quote). */
export function mentionText(text: string, path: string): string {
  const shown = /[\s"'\\]/u.test(path) ? JSON.stringify(path) : path;
  return text.replace(MENTION, (_m, before: string) => `${before}${shown} `);
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
  menu: ReactNode;
}

export function useFileMenu(text: string, setText: (t: string) => void): FileMenu {
  const { t } = useTranslation();
  const id = useId();
  const client = useClient();
  const folder = useView((s) => s.workspace?.path);
  const [active, setActive] = useState(0);
  // The text the user closed the menu on (Esc): it stays closed until the text changes.
  const [closedOn, setClosedOn] = useState<string>();
  const [answer, setAnswer] = useState<Answer>();
  const query = folder ? mentionQuery(text) : undefined;
  const open = query !== undefined && closedOn !== text;

  useEffect(() => {
    if (!open) return;
    let current = true;
    client.call('workspace.files', { query, limit: MAX_ROWS }).then(
      (r) => current && setAnswer({ query, ...r }),
      (e: unknown) => current && setAnswer({ query, paths: [], truncated: false, error: failure(e, 'mention.failed') }),
    );
    return () => {
      current = false;
    };
  }, [client, folder, open, query]);

  const rows = open && answer ? answer.paths : [];
  const at = Math.min(active, Math.max(rows.length - 1, 0));
  const optionId = (i: number) => `${id}-opt-${i}`;

  const pick = (path: string) => {
    setText(mentionText(text, path));
    setActive(0);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>): boolean =>
    menuKey(e, { open, rows, at, move: setActive, pick, close: () => setClosedOn(text) });

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
    menu,
  };
}
