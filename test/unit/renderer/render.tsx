// Renders a screen inside the providers the app uses (client, i18n) with a chosen store state.
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { ClientProvider } from '../../../renderer/src/api/context';
import { initI18n, type Lang } from '../../../renderer/src/i18n';
import { useView, type ViewState } from '../../../renderer/src/state/store';
import { folder, type MemoryClient } from './memory-client';

const initial = useView.getState();

export function renderWith(ui: ReactElement, client: MemoryClient, state: Partial<ViewState> = {}, lang: Lang = 'en') {
  initI18n(lang);
  useView.setState({ ...initial, ...state }, true);
  return render(<ClientProvider client={client}>{ui}</ClientProvider>);
}

export const WS = folder('/home/me/alpha');

/** Three English words in a row: what a Chinese window must not show outside a name, path or value. */
export const ENGLISH_SENTENCE = /\b[A-Za-z]{2,}\b(?:[\s,]+\b[A-Za-z]{2,}\b){2,}/;

/** An element's text without what it shows as it is, in code (another party's own words, a command, a path). */
export function outsideCode(el: HTMLElement): string {
  const copy = el.cloneNode(true) as HTMLElement;
  for (const c of copy.querySelectorAll('code')) c.remove();
  return copy.textContent ?? '';
}
