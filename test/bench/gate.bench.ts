// Gate benchmark: 2,000 catalog skills. The first tool call after a catalog change (one SKILL.md edited) against a
// warm call in the same run (target ≤ 2 ms), and a full rebuild over every skill for comparison.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openCatalog } from '../../main/core/skills/catalog/catalog.js';
import { CatalogGate } from '../../main/core/skills/use/catalog-gate.js';
import { DEFAULT_SETTINGS } from '../../main/core/config/settings.js';
import type { Actor, ToolCall } from '../../main/core/policy/types.js';

const N = Number(process.env.KNACK_BENCH_SKILLS ?? 2_000);
const REPS = Number(process.env.KNACK_BENCH_REPS ?? 25);
const root = mkdtempSync(join(tmpdir(), 'knack-bench-gate-'));
const ws = join(root, 'ws');
const user = join(root, 'home', '.workbuddy', 'skills');

function skillText(i: number, rev: number): string {
  const tools = i % 3 === 0 ? '[read_file, grep]' : i % 3 === 1 ? '[read_file]' : '["bash(git:*)"]';
  return `---\nname: skill-${i}\ndescription: Use when the user asks for task ${i} (revision ${rev}).\npermissions:\n  tools: ${tools}\n  paths:\n    read: ["src/**", "docs/**"]\n---\n# skill ${i}\n\nSteps.\n`;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

try {
  mkdirSync(join(ws, 'src'), { recursive: true });
  writeFileSync(join(ws, 'src', 'a.ts'), 'x');
  for (let i = 0; i < N; i++) {
    mkdirSync(join(user, `skill-${i}`), { recursive: true });
    writeFileSync(join(user, `skill-${i}`, 'SKILL.md'), skillText(i, 0));
  }
  const catalog = await openCatalog({
    paths: { home: join(root, 'home'), dataDir: join(root, 'data'), builtinSkillsDir: join(root, 'builtin') },
    workspace: ws,
    listingRacyMs: 0,
  });
  const gate = new CatalogGate({ settings: DEFAULT_SETTINGS, workspace: ws, catalog });
  catalog.on('change', (c) => gate.changed(c));
  const call: ToolCall = { tool: 'grep', args: { path: 'src' }, access: { read: [join(ws, 'src')] } };
  const actor: Actor = { kind: 'agent', activeSkills: ['skill-0', 'skill-3'] };
  const t0 = performance.now();
  gate.authorize(call, actor);
  const firstBuild = performance.now() - t0;

  const warm: number[] = [];
  for (let i = 0; i < 2_000; i++) {
    const t = performance.now();
    gate.authorize(call, actor);
    warm.push(performance.now() - t);
  }
  const afterChange: number[] = [];
  const fullRebuild: number[] = [];
  for (let r = 1; r <= REPS; r++) {
    const i = (r * 37) % N;
    writeFileSync(join(user, `skill-${i}`, 'SKILL.md'), skillText(i, r));
    const change = await catalog.refresh();
    if (change.changed.length !== 1) throw new Error(`expected one changed skill, got ${JSON.stringify(change)}`);
    let t = performance.now();
    gate.authorize(call, actor);
    afterChange.push(performance.now() - t);
    // The same call after a full rebuild over every acting skill (what every change cost before).
    gate.invalidate();
    t = performance.now();
    gate.authorize(call, actor);
    fullRebuild.push(performance.now() - t);
  }
  const w = median(warm);
  const a = median(afterChange);
  const f = median(fullRebuild);
  console.log(`${N} skills in the catalog, ${REPS} single-skill edits (catalog refresh not timed)`);
  console.log(`first build of the gate            ${firstBuild.toFixed(3).padStart(8)} ms`);
  console.log(`warm call (median of 2,000)        ${w.toFixed(3).padStart(8)} ms`);
  console.log(
    `first call after a change (median) ${a.toFixed(3).padStart(8)} ms  = ${(a / w).toFixed(1)}× a warm call (target ≤ 2 ms)`,
  );
  console.log(
    `same call after a full rebuild     ${f.toFixed(3).padStart(8)} ms  = ${(f / w).toFixed(1)}× a warm call, ${(f / a).toFixed(1)}× the incremental one`,
  );
  if (a > 2) process.exitCode = 1;
} finally {
  rmSync(root, { recursive: true, force: true });
}
