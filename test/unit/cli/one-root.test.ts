// The CLI opens the workspace's services (one composition root: core/workspace.ts), never a catalog, tool box,
// matcher, search or trust review of its own: what a command judges by is what the agent and the app judge by.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { skillMd, tempDir, writeTree } from '../../helpers/tmp.js';
import { cliArgs, run } from '../../helpers/cli.js';

const CLI_DIR = join(import.meta.dirname, '..', '..', '..', 'main', 'cli');

/** Building these is the composition root's job (core/workspace.ts, core/toolbox.ts). */
const SERVICE_BUILDERS = [
  /\bopenCatalog\s*\(/,
  /\bopenToolbox\s*\(/,
  /\bcreateTrustReview\s*\(/,
  /\bnew\s+SkillMatcher\b/,
  /\bnew\s+SkillSearch\b/,
  /\bnew\s+SkillLoader\b/,
  /\bnew\s+ToolRegistry\b/,
  /\bbindDeferredIndex\s*\(/,
  /\bbuiltinTools\s*\(/,
  /\bnew\s+ToolExecutor\b/,
];

test('no CLI command builds a catalog, tool box, matcher, search or trust review of its own', () => {
  const found: string[] = [];
  for (const name of readdirSync(CLI_DIR).filter((n) => n.endsWith('.ts'))) {
    const lines = readFileSync(join(CLI_DIR, name), 'utf8').split('\n');
    lines.forEach((line, i) => {
      for (const re of SERVICE_BUILDERS) if (re.test(line)) found.push(`main/cli/${name}:${i + 1}: ${line.trim()}`);
    });
  }
  assert.deepEqual(found, [], 'use the workspace (openWorkspaceFor / withWorkspace in main/cli/workspace.ts)');
});

test("knack policy check judges a skill tool by the workspace's own tool: loading a skill reads its SKILL.md", async () => {
  const root = tempDir();
  const ws = join(root, 'ws');
  writeTree(ws, { '.workbuddy/skills/notes/SKILL.md': skillMd({ name: 'notes', description: 'Take notes.' }) });
  const common = cliArgs({ ws, home: join(root, 'home'), data: join(root, 'data') });
  const r = await run([
    'policy',
    'check',
    '--tool',
    'Skill',
    '--args',
    JSON.stringify({ name: 'notes' }),
    '--json',
    ...common,
  ]);
  assert.equal(r.code, 0, r.err);
  const j = JSON.parse(r.out) as { verdict: string; call: { access: { read?: string[] } } };
  assert.equal(j.verdict, 'allow');
  assert.deepEqual(
    j.call.access.read?.map((p) => p.slice(p.indexOf('.workbuddy'))),
    ['.workbuddy/skills/notes/SKILL.md'],
  );
  // A tool this workspace does not offer (the network is off) is judged by the arguments the tool table names.
  const fetch = await run([
    'policy',
    'check',
    '--tool',
    'web_fetch',
    '--args',
    JSON.stringify({ url: 'https://example.org/a' }),
    '--json',
    ...common,
  ]);
  assert.equal(fetch.code, 2);
  const f = JSON.parse(fetch.out) as { reason: string; call: { access: { network?: boolean; host?: string } } };
  assert.deepEqual(f.call.access, { network: true, host: 'example.org' });
  assert.match(f.reason, /network/);
});
