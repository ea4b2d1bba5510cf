// Warms the auditor in a fresh thread: the built-in sample skill (audit-sample.ts) audited a few times through the same
// steps a discovered folder takes, so the first real folders run optimised code, not cold code.
import { join } from 'node:path';
import { auditFolder, auditText, quietLinesOf } from './audit.js';
import { parseSkillFile } from '../format/manifest.js';
import { parsedManifestOf } from '../format/types.js';
import { SAMPLE_FILES } from './audit-sample.js';

/**
 * Audit the sample skill `rounds` times: with `dir` (the sample written to disk by writeSampleSkill), its SKILL.md is
 * parsed as the catalog parses it and the folder audited with and without that parse (the file walk, reads, hashing,
 * frontmatter, rules, report); without it, its texts alone go through the rules.
 */
export function warmAuditor(rounds: number, dir?: string): void {
  for (let r = 0; r < rounds; r++) {
    try {
      if (!dir) throw new Error('no folder');
      const m = parseSkillFile(join(dir, 'SKILL.md'), { folderName: null }).manifest;
      auditFolder(dir, m ? { parsed: parsedManifestOf(m) } : {});
      auditFolder(dir);
    } catch {
      warmTexts();
    }
  }
}

function warmTexts(): void {
  const description = { text: 'Use when the user asks to cut a release, write the changelog or tag a version.', line: 3 };
  SAMPLE_FILES.forEach((f, i) => {
    const quiet = quietLinesOf(Buffer.from(f.text, 'utf8'));
    auditText(f.name, f.text, f.kind, { quiet, ...(i === 0 ? { description } : {}) });
  });
}
