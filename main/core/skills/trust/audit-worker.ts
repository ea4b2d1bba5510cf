// Worker-thread entry for the audit pool: parses SKILL.md files for the catalog and audits skill folders in rounds
// (audit-service.ts, audit-serve.ts). Runs the same parser and auditor as the main thread (format/manifest.ts,
// audit.ts): one rule book, never two.
import { workerData } from 'node:worker_threads';
import { warmUp } from './audit-warm.js';
import { sayReady, serveAuditPool } from './audit-serve.js';
import { auditService } from './audit-service.js';

const service = auditService();

// Warm up on the samples in small steps while there is nothing to do: the first real folders then run optimised code,
// and a message that arrives meanwhile stops the warm-up (it waits one step, about one sample folder's audit, at most).
// The first step waits a turn too: work already waiting when the worker has loaded (a `knack` command) goes first.
const data = workerData as { warm?: number; warmDir?: string } | undefined;
let warming = true;
const nextStep = warmUp(service, data?.warmDir, data?.warm ?? 0);
let told = false;
const ready = (): void => {
  if (told) return;
  told = true;
  sayReady();
};
const warmStep = (): void => {
  let more = false;
  try {
    more = warming && nextStep();
  } catch {
    // the warm-up is only a head start
    more = warming;
  }
  if (!more) return ready();
  setImmediate(warmStep);
};

serveAuditPool({
  ...service,
  heard() {
    warming = false;
    ready();
  },
});
setImmediate(warmStep);
