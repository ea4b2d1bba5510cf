// The time limit on patterns from outside (schemas, globs, the model): a busy machine that keeps the thread from
// running must not turn a cheap pattern into a "too slow" refusal; a pattern that really backtracks is still stopped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RegexTimeoutError, testWithin } from '../../../main/core/base/glob.js';

/** Generous, so that a loaded machine does not miss it twice in a row on the cheap calls (that is what is tested). */
const LIMIT = 250;

/** A stand-in RegExp whose test() behaves as `run` says, counting its calls. */
function fakeRe(run: (call: number) => boolean): RegExp & { calls: number } {
  const re = { source: 'fake', calls: 0, test: () => run(re.calls++) };
  return re as unknown as RegExp & { calls: number };
}

test('a cheap pattern whose thread was kept off the CPU past the limit still gets its answer', () => {
  const sleep = new Int32Array(new SharedArrayBuffer(4));
  // The first run waits without using the CPU (as a descheduled thread does) until the deadline interrupts it.
  const re = fakeRe((call) => {
    if (call === 0) Atomics.wait(sleep, 0, 0, 2_000);
    return true;
  });
  assert.equal(testWithin(re, 'value', LIMIT), true);
  assert.equal(re.calls, 2);
});

test('a pattern that keeps running past the deadline is stopped after its second try', () => {
  const re = fakeRe(() => {
    for (;;) {
      // spins like a backtracking regex
    }
  });
  assert.throws(() => testWithin(re, 'value', LIMIT), RegexTimeoutError);
  assert.equal(re.calls, 2);
});

test('a real catastrophic pattern is stopped with RegexTimeoutError and a cheap one answers', () => {
  assert.throws(() => testWithin(/^(a+)+$/, `${'a'.repeat(40)}!`, LIMIT), RegexTimeoutError);
  assert.equal(testWithin(/^[a-z-]+$/, 'git-commit', LIMIT), true);
  assert.equal(testWithin(/^[a-z-]+$/, 'Git Commit', LIMIT), false);
});
