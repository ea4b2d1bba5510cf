// Worker-thread entry for the audit pool: parses SKILL.md files for the catalog and audits skill folders in rounds
// (audit-serve.ts). Runs the same parser and auditor as the main thread (format/manifest.ts, audit.ts): one rule
// book, never two.
import { dirname } from 'node:path';
import { workerData } from 'node:worker_threads';
import { auditFolder } from './audit.js';
import { warmAuditor } from './audit-warm.js';
import { sayReady, serveAuditPool } from './audit-serve.js';
import { parseSkillFile } from '../format/manifest.js';
import { parsedManifestOf, type ParsedManifest } from '../format/types.js';

/**
 * The manifest of each SKILL.md this worker parsed for the catalog, by folder, until that folder's audit: the audit
 * then reads the frontmatter from that parse (it checks the text is still the one parsed; if not it reads it again and
 * its report says so). Bounded: a folder never audited here is forgotten.
 */
const parsedByDir = new Map<string, ParsedManifest>();
const PARSED_MAX = 20_000;

// Warm up on the sample in small steps while there is nothing to do: the first real folders then run optimised code,
// and a message that arrives meanwhile stops the warm-up (it waits one step, one sample round, at most). The first
// step waits a turn too: work already waiting when the worker has loaded (a `knack` command) goes first.
const WARM_STEP = 1;
const data = workerData as { warm?: number; warmDir?: string } | undefined;
let warmLeft = data?.warm ?? 0;
let told = false;
const ready = (): void => {
  if (told) return;
  told = true;
  sayReady();
};
const warmStep = (): void => {
  if (warmLeft <= 0) return ready();
  const n = Math.min(WARM_STEP, warmLeft);
  warmAuditor(n, data?.warmDir);
  warmLeft -= n;
  setImmediate(warmStep);
};

serveAuditPool({
  heard() {
    warmLeft = 0;
    ready();
  },
  parse(files) {
    if (parsedByDir.size > PARSED_MAX) parsedByDir.clear();
    return files.map((f) => {
      // As the catalog parses a found file (parse-drain.ts parseOne): diagnostics name the real file.
      const r = parseSkillFile(f, { folderName: null });
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
});
setImmediate(warmStep);
