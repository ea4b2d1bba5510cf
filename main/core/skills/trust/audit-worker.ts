// Worker-thread entry for the audit pool: audits one skill folder per message and posts the report back.
// Runs the same auditor as the main thread (audit.ts): one rule book, never two.
import { parentPort } from 'node:worker_threads';
import { auditSkill } from './audit.js';
import type { ParsedManifest } from '../format/types.js';

parentPort?.on('message', (m: { id: number; dir: string; parsed?: ParsedManifest }) => {
  try {
    parentPort!.postMessage({ id: m.id, report: auditSkill(m.dir, m.parsed ? { parsed: m.parsed } : {}) });
  } catch (e) {
    parentPort!.postMessage({ id: m.id, error: (e as Error).message });
  }
});
