// Warms an audit worker before its first real folder: the sample skills (audit-sample.ts) go through the worker's own
// path — SKILL.md parsed as the catalog asks, the folders audited in a rehearsed round — so real folders run optimised code.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { auditText, quietLinesOf } from './audit.js';
import { rehearseRound, type AuditService } from './audit-serve.js';
import { auditService } from './audit-service.js';
import { SAMPLE_FILES } from './audit-sample.js';
import { parsedManifestOf } from '../format/types.js';
import type { AuditJob } from './audit-pool.js';

/**
 * SKILL.md parses per folder audit in a round: discovery parses every file at once, but a parse is some 10× cheaper
 * than its folder's audit, and V8 optimises a function after a number of calls, not of milliseconds spent in it.
 */
export const PARSES_PER_ROUND = 3;

/** The sample skill folders under the warm-up's folder (writeSampleSkill), in name order; none when it cannot be read. */
export function sampleFolders(root: string): string[] {
  try {
    return readdirSync(root, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => join(root, d.name)).sort();
  } catch {
    return [];
  }
}

/** A second worker's service, which never parsed the samples: a folder taken from another worker's share. */
const other = auditService();

/**
 * One warm-up round through `service` (the worker's own parse and audit), the ways a real round goes: every sample's
 * SKILL.md parsed as the catalog asks, then the folders audited in a rehearsed round, each from that parse (a cold
 * open's audits) or from a copy of it handed over with the job (as the pool's message gives a review's audits); and
 * one folder, in turn, audited by a worker that did not parse it (taken from another's share), reading SKILL.md itself.
 */
export function warmRound(service: AuditService, folders: readonly string[], round: number): void {
  const files = folders.map((d) => join(d, 'SKILL.md'));
  for (let p = 1; p < PARSES_PER_ROUND; p++) service.parse(files);
  const parsed = service.parse(files);
  const jobs = folders.map((dir, i): AuditJob => {
    const m = (i + round) % 3 === 0 ? parsed[i]?.manifest : undefined;
    return { id: -1 - i, dir, ...(m ? { parsed: structuredClone(parsedManifestOf(m)) } : {}) };
  });
  rehearseRound(jobs, service);
  const k = round % folders.length;
  rehearseRound([{ id: -1 - k, dir: folders[k]! }], other);
}

/** Without the sample folders on disk: the sample's texts alone go through the rules. */
export function warmTexts(): void {
  const description = { text: 'Use when the user asks to cut a release, write the changelog or tag a version.', line: 3 };
  SAMPLE_FILES.forEach((f, i) => {
    const quiet = quietLinesOf(Buffer.from(f.text, 'utf8'));
    auditText(f.name, f.text, f.kind, { quiet, ...(i === 0 ? { description } : {}) });
  });
}
