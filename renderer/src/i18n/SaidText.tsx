// Words main sent, said in the window's language, with what another party said in its own words — a `detail` or
// `error` parameter given as plain text (a provider's error body, a parser's message) — shown as it is, in code, at
// its place in the sentence. Words inside the parameters are said in the window's language as usual.
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { english, type Said } from '../../../preload/contract';

/** Parameters that hold another party's own text (never translated). */
const VERBATIM = new Set(['detail', 'error']);
/** Stands for a verbatim parameter inside the said text until it is split out (never in a translation). */
const MARK = '\u2063';

function sayMarked(t: TFunction, s: Said, raws: string[]): string {
  const replace: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(s.params ?? {})) {
    if (typeof v === 'object') replace[k] = sayMarked(t, v, raws);
    else if (VERBATIM.has(k) && typeof v === 'string' && v) {
      replace[k] = `${MARK}${raws.length}${MARK}`;
      raws.push(v);
    } else replace[k] = v;
  }
  return t(s.code, {
    ns: 'words',
    keySeparator: false,
    nsSeparator: false,
    replace,
    defaultValue: english(s),
  }) as string;
}

/** `words` in the window's language (React escapes the text), or `fallback` for old stored text without words. */
export function SaidText({ words, fallback = '' }: { words: Said | undefined; fallback?: string | undefined }) {
  const { t } = useTranslation();
  if (!words) return <>{fallback}</>;
  const raws: string[] = [];
  const parts = sayMarked(t, words, raws).split(new RegExp(`${MARK}(\\d+)${MARK}`));
  return (
    <>
      {parts.map((p, i) =>
        i % 2 ? (
          <code key={i} className="said">
            {raws[Number(p)]}
          </code>
        ) : (
          p
        ),
      )}
    </>
  );
}
