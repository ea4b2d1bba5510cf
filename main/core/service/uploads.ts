// Skill .zip files the renderer sent as bytes (a drop on the window in serve mode, where there is no file path):
// checked (size, zip signature), kept in <dataDir>/uploads/<random>/ while their install waits (a held copy: see
// skills/trust/held.ts), then removed.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_UPLOAD_BYTES } from '../../../preload/contract.js';
import { ServiceError } from './dispatch.js';
import { say } from '../base/index.js';

export function uploadsDir(dataDir: string): string {
  return join(dataDir, 'uploads');
}

/** A file name safe on every file system: letters, digits, ".", "-", "_" (anything else becomes "_"), ending .zip. */
export function uploadName(filename: string): string {
  const base = filename.split(/[\\/]/).pop() ?? '';
  const stem = base
    .replace(/\.zip$/i, '')
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}._-]/gu, '_')
    .replace(/^\.+/, '')
    .slice(0, 100);
  return `${stem || 'skill'}.zip`;
}

/** Decode and store one upload; refuses what is too large or not a zip. Returns the stored file's path. */
export function saveUpload(dataDir: string, filename: string, base64: string): string {
  if (!/\.zip$/i.test(filename)) throw new ServiceError('refused', say('upload.notZipName', { file: filename }));
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length > MAX_UPLOAD_BYTES) {
    throw new ServiceError(
      'refused',
      say('upload.tooBig', { file: filename, size: bytes.length, max: MAX_UPLOAD_BYTES }),
    );
  }
  // Local file header, or the end record of an empty archive.
  const sig = bytes.subarray(0, 4).toString('hex');
  if (sig !== '504b0304' && sig !== '504b0506')
    throw new ServiceError('refused', say('upload.notZip', { file: filename }));
  const root = uploadsDir(dataDir);
  mkdirSync(root, { recursive: true, mode: 0o700 });
  const dir = mkdtempSync(join(root, 'zip-'));
  const file = join(dir, uploadName(filename));
  writeFileSync(file, bytes, { mode: 0o600, flag: 'wx' });
  return file;
}
