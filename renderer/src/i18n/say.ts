// Words main sent (a code plus parameters, preload/words.ts) said in the window's language. Words inside the
// parameters are said first; a code this window does not know falls back to its English, never to nothing. The
// window's English is the CLI's except where that names a command line (words-en.ts).
// The result is text: React escapes it where it is shown (no HTML is ever built from it).
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { english, type Said } from '../../../preload/contract';

/** `leaf`: what a plain parameter stands as in the text (SaidText marks another party's own words with it). */
export function sayWith(
  t: TFunction,
  s: Said,
  leaf: (key: string, value: string | number) => string | number = (_k, v) => v,
): string {
  const replace: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(s.params ?? {}))
    replace[k] = typeof v === 'object' ? sayWith(t, v, leaf) : leaf(k, v);
  // `replace` keeps a parameter named like an option (count, context, lng) from being read as one; no key or
  // namespace separators: a code is one key of the `words` namespace.
  return t(s.code, {
    ns: 'words',
    keySeparator: false,
    nsSeparator: false,
    replace,
    defaultValue: english(s),
  }) as string;
}

/** `say(words)` in the current language; `say(words, fallback)` for old stored text that has no words yet. */
export function useSay(): (s: Said | undefined, fallback?: string) => string {
  const { t } = useTranslation();
  return (s, fallback = '') => (s ? sayWith(t, s) : fallback);
}
