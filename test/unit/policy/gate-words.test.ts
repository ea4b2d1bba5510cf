// The gate's reasons are words (preload/words.ts `gate.*`): every decision carries a code the window says in its
// language, its English is the reason the CLI and the model read, and every code inside it has both languages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tmp.js';
import { DEFAULT_SETTINGS, type Settings } from '../../../main/core/config/settings.js';
import { ceilingFrom } from '../../../main/core/policy/ceiling.js';
import { createGate } from '../../../main/core/policy/gate.js';
import { describeRule, ruleSaid } from '../../../main/core/policy/rules.js';
import type { Rule } from '../../../main/core/store/policy-repo.js';
import type { Actor, ToolCall } from '../../../main/core/policy/types.js';
import { english, WORDS, type Said } from '../../../preload/words.js';

const codes = (s: Said): string[] => [
  s.code,
  ...Object.values(s.params ?? {}).flatMap((v) => (typeof v === 'object' ? codes(v) : [])),
];

const rule = (r: Partial<Rule>): Rule => ({ id: 'r1', effect: 'allow', tool: 'bash', createdAt: 0, ...r });

test('every decision is words whose English is its reason, each code known', () => {
  const root = tempDir();
  const ws = join(root, 'ws');
  mkdirSync(join(ws, '.workbuddy'), { recursive: true });
  writeFileSync(join(ws, 'a.txt'), 'x');
  const settings: Settings = structuredClone(DEFAULT_SETTINGS);
  settings.policy.ceiling.network = true;
  const rules: Rule[] = [
    rule({ effect: 'deny', command: 'rm -rf', workspace: ws }),
    rule({ effect: 'allow', command: 'git status' }),
    rule({ effect: 'ask', tool: 'web_fetch', host: 'ask.example.com', skill: 'deploy' }),
  ];
  const gate = createGate({ ceiling: ceilingFrom(settings, ws, []), rules: () => rules, skill: () => undefined });
  const agent: Actor = { kind: 'agent', activeSkills: [] };
  const bash = (command: string): ToolCall => ({ tool: 'bash', args: { command }, access: { command } });
  const calls: ToolCall[] = [
    bash('rm -rf build'),
    bash('git status'),
    bash('make deploy'),
    bash('echo $(whoami)'),
    { tool: 'web_fetch', args: {}, access: { network: true, host: 'example.com' } },
    { tool: 'web_fetch', args: {}, access: { network: true, host: 'ask.example.com' } },
    { tool: 'web_fetch', args: {}, access: { network: true, host: '169.254.169.254' } },
    { tool: 'write_file', args: {}, access: { write: ['a.txt'] } },
    { tool: 'write_file', args: {}, access: { write: ['.workbuddy/settings.json'] } },
    { tool: 'write_file', args: {}, access: { write: [join(root, 'elsewhere.txt')] } },
    { tool: 'read_file', args: {}, access: { read: ['a.txt'] } },
    { tool: 'read_file', args: {}, access: { read: ['/etc/passwd'] } },
    { tool: 'list_skills', args: {}, access: {} },
    { tool: '', args: {}, access: {} } as ToolCall,
  ];
  const seen = new Set<string>();
  for (const call of calls) {
    const d = gate.authorize(call, agent);
    assert.ok(d.words, `${call.tool}: ${d.reason}`);
    assert.equal(english(d.words), d.reason);
    for (const c of codes(d.words)) assert.ok(c in WORDS, `${c} is a known code`);
    seen.add(d.words.code);
  }
  // The calls above reach many different reasons, asks, denies and allows alike.
  assert.ok(seen.size >= 10, [...seen].join(', '));
});

test('a rule in words reads in English exactly as describeRule', () => {
  const r = rule({ effect: 'ask', command: 'npm publish', skill: 'deploy', workspace: '/ws' });
  assert.equal(
    describeRule(r),
    'ask bash command "npm publish" for skill deploy (by name only: a user or built-in skill of that name; add it again with --skill to bind it to one folder and content) in /ws',
  );
  assert.equal(english(ruleSaid(r)), describeRule(r));
  assert.equal(
    english(ruleSaid(rule({ host: 'example.com', tool: 'web_fetch' }))),
    'allow web_fetch host example.com everywhere',
  );
});
