import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openToolbox } from '../../../main/core/toolbox.js';
import { importCatalog } from '../../../main/core/tools/catalog-import.js';
import { crossLanguageExpander } from '../../../main/core/search/expand.js';
import { DEFAULT_SETTINGS } from '../../../main/core/config/settings.js';
import { tempDir } from '../../helpers/tmp.js';
import { searchCacheDir } from '../../helpers/search-seed.js';

// The derived Chinese–English map of the test run (test/helpers/search-seed.ts), for every toolbox below.
const cacheDir = searchCacheDir();

const CATALOG = [
  {
    name: 'slack_postMessage',
    description: 'Post a message to a Slack channel.',
    parameters: {
      type: 'object',
      properties: { channel: { type: 'string' }, text: { type: 'string' } },
      required: ['channel', 'text'],
    },
  },
  {
    name: 'github__create_pull_request',
    description: 'Open a pull request on GitHub from a branch.',
    input_schema: { type: 'object', properties: { head: { type: 'string', description: 'source branch' } } },
  },
  {
    name: 'calendar_create_event',
    description: 'Schedule a meeting.',
    parameters: {
      type: 'object',
      properties: { attendees: { type: 'array', description: 'people invited by email address' } },
    },
  },
  {
    name: 'db_query',
    description: 'Run a read-only SQL query against the analytics database.',
    parameters: { type: 'object', properties: { sql: { type: 'string' } }, required: ['sql'] },
  },
];

async function box() {
  const catalog = importCatalog(CATALOG, 'cat.json');
  assert.deepEqual(catalog.problems, []);
  return openToolbox({
    workspace: tempDir(),
    settings: structuredClone(DEFAULT_SETTINGS),
    gate: { authorize: () => ({ verdict: 'allow', reason: 'test' }) },
    catalogs: [catalog],
    expander: crossLanguageExpander({ cacheDir }),
  });
}

test('ToolSearch finds tools by split names, descriptions and parameter text, returning names and one line only', async () => {
  const b = await box();
  assert.equal(b.index.search('post message', 3).tools[0]?.name, 'slack_postMessage');
  assert.equal(b.index.search('pull request', 3).tools[0]?.name, 'github__create_pull_request');
  // Only the parameter description mentions email addresses.
  assert.equal(b.index.search('invite people by email', 3).tools[0]?.name, 'calendar_create_event');
  const r = await b.session.deferExecute('ToolSearch', {}, { workspace: '/', actor: { kind: 'user' } });
  assert.equal(r.ok, false);
  const viaTool = await b.executor.execute(
    'ToolSearch',
    { query: 'sql analytics' },
    { workspace: '/', actor: { kind: 'user' } },
  );
  assert.deepEqual(viaTool.ok && viaTool.content, {
    tools: [{ name: 'db_query', description: 'Run a read-only SQL query against the analytics database.' }],
  });
  await b.close();
});

test('ToolSearch accepts an exact name and select:a,b, reporting unknown names', async () => {
  const b = await box();
  assert.deepEqual(
    b.index.search('DB_QUERY').tools.map((t) => t.name),
    ['db_query'],
  );
  const sel = b.index.search('select:db_query, slack_postMessage,nope');
  assert.equal(sel.mode, 'select');
  assert.deepEqual(
    sel.tools.map((t) => t.name),
    ['db_query', 'slack_postMessage'],
  );
  assert.deepEqual(sel.missing, ['nope']);
  await b.close();
});

test('a Chinese query finds an English-described tool through the bilingual table', async () => {
  const b = await box();
  assert.equal(b.index.search('安排会议', 3).tools[0]?.name, 'calendar_create_event');
  assert.equal(b.index.search('发消息到频道', 3).tools[0]?.name, 'slack_postMessage');
  await b.close();
});

test('a found deferred tool becomes visible in the prompt for the rest of the session', async () => {
  const b = await box();
  const before = b.session.visibleTools().map((t) => t.def.name);
  assert.ok(!before.includes('db_query'));
  const direct = await b.session.call('db_query', { sql: 'select 1' }, { workspace: '/', actor: { kind: 'user' } });
  assert.equal(!direct.ok && direct.error.code, 'tool.unavailable');
  b.session.search('analytics sql');
  assert.ok(b.session.visibleTools().some((t) => t.def.name === 'db_query'));
  assert.ok(!b.session.hiddenTools().some((t) => t.def.name === 'db_query'));
  const cost = b.promptCost();
  assert.ok(cost.deferredTokens > 0 && cost.allLoadedTokens > 0);
  const section = b.session.promptSection();
  assert.ok(section.tools.some((t) => t.name === 'db_query'));
  assert.ok(section.text.includes('"name":"db_query"'));
  assert.ok(
    section.deferredNames.includes('slack_postMessage') && !section.text.includes('"name":"slack_postMessage"'),
  );
  await b.close();
});

test('DeferExecuteTool validates against the full schema before anything runs', async () => {
  const b = await box();
  const ctx = { workspace: '/', actor: { kind: 'user' as const } };
  const bad = await b.executor.execute('DeferExecuteTool', { name: 'db_query', arguments: { sql: 5 } }, ctx);
  assert.equal(!bad.ok && bad.error.code, 'tool.invalid_args');
  assert.match(!bad.ok ? bad.error.message : '', /sql: must be string/);
  const unknown = await b.executor.execute('DeferExecuteTool', { name: 'db_qeury', arguments: {} }, ctx);
  assert.equal(!unknown.ok && unknown.error.code, 'tool.unknown');
  // An imported catalog tool has no implementation: a clear error, not a crash.
  const ran = await b.executor.execute('DeferExecuteTool', { name: 'db_query', arguments: { sql: 'select 1' } }, ctx);
  assert.equal(!ran.ok && ran.error.code, 'tool.unavailable');
  await b.close();
});

test('catalog import reports bad entries by index and makes names callable', () => {
  const c = importCatalog(
    [{ name: 'hf:org/model', description: 'A model.', parameters: ['text'] }, { description: 'x' }, { name: 'empty' }],
    'c.json',
  );
  assert.deepEqual(
    c.tools.map((t) => t.name),
    ['hf_org_model'],
  );
  assert.deepEqual(c.renamed, { 'hf:org/model': 'hf_org_model' });
  assert.deepEqual(
    c.problems.map((p) => p.where),
    ['c.json[1].name', 'c.json[2].description'],
  );
});
