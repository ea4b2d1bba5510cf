// Skill .zip files the renderer sent as bytes (a drop on the window in serve mode, where there is no file path):
// checked (size, zip signature), kept in <dataDir>/uploads/<random>/ until their install is decided, then removed.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { MAX_UPLOAD_BYTES } from '../../../preload/contract.js';
import { ServiceError } from './dispatch.js';
import { say } from '../base/index.js';

/** Uploads older than this are removed the next time something is uploaded (a pending install never decided). */
const MAX_AGE_MS = 24 * 60 * 60 * 1000;

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
export function saveUpload(dataDir: string, filename: string, base64: string, now = Date.now()): string {
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
  pruneUploads(dataDir, now);
  const dir = mkdtempSync(join(root, 'zip-'));
  const file = join(dir, uploadName(filename));
  writeFileSync(file, bytes, { mode: 0o600, flag: 'wx' });
  return file;
}

/** True when `file` is one of the stored uploads (an install source that is ours to delete). */
export function isUpload(dataDir: string, file: string): boolean {
  const rel = relative(uploadsDir(dataDir), file);
  return rel !== '' && !rel.startsWith('..') && rel.split(sep).length === 2;
}

/** Remove a stored upload (its folder); anything that is not an upload is left alone. */
export function dropUpload(dataDir: string, file: string): void {
  if (isUpload(dataDir, file)) rmSync(dirname(file), { recursive: true, force: true });
}

/** Remove uploads left from installs nobody decided. */
export function pruneUploads(dataDir: string, now = Date.now()): void {
  const root = uploadsDir(dataDir);
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return;
  }
  for (const n of names) {
    const p = join(root, n);
    try {
      if (now - statSync(p).mtimeMs > MAX_AGE_MS) rmSync(p, { recursive: true, force: true });
    } catch {
      // gone meanwhile
    }
  }
}
