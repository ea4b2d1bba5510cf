// ToolSearch keeps per-search state in buffers it reuses and per-tool features it precomputes: these tests prove
// that neither leaks between searches nor survives an update, on real BFCL tools and requests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES } from '../../helpers/tmp.js';
import { readCatalogFile } from '../../../main/core/tools/catalog-import.js';
import { ToolSearchIndex } from '../../../main/core/tools/tool-search.js';
import { RankedIndex } from '../../../main/core/search/index.js';
import type { SearchableTool } from '../../../main/core/tools/search-doc.js';

const dir = join(FIXTURES, 'tool-retrieval-bfcl');
const TOOLS: SearchableTool[] = readCatalogFile(join(dir, 'tools.json'))
  .tools.slice(0, 400)
  .map((t) => ({
    name: t.name,
    summary: t.summary,
    description: t.description,
    inputSchema: t.inputSchema,
  }));
const QUERIES = (JSON.parse(readFileSync(join(dir, 'queries.json'), 'utf8')) as { query: string }[])
  .slice(0, 120)
  .map((q) => q.query);

const ranking = (i: ToolSearchIndex, q: string) =>
  i.search(q, 10).tools.map((t) => `${t.name} ${t.score.toPrecision(12)}`);

test('a search gives the same ranking whatever was searched before it', () => {
  const a = new ToolSearchIndex();
  a.addAll(TOOLS);
  const first = QUERIES.map((q) => ranking(a, q));
  // The same requests again in reverse order, on the same index: nothing of one search is left for the next.
  const again = [...QUERIES]
    .reverse()
    .map((q) => ranking(a, q))
    .reverse();
  assert.deepEqual(again, first);
  assert.ok(first.filter((r) => r.length > 0).length > QUERIES.length / 2);
});

test('an index updated by adds, removals and re-adds ranks exactly like one built from the final tool set', () => {
  const keep = TOOLS.filter((_, k) => k % 3 !== 0);
  const changed = (t: SearchableTool): SearchableTool => ({
    ...t,
    description: `${t.description} Deprecated spreadsheet helper.`,
  });
  const updated = new ToolSearchIndex();
  updated.addAll(TOOLS.map(changed));
  ranking(updated, QUERIES[0]!); // compile once with the old texts
  for (const [k, t] of TOOLS.entries()) if (k % 3 === 0) updated.remove(t.name);
  updated.addAll(keep); // same names, new texts: the old text's words and word pairs must be gone
  const fresh = new ToolSearchIndex();
  fresh.addAll(keep);
  assert.equal(updated.size, fresh.size);
  for (const q of [...QUERIES, 'deprecated spreadsheet helper'])
    assert.deepEqual(ranking(updated, q), ranking(fresh, q), q);
  assert.deepEqual(updated.search('deprecated spreadsheet helper', 5).tools, []);
});

test('the best k documents are the first k of the full ranking, equal scores in name order', () => {
  const ix = new RankedIndex({
    fields: { name: { weight: 2, b: 0.5 }, description: { weight: 1, b: 0.75 } },
    coverage: 0.5,
  });
  for (const t of TOOLS) ix.add(t.name, { name: t.name.replace(/_/g, ' '), description: t.description });
  // Tools with identical text: their scores tie, and the tie goes to the smaller name.
  for (const n of ['zz_twin_b', 'zz_twin_a', 'zz_twin_c'])
    ix.add(n, { name: 'twin', description: 'Find the weather forecast for a city.' });
  for (const q of [...QUERIES.slice(0, 40), 'weather forecast for a city', 'twin']) {
    const all = ix.search(q, 1000);
    for (let k = 1; k < all.length; k++) {
      const [a, b] = [all[k - 1]!, all[k]!];
      assert.ok(
        a.score > b.score || (a.score === b.score && a.id < b.id),
        `${q}: ${a.id} ${a.score} before ${b.id} ${b.score}`,
      );
    }
    for (const k of [1, 3, 5, 17]) assert.deepEqual(ix.search(q, k), all.slice(0, k), `${q} top ${k}`);
  }
  assert.deepEqual(
    ix.search('twin', 3).map((h) => h.id),
    ['zz_twin_a', 'zz_twin_b', 'zz_twin_c'],
  );
});
