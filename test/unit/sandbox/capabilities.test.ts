import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { world } from './setup.js';
import { tempDir } from '../../helpers/tmp.js';
import type { ToolDefinition } from '../../../main/core/tools/types.js';

const script = (body: string): string => `export default async function (args, knack) {\n${body}\n}\n`;

const calls: string[] = [];
const echoTool: ToolDefinition<Record<string, unknown>> = {
  name: 'echo',
  summary: 'echo',
  description: 'echo',
  inputSchema: {},
  deferLoading: false,
  risk: 'meta',
  access: () => ({}),
  handler: async (args, ctx) => {
    calls.push(`${ctx.actor.kind === 'skill' ? ctx.actor.skill : ctx.actor.kind}:${JSON.stringify(args)}`);
    return { ok: true, content: { echoed: args } };
  },
};

const outside = tempDir('knack-outside-');
writeFileSync(join(outside, 'secret.txt'), 'top secret');

const w = world({
  workspaceFiles: { 'data/in.txt': 'hello from the workspace', 'notes/a.md': 'a', 'private/key.txt': 'no' },
  tools: [echoTool],
  approve: async () => 'once',
  skills: {
    // No permissions block: least privilege, reads its own folder only.
    plain: {
      files: {
        'references/table.csv': 'a,b\n1,2\n',
        'scripts/own.mjs': script('return knack.readFile("references/table.csv", { from: "skill" });'),
        'scripts/ws.mjs': script('return knack.readFile("data/in.txt");'),
        'scripts/write.mjs': script('return knack.writeFile("out.txt", "x");'),
        'scripts/tool.mjs': script('return knack.callTool("echo", { hi: 1 });'),
        'scripts/write-own.mjs': script('return knack.writeFile("scripts/own.mjs", "x", { from: "skill" });'),
        'scripts/tool.py': 'print(1)\n',
        'scripts/caught.mjs': script(
          'try { await knack.readFile("data/in.txt"); } catch (e) { return { code: e.code, message: e.message }; }',
        ),
      },
    },
    reader: {
      permissions: { tools: ['echo'], paths: { read: ['data/**'], write: ['out/**'] } },
      files: {
        'scripts/read.mjs': script('return knack.readFile(args.path);'),
        'scripts/list.mjs': script('return knack.listDir(args.path);'),
        'scripts/write.mjs': script('return knack.writeFile(args.path, args.content);'),
        'scripts/tool.mjs': script('return knack.callTool("echo", { hi: 1 });'),
        'scripts/other-tool.mjs': script(
          'return knack.callTool("run_skill_script", { skill: "reader", script: "read.mjs" });',
        ),
        'scripts/abs.mjs': script('return knack.readFile(args.path);'),
      },
    },
  },
});

async function runOk(skill: string, name: string, args: unknown = {}): Promise<unknown> {
  const r = await w.runner.runSkillScript(w.skill(skill), name, { args });
  assert.ok(r.ok, JSON.stringify(r));
  return r.ok ? r.value : undefined;
}

async function runErr(skill: string, name: string, args: unknown = {}): Promise<{ code: string; message: string }> {
  const r = await w.runner.runSkillScript(w.skill(skill), name, { args });
  assert.equal(r.ok, false, JSON.stringify(r));
  return r.ok ? { code: '', message: '' } : r.error;
}

test('a skill without permissions reads its own folder and nothing else', async () => {
  assert.equal(await runOk('plain', 'own.mjs'), 'a,b\n1,2\n');
  const e = await runErr('plain', 'ws.mjs');
  assert.equal(e.code, 'capability.denied');
  assert.match(e.message, /knack\.readFile\("data\/in\.txt"\): denied: skill "plain" may not read/);
});

test('a denied capability call is an error the script can catch, with a code', async () => {
  const v = (await runOk('plain', 'caught.mjs')) as { code: string; message: string };
  assert.equal(v.code, 'capability.denied');
});

test('writing without a write permission is denied, and nothing is written', async () => {
  const e = await runErr('plain', 'write.mjs');
  assert.equal(e.code, 'capability.denied');
  assert.equal(existsSync(join(w.workspace, 'out.txt')), false);
});

test("a skill's own folder is read-only, even for itself", async () => {
  const e = await runErr('plain', 'write-own.mjs');
  assert.equal(e.code, 'capability.denied');
  assert.match(e.message, /read-only/);
});

test('calling a tool the manifest does not list is denied', async () => {
  const e = await runErr('plain', 'tool.mjs');
  assert.equal(e.code, 'capability.denied');
  assert.match(e.message, /echo/);
});

test('reads inside the manifest paths are allowed; outside them denied', async () => {
  assert.equal(await runOk('reader', 'read.mjs', { path: 'data/in.txt' }), 'hello from the workspace');
  const e = await runErr('reader', 'read.mjs', { path: 'private/key.txt' });
  assert.equal(e.code, 'capability.denied');
  assert.match(e.message, /may not read \S*private\/key\.txt \(its read paths: data\/\*\*\)/);
});

