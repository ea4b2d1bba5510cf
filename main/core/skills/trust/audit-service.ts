// What an audit worker does for the pool (audit-serve.ts speaks the protocol): parse SKILL.md files for the catalog,
// keeping each parse for its folder's audit, and audit folders.
import { dirname } from 'node:path';
import { auditFolder } from './audit.js';
import type { AuditService } from './audit-serve.js';
import { parseFoundSkill } from '../format/index.js';
import { parsedManifestOf, type ParsedManifest } from '../format/index.js';

/** Kept parses past this many are forgotten (a folder never audited here). */
const PARSED_MAX = 20_000;

/**
 * A worker's service. The manifest of each SKILL.md it parsed for the catalog is kept, by folder, until that folder's
 * audit: the audit then reads the frontmatter from that parse (it checks the text is still the one parsed; if not it
 * reads it again and its report says so). Bounded: a folder never audited here is forgotten.
 */
export function auditService(): AuditService {
  const parsedByDir = new Map<string, ParsedManifest>();
  return {
    parse(files) {
      if (parsedByDir.size > PARSED_MAX) parsedByDir.clear();
      return files.map((f) => {
        const r = parseFoundSkill(f);
        if (r.manifest) parsedByDir.set(dirname(f), parsedManifestOf(r.manifest));
        return r;
      });
    },
    audit(j) {
      const parsed = j.parsed ?? parsedByDir.get(j.dir);
      parsedByDir.delete(j.dir);
      try {
        return auditFolder(j.dir, parsed ? { parsed } : {});
      } catch (e) {
        return { error: (e as Error).message };
      }
    },
  };
}
