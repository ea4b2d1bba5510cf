// Tool names come from one table (main/core/policy/tool-table.ts): every tool the workspace registers is in it, every
// tool it offers is registered by someone, the tools agree with it, and a tool name spelled out in main/ fails lint.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { openWorkspace } from '../../../main/core/workspace.js';
import { resolvePaths } from '../../../main/core/config/paths.js';
import {
  accessForArgs,
  SKILL_TOOL_NAMES,
  TOOL,
  TOOLS,
  toolSpec,
  type ToolSpec,
} from '../../../main/core/policy/tool-table.js';
import { canonicalToolName, parsePermissions } from '../../../main/core/policy/permissions.js';
import { builtinTools } from '../../../main/core/tools/builtin/index.js';
import type { McpResourceProvider } from '../../../main/core/tools/builtin/mcp-resources.js';
import { isValidToolName } from '../../../main/core/tools/names.js';
import { tempDir } from '../../helpers/tmp.js';
// @ts-expect-error — plain JavaScript module shared with eslint.config.js, no type declarations
import { tableToolNames, TABLE_FILE } from '../../../eslint/tool-names.js';
// @ts-expect-error — plain JavaScript module shared with eslint.config.js, no type declarations
import { repoRoot } from '../../../eslint/layering.js';

const SPECS = TOOLS as Record<string, ToolSpec>;
const noMcp: McpResourceProvider = {
  connectedServers: () => [],
  listResources: async () => ({ resources: [], errors: [] }),
  readResource: async () => [],
} as unknown as McpResourceProvider;

/** Every tool a workspace with the network on registers (built-ins, skill tools, run_skill_script, meta tools, MCP resource tools). */
async function registeredTools() {
  const home = tempDir();
  const workspace = tempDir();
  const paths = resolvePaths({ home, dataDir: join(home, '.knack') });
  mkdirSync(paths.dataDir, { recursive: true });
  writeFileSync(join(paths.dataDir, 'settings.json'), JSON.stringify({ policy: { ceiling: { network: true } } }));
  const ws = await openWorkspace({ paths, workspace });
  try {
    const box = await ws.toolbox();
    const tools = box.registry
      .list()
      .filter((t) => t.source !== 'catalog' && !t.source.startsWith('mcp:'))
      .map((t) => t.def);
    // The MCP resource tools join the tool box when a connector is configured; the same definitions, here without one.
    for (const d of builtinTools({ network: true, mcp: noMcp }))
      if (!tools.some((t) => t.name === d.name)) tools.push(d);
    return { tools, workspace };
  } finally {
    await ws.close();
  }
}

test('every registered tool is in the tool table with its access class, and every tool the table offers is registered', async () => {
  const { tools } = await registeredTools();
  const registered = new Set(tools.map((t) => t.name));
  const missing = [...registered].filter((n) => !toolSpec(n));
  assert.deepEqual(missing, [], 'tools registered but not in main/core/policy/tool-table.ts');
  const unregistered = Object.entries(SPECS)
    .filter(([n, s]) => s.provided !== false && !registered.has(n))
    .map(([n]) => n);
  assert.deepEqual(
    unregistered,
    [],
    'tools in the table that nobody registers (mark skill-vocabulary names provided: false)',
  );
  const offeredAnyway = Object.entries(SPECS)
    .filter(([n, s]) => s.provided === false && registered.has(n))
    .map(([n]) => n);
  assert.deepEqual(offeredAnyway, [], 'a tool marked provided: false is registered after all');
  for (const t of tools)
    assert.equal(t.risk, SPECS[t.name]!.access, `${t.name}: its definition's risk is the table's access class`);
});

