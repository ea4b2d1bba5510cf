// Each of Knack's own tools says what it does in the window's language: the Tools view shows `toolSummary.NAME`'s
// words, whose English is the summary the model reads (so the two cannot drift apart unseen); a server's tool says
// what its server wrote. The tools are the ones `knack tools list` registers, deferred ones too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { summaryWords } from '../../../main/core/service/tools.js';
import { cliFolders, run } from '../../helpers/cli.js';
import { writeTree } from '../../helpers/tmp.js';
import { assertSaid } from '../../helpers/words.js';

interface Row {
  name: string;
  summary: string;
  source: string;
}

test("every one of Knack's own tools has words for its summary, with Chinese and no English sentence", async () => {
  const f = cliFolders();
  writeTree(f.ws, { 'readme.md': 'hi\n' });
  const rows: Row[] = [];
  for (const extra of [[], ['--deferred']]) {
    const r = await run(['tools', 'list', '--json', ...extra, ...f.args]);
    assert.equal(r.code, 0, r.err);
    rows.push(...(JSON.parse(r.out) as { tools: Row[] }).tools);
  }
  const own = rows.filter((t) => ['builtin', 'meta', 'skill'].includes(t.source));
  assert.ok(own.length >= 15, `Knack's own tools are listed: ${own.map((t) => t.name).join(', ')}`);
  for (const t of own) {
    const words = summaryWords({ source: t.source as 'builtin', def: t });
    assertSaid(words, t.summary, t.name);
  }
});

test("a server's tool and a summary that no longer matches its words are shown as written", () => {
  const def = { name: 'bash', summary: 'Run a shell command in the workspace, inside the OS sandbox.' };
  assert.ok(summaryWords({ source: 'builtin', def }));
  assert.equal(summaryWords({ source: 'mcp:tracker', def }), undefined);
  assert.equal(summaryWords({ source: 'catalog', def }), undefined);
  assert.equal(summaryWords({ source: 'builtin', def: { ...def, summary: 'Run anything.' } }), undefined);
  assert.equal(summaryWords({ source: 'builtin', def: { name: 'constructor', summary: '' } }), undefined);
});
