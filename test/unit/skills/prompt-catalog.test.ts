// The catalog text for the prompt: escaped `name: summary` lines, real token counts, the 2% default budget,
// trimming order (shorten least relevant first, then drop least relevant) and the report of what was cut.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  buildPromptCatalog,
  catalogLine,
  defaultBudget,
  shortenSummary,
} from '../../../main/core/skills/use/prompt-catalog.js';
import { countTokens } from '../../../main/core/base/tokens.js';
import type { CatalogEntry, Tier } from '../../../main/core/skills/format/types.js';
import { defaultPermissions } from '../../../main/core/policy/permissions.js';

function entry(
  name: string,
  description: string,
  tier: Tier = 'user',
  extra: Partial<CatalogEntry> = {},
): CatalogEntry {
  return {
    manifest: {
      name,
      description,
      metadata: {},
      allowedTools: [],
      readWhen: [],
      agentCreated: false,
      dependsOn: [],
      extra: {},
      requested: { permissions: defaultPermissions(), diagnostics: [] },
    },
    tier,
    source: 'workbuddy',
    dir: `/s/${name}`,
    realDir: `/s/${name}`,
    file: `/s/${name}/SKILL.md`,
    size: 1,
    mtimeMs: 1,
    diagnostics: [],
    enabled: true,
    ...extra,
  };
}
const long = (topic: string) =>
  `Use when working on ${topic}. ${'It explains every step in detail with examples and caveats. '.repeat(4)}`;

test('entries are compact escaped name: summary lines; disabled and shadowed skills are never listed', () => {
  const p = buildPromptCatalog([
    entry('html', 'Use <foo> & <bar>\n  tags'),
    entry('off', 'hidden', 'user', { enabled: false }),
    entry('old', 'hidden', 'builtin', { shadowedBy: { tier: 'user', file: 'x' } }),
  ]);
  assert.equal(p.text, '<available_skills>\nhtml: Use &lt;foo&gt; &amp; &lt;bar&gt; tags\n</available_skills>');
  assert.deepEqual(p.included, ['html']);
  assert.equal(p.tokens, countTokens(p.text));
});

test('the default budget is 2% of the context window and is configurable', () => {
  assert.equal(defaultBudget({ contextWindow: 200_000, budgetFraction: 0.02 }), 4000);
  assert.equal(defaultBudget({ contextWindow: 200_000, budgetFraction: 0.02, budgetTokens: 900 }), 900);
  const p = buildPromptCatalog([entry('a', 'b')], { settings: { contextWindow: 50_000, budgetFraction: 0.01 } });
  assert.equal(p.budget, 500);
});

test('over budget, summaries are shortened first, least relevant first, before anything is dropped', () => {
  const entries = ['alpha', 'beta', 'gamma', 'delta'].map((n) => entry(n, long(n)));
  const full = buildPromptCatalog(entries, { budgetTokens: 100_000 });
  assert.deepEqual(full.shortened, []);
  const budget = full.tokens - 40;
  const p = buildPromptCatalog(entries, {
    budgetTokens: budget,
    relevance: (e) => ({ alpha: 4, beta: 3, gamma: 2, delta: 1 })[e.manifest.name]!,
  });
  assert.ok(p.tokens <= budget);
  assert.deepEqual(p.dropped, []);
  assert.equal(p.shortened[0], 'delta');
  assert.ok(!p.shortened.includes('alpha'));
  assert.ok(p.text.includes(`alpha: ${long('alpha').trim()}`));
});

test('when shortening is not enough, the least relevant entries are dropped and reported', () => {
  const entries = Array.from({ length: 40 }, (_, i) =>
    entry(`skill-${String(i).padStart(2, '0')}`, long(`topic ${i}`)),
  );
  const p = buildPromptCatalog(entries, { budgetTokens: 200, relevance: (e) => -Number(e.manifest.name.slice(6)) });
  assert.ok(p.tokens <= 200, `${p.tokens}`);
  assert.equal(p.tokens, countTokens(p.text));
  assert.ok(p.dropped.length > 0);
  assert.equal(p.included.length + p.dropped.length, 40);
  // The most relevant (lowest numbers) survive; the dropped ones are the least relevant.
  assert.ok(p.included.includes('skill-00'));
  assert.ok(p.dropped.includes('skill-39'));
  const maxKept = Math.max(...p.included.map((n) => Number(n.slice(6))));
  const minDropped = Math.min(...p.dropped.map((n) => Number(n.slice(6))));
  assert.ok(maxKept < minDropped);
  assert.match(p.text, new RegExp(`\\(${p.dropped.length} more skills not listed: use SkillSearch`));
  for (const n of p.included) assert.ok(p.shortened.includes(n), `${n} was kept long while others were dropped`);
});

test('a query ranks entries sharing its words as more relevant', () => {
  const d1 =
    'Fill, merge, split and sign PDF forms and documents for the user with care and attention to every field and page';
  const d2 =
    'Deploy the application to production servers and check health, logs, rollbacks and alerts for every service';
  const entries = [entry('pdf-tools', d1), entry('deploy', d2)];
  const note = countTokens('(1 more skill not listed: use SkillSearch to find them)\n');
  const budget =
    countTokens('<available_skills>\n</available_skills>') +
    Math.max(countTokens(catalogLine('pdf-tools', d1)), countTokens(catalogLine('deploy', d2))) +
    note;
  assert.ok(countTokens(catalogLine('pdf-tools', d1)) > note + 2);
  const a = buildPromptCatalog(entries, {
    budgetTokens: budget,
    query: 'please deploy my app to production',
    shortChars: 1000,
  });
  assert.deepEqual([a.included, a.dropped], [['deploy'], ['pdf-tools']]);
  const b = buildPromptCatalog(entries, { budgetTokens: budget, query: 'merge these PDF files', shortChars: 1000 });
  assert.deepEqual([b.included, b.dropped], [['pdf-tools'], ['deploy']]);
});

test('shortenSummary keeps the first sentence within the limit, cut on a word boundary', () => {
  assert.equal(shortenSummary('Short one. Then more text here.', 80), 'Short one.');
  const s = shortenSummary('A very long first sentence that goes on and on without any period for a long while', 40);
  assert.ok([...s].length <= 40 && s.endsWith('…'));
});

test('tokens are counted with a real tokenizer, not characters / 4', () => {
  assert.equal(countTokens(''), 0);
  assert.notEqual(countTokens('帮我提交代码'), Math.ceil('帮我提交代码'.length / 4));
  assert.ok(countTokens('hello world') === 2);
});
