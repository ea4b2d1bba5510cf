// Worker-thread entry for the audit pool: parses SKILL.md files for the catalog, audits a batch of skill folders per
// message and posts their reports back in one message. Runs the same parser and auditor as the main thread
// (format/manifest.ts, audit.ts): one rule book, never two.
import { dirname } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { auditFolder } from './audit.js';
import { warmAuditor } from './audit-warm.js';
import { parseSkillFile } from '../format/manifest.js';
import { parsedManifestOf, type ParsedManifest } from '../format/types.js';
import type { AuditBatch, AuditBatchResult, AuditWorkerReady, ParseRequest, ParseResult } from './audit-pool.js';

/**
 * The manifest of each SKILL.md this worker parsed for the catalog, by folder, until that folder's audit: the audit
 * then reads the frontmatter from that parse (it checks the text is still the one parsed; if not it reads it again and
 * its report says so). Bounded: a folder never audited here is forgotten.
 */
const parsedByDir = new Map<string, ParsedManifest>();
const PARSED_MAX = 20_000;

// Warm up on the sample in small steps while there is nothing to do: the first real folders then run optimised code,
// and a batch that arrives meanwhile stops the warm-up (it waits one step at most).
const WARM_STEP = 4;
const data = workerData as { warm?: number; warmDir?: string } | undefined;
let warmLeft = data?.warm ?? 0;
let told = false;
const ready = (): void => {
  if (told) return;
  told = true;
  parentPort?.postMessage({ ready: true } satisfies AuditWorkerReady);
};
const warmStep = (): void => {
  if (warmLeft <= 0) return ready();
  const n = Math.min(WARM_STEP, warmLeft);
  warmAuditor(n, data?.warmDir);
  warmLeft -= n;
  setImmediate(warmStep);
};

parentPort?.on('message', (m: AuditBatch | ParseRequest) => {
  warmLeft = 0;
  ready();
  if ('parse' in m) {
    if (parsedByDir.size > PARSED_MAX) parsedByDir.clear();
    const results = m.files.map((f) => {
      // As the catalog parses a found file (parse-drain.ts parseOne): diagnostics name the real file.
      const r = parseSkillFile(f, { folderName: null });
      if (r.manifest) parsedByDir.set(dirname(f), parsedManifestOf(r.manifest));
      return r;
    });
    parentPort!.postMessage({ parsed: m.parse, results } satisfies ParseResult);
    return;
  }
  const results: AuditBatchResult['results'] = [];
  for (const j of m.jobs) {
    const parsed = j.parsed ?? parsedByDir.get(j.dir);
    parsedByDir.delete(j.dir);
    try {
      results.push({ id: j.id, ...auditFolder(j.dir, parsed ? { parsed } : {}) });
    } catch (e) {
      results.push({ id: j.id, error: (e as Error).message });
    }
  }
  parentPort!.postMessage({ results } satisfies AuditBatchResult);
});
warmStep();