test("a built-in tool's access() touches what the table says its arguments name", async () => {
  const { tools, workspace } = await registeredTools();
  const args = {
    path: 'notes/a.md',
    command: 'git status',
    url: 'https://example.org/x',
    pattern: '*.md',
    content: 'x',
    old_string: 'a',
    new_string: 'b',
  };
  const ctx = { workspace, actor: { kind: 'agent' as const, activeSkills: [] } };
  for (const t of tools) {
    const spec = SPECS[t.name]!;
    if (!spec.args) continue;
    const real = t.access(args, ctx);
    const table = accessForArgs(t.name, args);
    assert.equal(real.read?.length ?? 0, table.read?.length ?? 0, `${t.name}: reads`);
    assert.equal(real.write?.length ?? 0, table.write?.length ?? 0, `${t.name}: writes`);
    assert.equal(real.command, table.command, `${t.name}: command`);
    assert.equal(real.network ?? false, table.network ?? false, `${t.name}: network`);
    assert.equal(real.host, table.host, `${t.name}: host`);
  }
});

test("the table's names are valid tool names, and each allowed-tools spelling reads as its tool with the reach it implies", () => {
  for (const n of Object.keys(SPECS)) assert.ok(isValidToolName(n), n);
  assert.equal(TOOL.read_file, 'read_file');
  for (const [name, spec] of Object.entries(SPECS)) {
    for (const alias of spec.skillNames ?? []) {
      assert.equal(canonicalToolName(alias), name, `${alias} → ${name}`);
      const p = parsePermissions({ allowedTools: alias, file: 'SKILL.md' }).permissions!;
      assert.deepEqual(p.tools, [name], alias);
      assert.equal(p.network, spec.access === 'network', `${alias}: network`);
      const reaches = spec.args?.read ?? spec.args?.write ?? spec.args?.command;
      assert.deepEqual(p.read, reaches ? ['**'] : [], `${alias}: read reach`);
    }
  }
  assert.equal(SKILL_TOOL_NAMES.constructor, undefined, 'no prototype: "constructor" is not a tool');
  assert.equal(canonicalToolName('constructor'), 'constructor');
});

test('the lint rule reads the same table, refuses a tool name spelled out in the core and leaves program-name lists alone', async () => {
  assert.deepEqual([...(tableToolNames() as Set<string>)].sort(), Object.keys(SPECS).sort());
  assert.equal(TABLE_FILE, join(repoRoot, 'main', 'core', 'policy', 'tool-table.ts'));
  const eslint = new ESLint({ cwd: repoRoot });
  const code = [
    "export const HARNESS = new Set(['ToolSearch', 'Skill']);",
    "export const isShell = (tool: string): boolean => tool === 'bash';",
    "export const PROGRAMS = new Set(['sh', 'bash', 'grep']);",
    '',
  ].join('\n');
  const [r] = await eslint.lintText(code, { filePath: join(repoRoot, 'main', 'core', 'policy', 'new-rule.ts') });
  const hits = r!.messages
    .filter((m) => m.ruleId === 'knack/tool-names')
    .map((m) => `${m.line}:${/"([^"]+)"/.exec(m.message)?.[1]}`);
  assert.deepEqual(hits, ['1:ToolSearch', '1:Skill', '2:bash']);
  const [table] = await eslint.lintText("export const X = 'read_file';\n", { filePath: TABLE_FILE });
  assert.equal(
    table!.messages.filter((m) => m.ruleId === 'knack/tool-names').length,
    0,
    'the table itself spells the names',
  );
});

test('the lint rule covers the agent and the CLI: a tool name spelled out in core/agent or main/cli is reported', async () => {
  const eslint = new ESLint({ cwd: repoRoot });
  const code =
    "export const isSkillCall = (name: string): boolean => name === 'Skill' || name === `read_skill_resource`;\n";
  for (const file of [
    ['main', 'core', 'agent', 'session.ts'],
    ['main', 'core', 'agent', 'session-tools.ts'],
    ['main', 'cli', 'chat.ts'],
  ]) {
    const [r] = await eslint.lintText(code, { filePath: join(repoRoot, ...file) });
    const hits = r!.messages
      .filter((m) => m.ruleId === 'knack/tool-names')
      .map((m) => /"([^"]+)"/.exec(m.message)?.[1]);
    assert.deepEqual(hits, ['Skill', 'read_skill_resource'], file.join('/'));
  }
});
