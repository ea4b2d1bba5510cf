// A failure as the window shows it. Main's words are said in the window's language, with another party's own text
// (SQLite's, git's, a keychain's, a provider's) in code where SaidText puts it; a thrown value without words is its
// own message, in code after the window's lead. A failure may stand inside one of the window's own sentences, at its
// `{{error}}`. React escapes every part: nothing of a failure is read as HTML or markdown.
import i18n from 'i18next';
import type { Said } from '../../../preload/contract';
import { SaidText, Sentence } from './SaidText';
import { sayWith } from './say';

/** What failed, and the window's sentence it is said in, if any. */
export interface Failure {
  /** What was thrown: a contract error with main's words, or any other value (its message is shown as it is). */
  readonly error: unknown;
  /** A key of the window's strings whose `{{error}}` is the failure, with its other parameters. */
  readonly key?: string;
  readonly params?: Readonly<Record<string, string | number>>;
}

/** What an error line or a notice shows: a failure, or a sentence of the window's own, already in its language. */
export type Shown = Failure | string;

export function failure(error: unknown, key?: string, params?: Record<string, string | number>): Failure {
  return { error, ...(key ? { key } : {}), ...(params ? { params } : {}) };
}

function wordsOf(e: unknown): Said | undefined {
  return e && typeof e === 'object' && 'words' in e ? (e as { words?: Said }).words : undefined;
}

function messageOf(e: unknown): string {
  return e && typeof e === 'object' && 'message' in e ? String((e as { message: unknown }).message) : String(e);
}

/** The window's sentence around the failure: its own key, or the lead of a failure without words. */
function lead(f: Failure, words: Said | undefined, error: string): string | undefined {
  if (f.key) return i18n.t(f.key, { ...f.params, error });
  return words ? undefined : i18n.t('common.failed', { error });
}

/** `shown` as one plain line, in the window's language now: for a title, an aria-label, or telling notices apart. */
export function shownText(shown: Shown): string {
  if (typeof shown === 'string') return shown;
  const words = wordsOf(shown.error);
  const said = words ? sayWith(i18n.t, words) : messageOf(shown.error);
  return lead(shown, words, said) ?? said;
}

/** `error` in the window's language: the translated lead as text, another party's own words in code. */
export function ErrorText({ error }: { error: Shown }) {
  if (typeof error === 'string') return <>{error}</>;
  const words = wordsOf(error.error);
  const said = words ? <SaidText words={words} /> : <code className="said">{messageOf(error.error)}</code>;
  if (error.key)
    return (
      <Sentence k={error.key} slot="error" params={error.params}>
        {said}
      </Sentence>
    );
  if (words) return said;
  return (
    <Sentence k="common.failed" slot="error">
      {said}
    </Sentence>
  );
}
