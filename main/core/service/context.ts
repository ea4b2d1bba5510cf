// What every group of contract handlers reaches through: the open workspace, its store, the event hub, the
// transport's native abilities (dialogs, key store). Throws the contract's errors when a part is missing.
import type { KnackWorkspace } from '../workspace.js';
import type { Store } from '../store/index.js';
import type { KnackPaths } from '../config/index.js';
import type { EventHub } from './dispatch.js';
import type { SettingsView } from '../../../preload/contract.js';

/** Native dialogs (Electron only). */
export interface Dialogs {
  pickFolder(): Promise<string | null>;
  pickSkillSource(kind: 'folder' | 'zip'): Promise<string | null>;
  /** Show a file in the system's file manager (its folder opened, the file selected). */
  showInFolder?(file: string): Promise<void>;
}

/** Where API keys live (Electron: safeStorage; serve mode: the providers file, readable only by the user). */
export interface KeyStore {
  readonly kind: 'os-keychain' | 'file' | 'memory';
  get(providerId: string): string | undefined;
  set(providerId: string, key: string): void;
  delete(providerId: string): void;
}

export interface ServiceContext {
  readonly paths: KnackPaths;
  readonly events: EventHub;
  /** The open workspace; throws ServiceError('no_workspace') when none is open. */
  workspace(): KnackWorkspace;
  /** The open workspace's database; throws ServiceError('unavailable') when it could not be opened. */
  store(): Store;
  /** Settings as the renderer sees them (never a key). */
  settingsView(): SettingsView;
}
