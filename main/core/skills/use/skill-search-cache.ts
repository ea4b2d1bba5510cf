// SkillSearch's index kept on disk between runs: the documents as tokenised (RankedIndex.snapshot), keyed by what they
// were indexed from, so `skills search` and the window load it instead of reading and tokenising every skill again.
// One file per workspace in the data folder's cache/, written atomically; a damaged one is moved aside and rebuilt.
import { readFileSync } from 'node:fs';
import { sha256Hex, writeFileAtomic } from '../../base/index.js';
import type { IndexSnapshot } from '../../search/index.js';

/** Bump when the tokenizer, the fields or this format change: older files are stale (rebuilt once). */
const INDEX_CACHE_VERSION = 1;

const MAGIC = Buffer.from('KNACKIDX');

/** What a look in the cache found. `damaged`: the file is there but not one this code wrote whole (moved aside). */
export type CacheRead =
  | { kind: 'hit'; snapshot: IndexSnapshot }
  | { kind: 'missing' }
  | { kind: 'stale' }
  | { kind: 'damaged'; reason: string };

/**
 * The key of an index: a digest of the cache version, how documents are made (`config`: fields, weights, related
 * words, body, dictionary stamp) and, in order, each indexed skill's name and what it is indexed from (`keys`:
 * SkillSearch's indexKey: file, mtime, size, tier, manifest fields). Any change to any of them is another key.
 */
export function indexCacheKey(config: unknown, names: readonly string[], keys: readonly string[]): string {
  let text = `${INDEX_CACHE_VERSION}\n${JSON.stringify(config)}\n`;
  for (let i = 0; i < names.length; i++) text += `${names[i]}\0${keys[i]}\n`;
  return sha256Hex(text);
}

/*
 * Layout: MAGIC, u32 header length, header JSON {v, key, ids, termsBytes, ints}, the terms (UTF-8, "\n" between),
 * zero padding to a multiple of 4, then `ints` Int32 values in the machine's byte order (little-endian on every
 * platform Knack runs on; another order reads as damaged, never as other numbers: the runs are bounds-checked).
 */

/** Read the index kept in `file` for `key`; the ids must be exactly `names` (the skills searchable now). */
export function readIndexCache(file: string, key: string, names: readonly string[]): CacheRead {
  let buf: Buffer;
  try {
    buf = readFileSync(file);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT'
      ? { kind: 'missing' }
      : { kind: 'damaged', reason: (e as Error).message };
  }
  const damaged = (reason: string): CacheRead => ({ kind: 'damaged', reason });
  if (buf.length < MAGIC.length + 4 || !buf.subarray(0, MAGIC.length).equals(MAGIC))
    return damaged('not an index file (no header)');
  const headLen = buf.readUInt32LE(MAGIC.length);
  const headEnd = MAGIC.length + 4 + headLen;
  if (headEnd > buf.length) return damaged('the header is cut short');
  let head: { v?: unknown; key?: unknown; ids?: unknown; termsBytes?: unknown; ints?: unknown };
  try {
    head = JSON.parse(buf.toString('utf8', MAGIC.length + 4, headEnd)) as typeof head;
  } catch (e) {
    return damaged(`the header does not parse: ${(e as Error).message}`);
  }
  if (head.v !== INDEX_CACHE_VERSION) return { kind: 'stale' };
  if (typeof head.key !== 'string') return damaged('the header has no key');
  if (head.key !== key) return { kind: 'stale' };
  const { ids, termsBytes, ints } = head;
  if (!Array.isArray(ids) || !Number.isInteger(termsBytes) || !Number.isInteger(ints))
    return damaged('the header is not an index header');
  // The key covers the names: a file with the right key and other ids was not written by this code.
  if (ids.length !== names.length || ids.some((id, i) => id !== names[i]))
    return damaged('its skills are not the ones its key names');
  const termsEnd = headEnd + (termsBytes as number);
  const intsAt = Math.ceil(termsEnd / 4) * 4;
  if ((termsBytes as number) < 0 || intsAt + (ints as number) * 4 !== buf.length)
    return damaged(`${buf.length} bytes where the header promises ${intsAt + (ints as number) * 4}`);
  const termsText = buf.toString('utf8', headEnd, termsEnd);
  const terms = termsText ? termsText.split('\n') : [];
  // A copy: aligned, and not a view of the file's buffer.
  const arr = new Int32Array(ints as number);
  Buffer.from(arr.buffer).set(buf.subarray(intsAt, intsAt + (ints as number) * 4));
  return { kind: 'hit', snapshot: { terms, ids: ids as string[], ints: arr } };
}

/** Keep an index for `key`, atomically (a crash leaves the old file or the new one). Throws when it cannot. */
export function writeIndexCache(file: string, key: string, snap: IndexSnapshot): void {
  if (snap.terms.some((t) => t.includes('\n'))) throw new Error('a term holds a line break');
  const terms = Buffer.from(snap.terms.join('\n'), 'utf8');
  const head = Buffer.from(
    JSON.stringify({ v: INDEX_CACHE_VERSION, key, ids: snap.ids, termsBytes: terms.length, ints: snap.ints.length }),
    'utf8',
  );
  const len = Buffer.alloc(4);
  len.writeUInt32LE(head.length);
  const termsEnd = MAGIC.length + 4 + head.length + terms.length;
  const pad = Buffer.alloc(Math.ceil(termsEnd / 4) * 4 - termsEnd);
  const ints = Buffer.from(snap.ints.buffer, snap.ints.byteOffset, snap.ints.byteLength);
  writeFileAtomic(file, Buffer.concat([MAGIC, len, head, terms, pad, ints]));
}
