// React context carrying the KnackClient: screens call useClient(), never a transport directly.
// The entry point provides the contract client; component tests provide an in-memory one.
import { createContext, useContext, type ReactNode } from 'react';
import i18n from 'i18next';
import type { KnackClient } from './client';
import type { Said } from '../../../preload/contract';
import { sayWith } from '../i18n/say';

const Ctx = createContext<KnackClient | null>(null);

export function ClientProvider({ client, children }: { client: KnackClient; children: ReactNode }) {
  return <Ctx.Provider value={client}>{children}</Ctx.Provider>;
}

export function useClient(): KnackClient {
  const c = useContext(Ctx);
  if (!c) throw new Error('useClient outside <ClientProvider>');
  return c;
}

/** A contract error `{code, message}` or any thrown value, as one line for people. */
export function errorText(e: unknown): string {
  // Words main sent with the error: said in the window's language.
  const words = e && typeof e === 'object' && 'words' in e ? (e as { words?: Said }).words : undefined;
  if (words) return sayWith(i18n.t, words);
  if (e && typeof e === 'object' && 'message' in e) return String((e as { message: unknown }).message);
  return String(e);
}
