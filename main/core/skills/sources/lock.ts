// skills.lock.json: where each skill of a scope came from (URL, ref, commit, path, marketplace, plugin) and the content
// hash that was installed, so a team can commit it and `knack skills sync` reproduces the same set. Sorted, no dates.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

import { z } from 'zod';
import { readJsonFile } from './json-file.js';
import type { SourceRecord } from './open.js';
import { cleanRepoPath, parseSource, problemWords, refProblem } from './spec.js';
import { say, writeFileAtomic, type Said } from '../../base/index.js';

const LOCK_FILE = 'skills.lock.json';

export interface LockEntry extends SourceRecord {
  contentHash: string;
}

export interface Lock {
  version: 1;
  skills: Record<string, LockEntry>;
}

/** The lock of a tier: beside its skills folder (`<scope>/.workbuddy/skills.lock.json`). */
export function lockPathFor(tierRoot: string): string {
  return join(dirname(tierRoot), LOCK_FILE);
}

const Entry = z.strictObject({
  url: z.string().min(1),
  ref: z.string().min(1).optional(),
  // The messages are word codes (json-file.ts says them).
  commit: z.string().regex(/^[0-9a-f]{40,64}$/, 'lock.commit'),
  path: z.string(),
  marketplace: z.string().min(1).optional(),
  plugin: z.string().min(1).optional(),
  contentHash: z.string().regex(/^[0-9a-f]{64}$/, 'lock.hash'),
});
const LockFile = z.strictObject({ version: z.literal(1), skills: z.record(z.string(), Entry) });

/** Read a lock; a missing file is an empty lock. A broken one is an error naming file:line and field, never ignored. */
export function readLock(file: string): Lock {
  if (!existsSync(file)) return { version: 1, skills: {} };
  const text = readFileSync(file, 'utf8');
  const f = readJsonFile(text, file);
  const r = LockFile.safeParse(JSON.parse(text));
  if (!r.success) f.failIssue([], r.error.issues[0]!);
  for (const [name, e] of Object.entries(r.data!.skills)) {
    const at = (field: string, problem: Said): never =>
      f.fail(['skills', name, field], problem, `skills.${name}.${field}`);
    const spec = (() => {
      try {
        return parseSource(e.url, '/');
      } catch (err) {
        return at('url', problemWords(err));
      }
    })();
    if (spec.kind !== 'git') at('url', say('marketplace.notGit', { url: e.url }));
    const bad = e.ref ? refProblem(e.ref) : undefined;
    if (bad) at('ref', bad);
    try {
      cleanRepoPath(e.path);
    } catch (err) {
      at('path', problemWords(err));
    }
  }
  return r.data as Lock;
}

/** The lock as written: keys in a fixed order, skills by name, two-space JSON and a final newline. */
function formatLock(lock: Lock): string {
  const skills: Record<string, LockEntry> = {};
  for (const name of Object.keys(lock.skills).sort()) {
    const e = lock.skills[name]!;
    skills[name] = {
      url: e.url,
      ...(e.ref ? { ref: e.ref } : {}),
      commit: e.commit,
      path: e.path,
      ...(e.marketplace ? { marketplace: e.marketplace } : {}),
      ...(e.plugin ? { plugin: e.plugin } : {}),
      contentHash: e.contentHash,
    };
  }
  return `${JSON.stringify({ version: 1, skills }, null, 2)}\n`;
}

/** Write atomically: a crash leaves the old lock or the new, never half. */
function writeLock(file: string, lock: Lock): void {
  writeFileAtomic(file, formatLock(lock));
}

/** Record (or replace) one skill's entry. */
export function recordInLock(file: string, name: string, entry: LockEntry): void {
  const lock = readLock(file);
  lock.skills[name] = entry;
  writeLock(file, lock);
}
