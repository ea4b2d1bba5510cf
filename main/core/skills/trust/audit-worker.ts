// Worker-thread entry for the audit pool: parses SKILL.md files for the catalog and audits skill folders in rounds
// (audit-service.ts, audit-serve.ts). Runs the same parser and auditor as the main thread (format/manifest.ts,
// audit.ts): one rule book, never two.
import { sayReady, serveAuditPool } from './audit-serve.js';
import { auditService } from './audit-service.js';

serveAuditPool(auditService());
sayReady();
