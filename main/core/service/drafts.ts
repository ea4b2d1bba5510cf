// Save-as-skill drafts on disk: the text from the editor staged as <dataDir>/uploads/draft-<random>/skill/SKILL.md
// (a held copy, skills/trust/held.ts: removed once its install is decided) so the audit and the install read a real
// folder, exactly as for any other install.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { auditSkill, type AuditReport } from '../skills/trust/index.js';
import { dropHeld } from '../skills/trust/index.js';
import { uploadsDir } from './uploads.js';

/** Write the draft; returns the staged skill folder (an install source, and a held copy dropHeld removes). */
export function stageDraft(dataDir: string, text: string): string {
  const root = uploadsDir(dataDir);
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
