// Worker-thread entry for the audit pool: audits a batch of skill folders per message and posts their reports back
// in one message. Runs the same auditor as the main thread (audit.ts): one rule book, never two.
import { parentPort, workerData } from 'node:worker_threads';
import { auditFolder } from './audit.js';
import { warmAuditor } from './audit-warm.js';
import type { AuditBatch, AuditBatchResult, AuditWorkerReady } from './audit-pool.js';

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

parentPort?.on('message', (m: AuditBatch) => {
  warmLeft = 0;
  ready();
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
warmStep();
