// Save-as-skill drafts on disk: the text (the window's editor, `/save-skill` in `knack chat`) staged as
// <dataDir>/uploads/draft-<random>/skill/SKILL.md — a held copy (held.ts): an install waiting for approval keeps it,
// deciding that install removes it, and at open one no approval waits for is removed — so the audit and the install
// read a real folder, exactly as for any other install.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { auditSkill, type AuditReport } from './audit.js';
import { dropHeld } from './held.js';

/** Write the draft; returns the staged skill folder (an install source, and a held copy dropHeld removes). */
export function stageDraft(dataDir: string, text: string): string {
  const root = join(dataDir, 'uploads');
  mkdirSync(root, { recursive: true, mode: 0o700 });
  const dir = join(mkdtempSync(join(root, 'draft-')), 'skill');
  mkdirSync(dir);
  writeFileSync(join(dir, 'SKILL.md'), text, { mode: 0o600, flag: 'wx' });
  return dir;
}

/** The audit of a draft as it stands (nothing installed, nothing kept). */
export function auditDraft(dataDir: string, text: string): AuditReport {
  const dir = stageDraft(dataDir, text);
  try {
    return auditSkill(dir);
  } finally {
    dropHeld(dataDir, dir);
  }
}
