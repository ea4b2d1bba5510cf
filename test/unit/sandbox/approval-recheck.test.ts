// A skill script's file capability that waits for the user's approval is judged again when the answer comes: a
// ceiling narrowed (or a deny rule added) meanwhile holds, whatever the user answered.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tmp.js';
import { createCapabilityHandler } from '../../../main/core/sandbox/capabilities.js';
import type { Decision, Gate } from '../../../main/core/policy/types.js';

test("a script's write approved after the ceiling narrowed is refused, and nothing is written", async () => {
  const ws = tempDir();
  let narrowed = false;
  const gate: Gate = {
    authorize: (): Decision =>
      narrowed
        ? { verdict: 'deny', reason: 'writes are outside the ceiling now' }
        : { verdict: 'ask', reason: 'writes ask' },
  };
  const handler = createCapabilityHandler({
    gate,
    limits: { maxFileBytes: 1 << 20, maxListEntries: 100 },
    // The user takes a while: Settings narrows the ceiling meanwhile, then the user says yes.
    approve: async () => {
      narrowed = true;
      return 'once';
    },
  });
  const run = { hold: () => () => undefined, signal: new AbortController().signal };
  const ctx = { skill: { name: 'writer', dir: join(ws, '.workbuddy', 'skills', 'writer') }, workspace: ws };
  await assert.rejects(
    handler('writeFile', { path: 'out.txt', content: 'x' }, ctx, run),
    (e: Error & { code?: string }) => {
      assert.equal(e.code, 'capability.denied');
      assert.match(e.message, /outside the ceiling now/);
      return true;
    },
  );
  assert.equal(existsSync(join(ws, 'out.txt')), false);
  // The policy unchanged: the approved write goes ahead.
  narrowed = false;
  const ok = createCapabilityHandler({
    gate,
    limits: { maxFileBytes: 1 << 20, maxListEntries: 100 },
    approve: async () => 'once',
  });
  assert.deepEqual(await ok('writeFile', { path: 'out.txt', content: 'x' }, ctx, run), { path: 'out.txt', bytes: 1 });
});
