// Builds the KnackClient for this window from the typed contract: Electron's window.knack bridge, or serve
// mode's WebSocket. Wired to the shell's contract client as soon as it is on main.
import type { KnackClient } from './client';

export async function connect(_onDisconnect?: () => void): Promise<KnackClient> {
  throw new Error('This build has no connection to the Knack engine yet; use the knack command line.');
}
