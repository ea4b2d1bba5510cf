// Warms an audit worker before its first real folder: the sample skills (audit-sample.ts) go through the worker's own
// path — SKILL.md parsed as the catalog asks, the folders audited in a rehearsed round — so real folders run optimised code.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { auditText, quietLinesOf } from './audit.js';
import { rehearseRound, type AuditService } from './audit-serve.js';
import { auditService } from './audit-service.js';
import { REPEAT_COPIES, REPEAT_DIR, repeatName, SAMPLE_FILES } from './audit-sample.js';
import { parsedManifestOf } from '../format/types.js';

/**
 * SKILL.md parses per folder audit in the warm-up: discovery parses every file at once, but a parse is some 10× cheaper
 * than its folder's audit, and V8 optimises a function after a number of calls, not of milliseconds spent in it.
 */
export const PARSES_PER_ROUND = 3;

/** The sample skill folders under the warm-up's folder (writeSampleSkill), in name order; none when it cannot be read. */
export function sampleFolders(root: string): string[] {
  try {
    return readdirSync(root, { withFileTypes: true })
      .filter((d) => d.isDirectory() && d.name !== REPEAT_DIR)
      .map((d) => join(root, d.name))
      .sort();
  } catch {
    return [];
  }
}

/**
 * Repeat slices per warm-up round. They come after every round's sample slices, each one parsing the REPEAT_COPIES
 * copies of the repeat skill (audit-sample.ts) in one request and auditing them in one rehearsed round, as a real
 * open's batch goes. V8 optimises a function once it has run enough of its own bytecode, and some 500 calls after its
 * feedback last changed: a function called once per folder or per file (the folder walk, the report, the manifest
 * read, the SKILL.md parse) needs some 1,500–2,500 calls. The varied samples give it eleven per round at several times
 * a repeat folder's price; with the samples alone (60 rounds) these functions were compiled during the first opens
 * after launch, on the cores the open needed (`--trace-opt`: auditFolder, folderResult, readManifest, nameAndTitle,
 * auditTextOf … in opens 1–3, 60–110 ms of compiling per open).
 */
export const REPEAT_SLICES = 12;

/** The repeat skill's copies under the warm-up's folder (writeSampleSkill), in name order. */
export function repeatFolders(root: string): string[] {
  return Array.from({ length: REPEAT_COPIES }, (_, n) => join(root, REPEAT_DIR, repeatName(n)));
}

/**
 * The warm-up of `rounds` rounds from the sample folder `root`, one slice per call (each about one sample folder's
 * audit or one repeat batch: a real request that arrives meanwhile waits little more than that); false once done.
 * First every round's sample slices (warmSlice: feedback as broad as real folders give), then its repeat slices.
 * Without readable samples, the sample texts alone (warmTexts), once per round.
 */
export function warmUp(service: AuditService, root: string | undefined, rounds: number): () => boolean {
  const folders = root ? sampleFolders(root) : [];
  if (!folders.length) {
    let left = rounds;
    return () => {
      if (left <= 0) return false;
      left--;
      warmTexts();
      return true;
    };
  }
  const repeats = repeatFolders(root!);
  const sampleSteps = rounds * slicesPerRound(folders);
  const steps = sampleSteps + rounds * REPEAT_SLICES;
  let step = 0;
  return () => {
    if (step >= steps) return false;
    const k = step++;
    if (k < sampleSteps) warmSlice(service, folders, k);
    else repeatSlice(service, repeats);
    return true;
  };
}

/** One repeat slice: the copies' SKILL.md parsed in one request, then their folders audited in one rehearsed round. */
function repeatSlice(service: AuditService, repeats: readonly string[]): void {
  service.parse(repeats.map((d) => join(d, 'SKILL.md')));
  rehearseRound(
    repeats.map((dir, k) => ({ id: -1 - k, dir })),
    service,
  );
}

/** A second worker's service, which never parsed the samples: a folder taken from another worker's share. */
const other = auditService();

/** Slices of a warm-up round: one per sample folder, and the folder from another worker's share. */
export function slicesPerRound(folders: readonly string[]): number {
  return folders.length + 1;
}

/**
 * Slice `step` of the warm-up through `service` (the worker's own parse and audit): about one folder's audit, so a real
 * request that arrives meanwhile waits for little more than that. `slicesPerRound(folders)` slices make a round, the
 * ways a real round goes: every sample's SKILL.md parsed as the catalog asks, then its folder audited in a rehearsed
 * round, from that parse (a cold open's audits) or from a copy of it handed over with the job (as the pool's message
 * gives a review's audits); and one folder, in turn, audited by a worker that did not parse it (taken from another's
 * share), reading SKILL.md itself.
 */
export function warmSlice(service: AuditService, folders: readonly string[], step: number): void {
  const n = slicesPerRound(folders);
  const round = Math.floor(step / n);
  const k = step % n;
  if (k === folders.length) {
    const j = round % folders.length;
    rehearseRound([{ id: -1 - j, dir: folders[j]! }], other);
    return;
  }
  const dir = folders[k]!;
  const files = [join(dir, 'SKILL.md')];
  for (let p = 1; p < PARSES_PER_ROUND; p++) service.parse(files);
  const m = service.parse(files)[0]?.manifest;
  const handed = m && (k + round) % 3 === 0 ? { parsed: structuredClone(parsedManifestOf(m)) } : {};
  rehearseRound([{ id: -1 - k, dir, ...handed }], service);
}

/** Without the sample folders on disk: the sample's texts alone go through the rules. */
export function warmTexts(): void {
  const description = {
    text: 'Use when the user asks to cut a release, write the changelog or tag a version.',
    line: 3,
  };
  SAMPLE_FILES.forEach((f, i) => {
    const quiet = quietLinesOf(Buffer.from(f.text, 'utf8'));
    auditText(f.name, f.text, f.kind, { quiet, ...(i === 0 ? { description } : {}) });
  });
}
