// BoundedMap: the one size-bounded cache never holds more than its limit, drops the oldest inserted first, and a
// key set again keeps its place without evicting anything.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BoundedMap } from '../../../main/core/base/index.js';

test('a bounded map holds at most its limit and drops the oldest inserted entry first', () => {
  const m = new BoundedMap<string, number>(3);
  for (const [i, k] of ['a', 'b', 'c', 'd', 'e'].entries()) m.set(k, i);
  assert.equal(m.size, 3);
  assert.deepEqual([...m.keys()], ['c', 'd', 'e']);
  assert.equal(m.get('a'), undefined);
});

test('setting a key already held replaces its value and evicts nothing', () => {
  const m = new BoundedMap<string, number>(2);
  m.set('a', 1).set('b', 2).set('a', 3);
  assert.deepEqual(
    [...m.entries()],
    [
      ['a', 3],
      ['b', 2],
    ],
  );
});

test('a flood of distinct keys (a hostile skill catalog, say) never grows the map past its limit', () => {
  const m = new BoundedMap<string, string>(100);
  for (let i = 0; i < 100_000; i++) m.set(`word-${i}`, 'x');
  assert.equal(m.size, 100);
  assert.ok(m.has('word-99999') && !m.has('word-99899'));
});

test('a limit below one is refused', () => {
  assert.throws(() => new BoundedMap(0), /max must be at least 1/);
});

test('an entry dropped to make room is handed to `dropped`; one deleted or replaced is not', () => {
  const gone: string[] = [];
  const m = new BoundedMap<string, number>(2, (v, k) => gone.push(`${k}=${v}`));
  m.set('a', 1).set('b', 2).set('b', 3).set('c', 4);
  m.delete('b');
  m.set('d', 5);
  assert.deepEqual(gone, ['a=1']);
  m.set('e', 6);
  assert.deepEqual(gone, ['a=1', 'c=4']);
});