test('paths that leave the workspace are refused: .., absolute, and symlinks pointing out', async () => {
  symlinkSync(outside, join(w.workspace, 'data', 'link'));
  for (const path of [
    '../../outside/secret.txt',
    join(outside, 'secret.txt'),
    'data/link/secret.txt',
    'data/../../x',
  ]) {
    const e = await runErr('reader', 'abs.mjs', { path });
    assert.equal(e.code, 'capability.denied', path);
  }
  const e = await runErr('reader', 'abs.mjs', { path: 'data/link/secret.txt' });
  assert.match(e.message, /symlink/);
});

test('listDir lists a permitted folder', async () => {
  const v = (await runOk('reader', 'list.mjs', { path: 'data' })) as { entries: { name: string; type: string }[] };
  assert.ok(v.entries.some((x) => x.name === 'in.txt' && x.type === 'file'));
  assert.equal((await runErr('reader', 'list.mjs', { path: 'notes' })).code, 'capability.denied');
});

test('writes inside the manifest write paths land on disk (after approval); others are denied', async () => {
  assert.deepEqual(await runOk('reader', 'write.mjs', { path: 'out/report.txt', content: 'done' }), {
    path: 'out/report.txt',
    bytes: 4,
  });
  assert.equal(readFileSync(join(w.workspace, 'out', 'report.txt'), 'utf8'), 'done');
  assert.equal((await runErr('reader', 'write.mjs', { path: 'data/in.txt', content: 'x' })).code, 'capability.denied');
  assert.equal(readFileSync(join(w.workspace, 'data', 'in.txt'), 'utf8'), 'hello from the workspace');
});

test('callTool runs a declared tool through the gate with the skill as actor', async () => {
  assert.deepEqual(await runOk('reader', 'tool.mjs'), { echoed: { hi: 1 } });
  assert.ok(calls.includes('reader:{"hi":1}'));
});

test('scripts cannot start other scripts through callTool', async () => {
  const e = await runErr('reader', 'other-tool.mjs');
  assert.equal(e.code, 'capability.denied');
});

test('non-JavaScript scripts never run in the sandbox and the error points to the bash tool', async () => {
  const e = await runErr('plain', 'tool.py');
  assert.equal(e.code, 'script.not_javascript');
  assert.match(e.message, /Python script/);
  assert.match(e.message, /bash tool/);
});

test('a script name that leaves scripts/ or does not exist is refused', async () => {
  assert.equal((await runErr('plain', '../SKILL.md')).code, 'script.outside');
  assert.equal((await runErr('plain', '../../reader/scripts/read.mjs')).code, 'script.outside');
  assert.equal((await runErr('plain', 'nope')).code, 'script.not_found');
  assert.equal(await runOk('plain', 'own'), 'a,b\n1,2\n', 'the extension may be left out');
});

test('a write needing approval is refused when nobody approves', async () => {
  const w2 = world({
    skills: {
      s: {
        permissions: { paths: { write: ['out/**'] } },
        files: { 'scripts/w.mjs': script('return knack.writeFile("out/x.txt", "x");') },
      },
    },
  });
  const r = await w2.runner.runSkillScript(w2.skill('s'), 'w.mjs');
  assert.equal(!r.ok && r.error.code, 'capability.needs_approval');
  assert.equal(existsSync(join(w2.workspace, 'out', 'x.txt')), false);
});

test("the user's time to approve a call does not count against the script's time limit", async () => {
  const w3 = world({
    // The approval outlasts the limit by far, and the limit leaves the script's own start and call room under load.
    limits: { timeoutMs: 3000, cpuTimeMs: 3000 },
    approve: () => new Promise((r) => setTimeout(() => r('once'), 5000)),
    skills: {
      s: {
        permissions: { paths: { write: ['out/**'] } },
        files: { 'scripts/w.mjs': script('await knack.writeFile("out/x.txt", "x"); return "written";') },
      },
    },
  });
  const r = await w3.runner.runSkillScript(w3.skill('s'), 'w.mjs');
  assert.deepEqual(r.ok && r.value, 'written', JSON.stringify(r));
  assert.equal(readFileSync(join(w3.workspace, 'out', 'x.txt'), 'utf8'), 'x');
  const loop = await w3.runner.runSkillScript(w3.skill('s'), 'w.mjs', { args: {} });
  assert.ok(loop.ok, 'the next run works too');
});

test('a call still waiting for approval when the script ends never takes effect', async () => {
  const w4 = world({
    approve: () => new Promise((r) => setTimeout(() => r('once'), 300)),
    skills: {
      s: {
        permissions: { paths: { write: ['out/**'] } },
        files: { 'scripts/w.mjs': script('knack.writeFile("out/late.txt", "x").catch(() => {}); return "early";') },
      },
    },
  });
  const r = await w4.runner.runSkillScript(w4.skill('s'), 'w.mjs');
  assert.deepEqual(r.ok && r.value, 'early');
  await new Promise((res) => setTimeout(res, 600));
  assert.equal(existsSync(join(w4.workspace, 'out', 'late.txt')), false);
});
