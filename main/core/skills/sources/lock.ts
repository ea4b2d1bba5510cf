// skills.lock.json: where each skill of a scope came from (URL, ref, commit, path, marketplace, plugin) and the content
// hash that was installed, so a team can commit it and `knack skills sync` reproduces the same set. Sorted, no dates.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

import { z } from 'zod';
import { findNodeAtLocation, parseTree, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { MAX_DEPTH, tooDeep } from '../../config/index.js';
import type { SourceRecord } from './open.js';
import { cleanRepoPath, parseSource, refProblem, SourceError } from './spec.js';
import { writeFileAtomic } from '../../base/index.js';

export const LOCK_FILE = 'skills.lock.json';

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
  commit: z.string().regex(/^[0-9a-f]{40,64}$/, 'must be a full commit id'),
  path: z.string(),
  marketplace: z.string().min(1).optional(),
  plugin: z.string().min(1).optional(),
  contentHash: z.string().regex(/^[0-9a-f]{64}$/, 'must be a sha256 in hex'),
});
const LockFile = z.strictObject({ version: z.literal(1), skills: z.record(z.string(), Entry) });

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** Read a lock; a missing file is an empty lock. A broken one is an error naming file:line and field, never ignored. */
export function readLock(file: string): Lock {
  if (!existsSync(file)) return { version: 1, skills: {} };
  const text = readFileSync(file, 'utf8');
  const deep = tooDeep(text);
  if (deep !== undefined)
    throw new SourceError(`${file}:${lineAt(text, deep)}: nested more than ${MAX_DEPTH} levels deep`);
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false });
  if (errors.length || !tree)
    throw new SourceError(
      `${file}:${errors[0] ? lineAt(text, errors[0].offset) : 1}: not valid JSON (${errors[0] ? printParseErrorCode(errors[0].error) : 'empty'})`,
    );
  const r = LockFile.safeParse(JSON.parse(text));
  if (!r.success) {
    const issue = r.error.issues[0]!;
    const path = issue.path as (string | number)[];
    const node = findNodeAtLocation(tree, path);
    throw new SourceError(
      `${file}:${node ? lineAt(text, node.offset) : 1}: ${path.join('.') || '(top)'}: ${issue.message}`,
    );
  }
  for (const [name, e] of Object.entries(r.data.skills)) {
    const at = (field: string) => {
      const node = findNodeAtLocation(tree, ['skills', name, field]);
      return `${file}:${node ? lineAt(text, node.offset) : 1}: skills.${name}.${field}`;
    };
    const spec = (() => {
      try {
        return parseSource(e.url, '/');
      } catch (err) {
        throw new SourceError(`${at('url')}: ${(err as Error).message}`);
      }
    })();
    if (spec.kind !== 'git') throw new SourceError(`${at('url')}: "${e.url}" is not a git repository URL`);
    if (e.ref && refProblem(e.ref)) throw new SourceError(`${at('ref')}: ${refProblem(e.ref)}`);
    try {
      cleanRepoPath(e.path);
    } catch (err) {
      throw new SourceError(`${at('path')}: ${(err as Error).message}`);
    }
  }
  return r.data as Lock;
}

/** The lock as written: keys in a fixed order, skills by name, two-space JSON and a final newline. */
export function formatLock(lock: Lock): string {
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
export function writeLock(file: string, lock: Lock): void {
  writeFileAtomic(file, formatLock(lock));
}

/** Record (or replace) one skill's entry. */
export function recordInLock(file: string, name: string, entry: LockEntry): void {
  const lock = readLock(file);
  lock.skills[name] = entry;
  writeLock(file, lock);
}
