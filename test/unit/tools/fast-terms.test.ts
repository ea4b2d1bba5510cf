import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES } from '../../helpers/tmp.js';
import { terms } from '../../../main/core/search/tokenize.js';
import { fastTerms } from '../../../main/core/tools/fast-terms.js';

test('the ToolSearch tokenizer gives exactly the shared tokenizer’s terms on real tool descriptions and requests', () => {
  const dir = join(FIXTURES, 'tool-retrieval');
  const tools = JSON.parse(readFileSync(join(dir, 'tools.json'), 'utf8')) as { name: string; description: string }[];
  const queries = JSON.parse(readFileSync(join(dir, 'queries.json'), 'utf8')) as { query: string }[];
  const texts = [
    ...tools.map((t) => `${t.name} ${t.description}`),
    ...queries.map((q) => q.query),
    'mcp__github__listPullRequests',
    "it's v1.2, e.g. 60,000 files",
  ];
  for (const t of texts) assert.deepEqual(fastTerms(t), terms(t), t.slice(0, 80));
});

test('non-ASCII text goes through Intl.Segmenter like everywhere else', () => {
  assert.deepEqual(fastTerms('帮我发送消息 to Slack'), terms('帮我发送消息 to Slack'));
  assert.deepEqual(fastTerms('Café crème'), terms('Café crème'));
});
