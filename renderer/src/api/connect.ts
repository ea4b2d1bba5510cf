// Builds the KnackClient for this window from the typed contract: Electron's window.knack bridge, or serve
// mode's WebSocket. Filled in against the contract from the shell (issue 12).
import type { KnackClient } from './client';

export async function connect(): Promise<KnackClient> {
  throw new Error('The contract client is not wired yet.');
}
