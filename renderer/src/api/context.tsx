// React context carrying the KnackClient: screens call useClient(), never a transport directly.
// The entry point provides the contract client; component tests provide an in-memory one.
import { createContext, useContext, type ReactNode } from 'react';
import type { KnackClient } from './client';

const Ctx = createContext<KnackClient | null>(null);

export function ClientProvider({ client, children }: { client: KnackClient; children: ReactNode }) {
  return <Ctx.Provider value={client}>{children}</Ctx.Provider>;
}

export function useClient(): KnackClient {
  const c = useContext(Ctx);
  if (!c) throw new Error('useClient outside <ClientProvider>');
  return c;
}
