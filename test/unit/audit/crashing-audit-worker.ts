// A test entry for the audit pool: the audit worker's protocol over the real auditor, except that a folder named
// `crash-exit…` ends the thread silently (process.exit: no 'error' event), one named `crash-throw…` throws out of it,
// one named `hang…` never returns, and a parse request holding a `crash-parse…` folder ends the thread.
import { basename, dirname } from 'node:path';
import { parentPort } from 'node:worker_threads';
import { auditFolder } from '../../../main/core/skills/trust/audit.js';
import { parseSkillFile } from '../../../main/core/skills/format/manifest.js';
import type { AuditBatch, AuditBatchResult, AuditWorkerReady, ParseRequest, ParseResult } from '../../../main/core/skills/trust/audit-pool.js';

parentPort?.on('message', (m: AuditBatch | ParseRequest) => {
  if ('parse' in m) {
    if (m.files.some((f) => basename(dirname(f)).startsWith('crash-parse'))) process.exit(9);
    parentPort!.postMessage({ parsed: m.parse, results: m.files.map((f) => parseSkillFile(f, { folderName: null })) } satisfies ParseResult);
    return;
  }
  const results: AuditBatchResult['results'] = [];
  for (const j of m.jobs) {
    if (basename(j.dir).startsWith('crash-exit')) process.exit(7);
    if (basename(j.dir).startsWith('crash-throw')) throw new Error(`hostile folder ${basename(j.dir)}`);
    // A folder that hangs the auditor (a runaway loop): the thread never answers.
    if (basename(j.dir).startsWith('hang')) for (;;);
    results.push({ id: j.id, ...auditFolder(j.dir, j.parsed ? { parsed: j.parsed } : {}) });
  }
  parentPort!.postMessage({ results } satisfies AuditBatchResult);
});
parentPort?.postMessage({ ready: true } satisfies AuditWorkerReady);
