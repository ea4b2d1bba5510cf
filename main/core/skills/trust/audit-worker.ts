// Worker-thread entry for the audit pool: audits a batch of skill folders per message and posts their reports back
// in one message. Runs the same auditor as the main thread (audit.ts): one rule book, never two.
import { parentPort, workerData } from 'node:worker_threads';
import { auditFolder } from './audit.js';
import { warmAuditor } from './audit-warm.js';
import type { AuditBatch, AuditBatchResult, AuditWorkerReady } from './audit-pool.js';

// Warm first (batches posted meanwhile wait in the port): the first real folders then run optimised code.
const warm = (workerData as { warm?: number } | undefined)?.warm;
if (warm) warmAuditor(warm);
parentPort?.postMessage({ ready: true } satisfies AuditWorkerReady);

parentPort?.on('message', (m: AuditBatch) => {
  const results: AuditBatchResult['results'] = [];
  for (const j of m.jobs) {
    try {
      results.push({ id: j.id, ...auditFolder(j.dir, j.parsed ? { parsed: j.parsed } : {}) });
    } catch (e) {
      results.push({ id: j.id, error: (e as Error).message });
    }
  }
  parentPort!.postMessage({ results } satisfies AuditBatchResult);
});
