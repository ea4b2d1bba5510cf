// API keys encrypted with the OS keychain (Electron's safeStorage) in <dataDir>/keys.json, readable only by the user.
// Electron-free: main.ts passes safeStorage as the cipher. A key goes in and is handed to the provider; the renderer
// only ever learns whether one is stored.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KeyStore } from '../core/service/index.js';
import { setAside, writeFileAtomic } from '../core/base/index.js';

export interface Cipher {
  isEncryptionAvailable(): boolean;
  encryptString(plain: string): Buffer;
  decryptString(encrypted: Buffer): string;
}

const KEYS_FILE = 'keys.json';

export function safeKeyStore(dataDir: string, cipher: Cipher): KeyStore {
  const file = join(dataDir, KEYS_FILE);
  /** The stored keys; undefined when the file is there but is not a JSON object (damaged). */
  const readAll = (): Record<string, string> | undefined => {
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(file, 'utf8'));
    } catch (e) {
      return (e as NodeJS.ErrnoException).code === 'ENOENT' ? {} : undefined;
    }
    return raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, string>) : undefined;
  };
  const read = (): Record<string, string> => readAll() ?? {};
  /** A damaged file is moved aside before anything is written, never written over: the keys it held stay on disk. */
  const readForWrite = (): Record<string, string> => {
    const all = readAll();
    if (all) return all;
    setAside(file);
    return {};
  };
  const write = (all: Record<string, string>) => {
    writeFileAtomic(file, JSON.stringify(all, null, 2) + '\n', { mode: 0o600 });
  };
  return {
    kind: 'os-keychain',
    get(id) {
      const blob = read()[id];
      if (typeof blob !== 'string' || !cipher.isEncryptionAvailable()) return undefined;
      try {
        return cipher.decryptString(Buffer.from(blob, 'base64'));
      } catch {
        return undefined; // encrypted by another user or keychain: treat as absent
      }
    },
    set(id, key) {
      if (!cipher.isEncryptionAvailable())
        throw new Error('the OS keychain is not available, so the key cannot be stored encrypted');
      write({ ...readForWrite(), [id]: cipher.encryptString(key).toString('base64') });
    },
    delete(id) {
      const all = readForWrite();
      if (!(id in all)) return;
      delete all[id];
      write(all);
    },
  };
}
