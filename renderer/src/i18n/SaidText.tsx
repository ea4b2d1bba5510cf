// Words main sent, said in the window's language, with what another party said in its own words — a `detail` or
// `error` parameter given as plain text (a provider's error body, a parser's message) — shown as it is, in code, at
// its place in the sentence. Words inside the parameters are said in the window's language as usual.
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { displaySafe, type Said } from '../../../preload/contract';
import { sayWith } from './say';

/** Parameters that hold another party's own text (never translated). */
const VERBATIM = new Set(['detail', 'error']);
/** Stands for a verbatim parameter inside the said text until it is split out (never in a translation). */
const MARK = '\u2063';

/**
 * `words` in the window's language (React escapes the text), or `fallback` for old stored text without words. `safe`
 * (what a person approves, or why a call did not run) writes every control, bidi and invisible character of every part
 * as a visible escape, as displaySafe does.
 */
export function SaidText({
  words,
  fallback = '',
  safe = false,
}: {
  words: Said | undefined;
  fallback?: string | undefined;
  safe?: boolean;
}) {
  const { t } = useTranslation();
  const shown = safe ? displaySafe : (text: string) => text;
  if (!words) return <>{shown(fallback)}</>;
  const raws: string[] = [];
  // `safe` escapes a plain parameter before it goes into the sentence: a MARK inside it shows, never passes for a slot.
  const mark = (k: string, v: string | number): string | number => {
    if (typeof v !== 'string') return v;
    if (!VERBATIM.has(k) || !v) return shown(v);
    raws.push(v);
    return `${MARK}${raws.length - 1}${MARK}`;
  };
  const parts = sayWith(t, words, mark).split(new RegExp(`${MARK}(\\d+)${MARK}`));
  return (
    <>
      {parts.map((p, i) =>
        i % 2 ? (
          <code key={i} className="said">
            {shown(raws[Number(p)] ?? '')}
          </code>
        ) : (
          shown(p)
        ),
      )}
    </>
  );
}

/**
 * The window's sentence `k` with `children` (another party's text, or a sentence around it, as an element) at its
 * `{{slot}}`. A translation that lost its slot still shows `children`, after it.
 */
export function Sentence({
  k,
  slot,
  params,
  children,
}: {
  k: string;
  slot: string;
  params?: Readonly<Record<string, string | number>> | undefined;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const around = t(k, { ...params, [slot]: MARK });
  const at = around.indexOf(MARK);
  if (at < 0)
    return (
      <>
        {around} {children}
      </>
    );
  return (
    <>
      {around.slice(0, at)}
      {children}
      {around.slice(at + MARK.length)}
    </>
  );
}
