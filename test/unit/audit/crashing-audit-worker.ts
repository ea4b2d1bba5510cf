// A test entry for the audit pool: the audit worker's protocol over the real auditor, except that a folder named
// `crash-exit…` ends the thread silently (process.exit: no 'error' event) and one named `crash-throw…` throws out of it.
import { basename } from 'node:path';
import { parentPort } from 'node:worker_threads';
import { auditFolder } from '../../../main/core/skills/trust/audit.js';
import type { AuditBatch, AuditBatchResult, AuditWorkerReady } from '../../../main/core/skills/trust/audit-pool.js';

parentPort?.on('message', (m: AuditBatch) => {
  const results: AuditBatchResult['results'] = [];
  for (const j of m.jobs) {
    if (basename(j.dir).startsWith('crash-exit')) process.exit(7);
    if (basename(j.dir).startsWith('crash-throw')) throw new Error(`hostile folder ${basename(j.dir)}`);
    results.push({ id: j.id, ...auditFolder(j.dir, j.parsed ? { parsed: j.parsed } : {}) });
  }
  parentPort!.postMessage({ results } satisfies AuditBatchResult);
});
parentPort?.postMessage({ ready: true } satisfies AuditWorkerReady);
