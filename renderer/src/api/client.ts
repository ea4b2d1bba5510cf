// The renderer's one door to the main process: the contract's typed client (Electron bridge or serve-mode WebSocket,
// chosen by connectFromPage) with what the page needs to know of its shell. Tests inject an in-memory one.
import { connectFromPage, type KnackClient as ContractClient } from '../../../preload/client';

/** A model picked in the chat header: its id and, when it is not of the provider in use, the provider it is of. */
export interface ModelPick {
  model: string;
  provider?: string;
}

export interface KnackClient extends Pick<ContractClient, 'call' | 'on'> {
  /** 'electron' offers native dialogs; 'serve' uses path fields. */
  readonly mode: 'electron' | 'serve';
  /** The desktop's native pickers (dialog.* calls) are there; serve mode types paths instead. */
  readonly nativeDialogs: boolean;
}

export async function connect(onDisconnect?: () => void): Promise<KnackClient> {
  const k = connectFromPage(onDisconnect ? { onDisconnect } : {});
  const info = await k.call('app.info', {});
  return { call: k.call, on: k.on, mode: info.transport, nativeDialogs: info.nativeDialogs };
}
