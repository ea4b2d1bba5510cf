// Command-gate benchmark: the cost of reading command lines with the shell parser (first load, distinct lines, cached lines)
// against a plain read_file decision in the same run, and grep with per-file grant checks against grep without them.
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_SETTINGS } from '../../main/core/config/settings.js';
import { ceilingFrom } from '../../main/core/policy/ceiling.js';
import { createGate } from '../../main/core/policy/gate.js';
import { parseCommandLine } from '../../main/core/policy/shell.js';
import type { Rule } from '../../main/core/store/policy-repo.js';
import { grepTool } from '../../main/core/tools/builtin/grep.js';
import { withGrants } from '../../main/core/tools/grants.js';
import type { ToolContext } from '../../main/core/tools/types.js';

const root = mkdtempSync(join(tmpdir(), 'knack-gate-bench-'));
const ws = join(root, 'ws');
mkdirSync(ws);
try {
  const rules: Rule[] = [
    { id: 'a', effect: 'allow', tool: 'bash', command: 'git status', createdAt: 0 },
    { id: 'b', effect: 'allow', tool: 'bash', command: 'ls', createdAt: 0 },
    { id: 'd', effect: 'deny', tool: 'bash', command: 'rm -rf', createdAt: 0 },
  ];
  const gate = createGate({
    ceiling: ceilingFrom(structuredClone(DEFAULT_SETTINGS), ws),
    rules: () => rules,
    skill: () => undefined,
    protectedRoots: [],
  });
  const agent = { kind: 'agent' as const, activeSkills: [] };
  const ms = (f: () => void): number => {
    const t = performance.now();
    f();
    return performance.now() - t;
  };

  const load = ms(() => parseCommandLine('true'));
  const N = 400;
  const lines = Array.from(
    { length: N },
    (_, i) => `git status -s ${i} && ls -la src/${i} | head -${(i % 9) + 1} 2>&1`,
  );
  const bash =
    ms(() => {
      for (const c of lines) gate.authorize({ tool: 'bash', args: {}, access: { command: c } }, agent);
    }) / N;
  const cached =
    ms(() => {
      for (const c of lines) gate.authorize({ tool: 'bash', args: {}, access: { command: c } }, agent);
    }) / N;
  writeFileSync(join(ws, 'a.txt'), 'x');
  const read =
    ms(() => {
      for (let i = 0; i < N; i++)
        gate.authorize({ tool: 'read_file', args: {}, access: { read: [join(ws, 'a.txt')] } }, agent);
    }) / N;
  console.log(`shell parser first load            ${load.toFixed(1)} ms (once per process)`);
  console.log(`bash decision, distinct lines      ${bash.toFixed(3)} ms/call`);
  console.log(`bash decision, same line again     ${cached.toFixed(3)} ms/call (parse cached)`);
  console.log(`read_file decision (baseline)      ${read.toFixed(3)} ms/call`);
  console.log(
    `ratio bash/read_file               ${(bash / read).toFixed(1)}×  (target: a bash decision well under the ~1 s a person needs to read it)`,
  );

  // grep over 2,000 files: per-file grant checks vs none.
  for (let d = 0; d < 20; d++) {
    mkdirSync(join(ws, `d${d}`));
    for (let f = 0; f < 100; f++)
      writeFileSync(join(ws, `d${d}`, `f${f}.txt`), `line one\nneedle ${d}/${f}\nline three\n`);
  }
  const ctx: ToolContext = { workspace: ws, actor: agent };
  const granted = withGrants(ctx, gate, 'grep', { pattern: 'needle' }, { verdict: 'allow', reason: 'bench' });
  const time = async (c: ToolContext): Promise<number> => {
    const t = performance.now();
    await grepTool.handler({ pattern: 'needle', max_results: 2000 }, c);
    return performance.now() - t;
  };
  await time(ctx);
  const plain = Math.min(await time(ctx), await time(ctx));
  const checked = Math.min(await time(granted), await time(granted));
  console.log(`grep 2,000 files, no grant check   ${plain.toFixed(0)} ms`);
  console.log(`grep 2,000 files, per-file grants  ${checked.toFixed(0)} ms`);
  console.log(`ratio checked/unchecked            ${(checked / plain).toFixed(2)}×`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
