// RankedIndex.compile patches a change of a few documents in (their runs appended, their postings spliced) instead of
// rebuilding the index; whatever the sequence of adds, replacements, removals and compiles, the patched index ranks
// exactly as one built fresh over the same documents: the same hits, scores, feedback re-ranking and matched words.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { RankedIndex, averageOnGrid, type RankedIndexOptions } from '../../../main/core/search/ranked-index.js';
import { publicSkillFiles } from '../../helpers/tmp.js';

const OPTS: RankedIndexOptions = {
  fields: { name: { weight: 3, b: 0.7 }, description: { weight: 1, b: 0.7 }, body: { weight: 0.15, b: 0.7 } },
  idfPower: 1,
  coverage: 0.5,
};
const texts = publicSkillFiles().map((f) => readFileSync(f, 'utf8'));
const fieldsOf = (k: number): Record<string, string> => {
  const t = texts[k % texts.length]!;
  return { name: `skill ${k}`, description: t.slice(0, 300), body: t.slice(300, 3300) };
};
const QUERIES = [
  'git commit message',
  'fill a pdf form',
  'deploy to production',
  'test the api',
  '数据库 迁移',
  'slack',
];
const FEEDBACK = { docs: 5, terms: 10, weight: 0.3 };

/** Everything a caller can read of a ranking, as comparable text. */
function readings(ix: RankedIndex): string[] {
  const out: string[] = [];
  for (const q of QUERIES) {
    const hits = ix.search(q, 25);
    out.push(`${q}: ${hits.map((h) => `${h.id} ${h.score}`).join(', ')}`);
    const plan = ix.queryPlan(q);
    for (const h of hits.slice(0, 3)) out.push(`${q} matched ${h.id}: ${JSON.stringify(ix.matched(h.id, plan))}`);
    const r = ix.rankRequest(q, 25, FEEDBACK);
    const rows: string[] = [];
    for (let i = 0; i < r.n; i++) rows.push(`${String(ix.dataOf(r.docs[i]!))} ${r.scores[i]}`);
    out.push(`${q} with feedback: ${rows.join(', ')}`);
  }
  return out;
}

function fresh(live: Map<string, number>): RankedIndex {
  const ix = new RankedIndex(OPTS);
  for (const [id, k] of live) ix.add(id, fieldsOf(k), id);
  ix.compile();
  return ix;
}

test('one document changed in a built index is patched in, and ranks exactly as a fresh index', () => {
  const live = new Map<string, number>();
  const ix = new RankedIndex(OPTS);
  for (let i = 0; i < 120; i++) {
    live.set(`s${i}`, i);
    ix.add(`s${i}`, fieldsOf(i), `s${i}`);
  }
  ix.compile();
  assert.deepEqual(ix.compiled, { rebuilt: 1, patched: 0 });
  // Edited (a new text under the same id), then removed, then a new one added.
  live.set('s7', 500);
  ix.add('s7', fieldsOf(500), 's7');
  ix.compile();
  live.delete('s30');
  ix.remove('s30');
  ix.compile();
  live.set('s-new', 77);
  ix.add('s-new', fieldsOf(77), 's-new');
  ix.compile();
  assert.deepEqual(ix.compiled, { rebuilt: 1, patched: 3 });
  assert.deepEqual(readings(ix), readings(fresh(live)));
});

test('any sequence of adds, replacements, removals and compiles ranks exactly as a fresh index', () => {
  const op = fc.oneof(
    fc.record({ kind: fc.constant('add' as const), id: fc.integer({ min: 0, max: 40 }), text: fc.nat(200) }),
    fc.record({ kind: fc.constant('remove' as const), id: fc.integer({ min: 0, max: 40 }) }),
    fc.record({ kind: fc.constant('compile' as const) }),
  );
  fc.assert(
    fc.property(fc.array(op, { minLength: 1, maxLength: 40 }), (ops) => {
      const live = new Map<string, number>();
      const ix = new RankedIndex(OPTS);
      for (let i = 0; i < 30; i++) {
        live.set(`d${i}`, i);
        ix.add(`d${i}`, fieldsOf(i), `d${i}`);
      }
      ix.compile();
      for (const o of ops) {
        if (o.kind === 'add') {
          live.set(`d${o.id}`, o.text);
          ix.add(`d${o.id}`, fieldsOf(o.text), `d${o.id}`);
        } else if (o.kind === 'remove') {
          live.delete(`d${o.id}`);
          ix.remove(`d${o.id}`);
        } else ix.compile();
      }
      assert.equal(ix.size, live.size);
      assert.deepEqual(readings(ix), readings(fresh(live)));
    }),
    { numRuns: 40 },
  );
});

test('the average field length is taken on a grid: within 1.1% of the exact one, and at least 1', () => {
  for (const a of [0, 0.5, 1, 1.3, 7, 42.5, 300, 2999, 1e6]) {
    const g = averageOnGrid(a);
    assert.ok(g >= 1);
    if (a >= 1) assert.ok(Math.abs(g / a - 1) <= 0.011, `${a} → ${g}`);
  }
  // Nearby averages land on the same step: a few documents more or less leave the weights as they are.
  assert.equal(averageOnGrid(1000), averageOnGrid(1000.5));
});
