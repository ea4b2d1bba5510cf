// grep benchmark: ripgrep vs the JavaScript engine over a generated tree of 20,000 files (200 folders of 100 source-like
// files, ~1.5 KB each, a .gitignore'd build folder), for a rare literal, a common regex and a case-insensitive word.
// Each engine runs 3 times per query, alternating; the median is shown, with the JavaScript engine as the baseline.
// Both must return the same matches. The JavaScript engine gets a generous regex budget here, so it is timed to the end.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { grepFiles, TimeBudget, type GrepEngine } from '../../main/core/tools/builtin/grep.js';
import { findRipgrep } from '../../main/core/tools/builtin/grep-rg.js';

const FOLDERS = 200;
const PER_FOLDER = 100;
const RUNS = 3;

const root = mkdtempSync(join(tmpdir(), 'knack-grep-bench-'));
process.on('exit', () => rmSync(root, { recursive: true, force: true }));

let seed = 7;
const rnd = (n: number): number => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) % n;
const WORDS = ['const', 'value', 'return', 'function', 'import', 'export', 'result', 'config', 'items', 'index'];
function body(i: number): string {
  const lines: string[] = [];
  for (let l = 0; l < 40; l++) {
    const w = Array.from({ length: 5 }, () => WORDS[rnd(WORDS.length)]).join(' ');
    lines.push(l === 0 && i % 997 === 0 ? `// zebraquartz marker ${i}` : `  ${w}(${rnd(1000)});`);
  }
  return `${lines.join('\n')}\n`;
}
let made = 0;
const t0 = performance.now();
writeFileSync(join(root, '.gitignore'), 'build/\n');
for (let d = 0; d < FOLDERS; d++) {
  const dir = join(root, d % 20 === 19 ? 'build' : 'src', `m${String(d).padStart(3, '0')}`);
  mkdirSync(dir, { recursive: true });
  for (let f = 0; f < PER_FOLDER; f++) writeFileSync(join(dir, `f${f}.ts`), body(made++));
}
console.log(
  `tree: ${made} files in ${FOLDERS} folders (10 of them ignored), made in ${Math.round(performance.now() - t0)} ms`,
);
console.log(`rg: ${findRipgrep() ?? 'not on PATH (both rows are the JavaScript engine)'}`);

const ctx = { workspace: root, actor: { kind: 'user' as const } };
const QUERIES = [
  { label: 'rare literal', a: { pattern: 'zebraquartz' } },
  { label: 'regex', a: { pattern: 'return\\([0-9]*7\\)|items index', max_results: 2000 } },
  { label: 'ignore case', a: { pattern: 'ZEBRAQUARTZ MARKER', ignore_case: true } },
];

async function timed(engine: GrepEngine, a: Record<string, unknown>) {
  const t = performance.now();
  const r = await grepFiles(a as { pattern: string }, ctx, new TimeBudget(600_000), { engine });
  const ms = performance.now() - t;
  if (!r.ok) throw new Error(`${engine}: ${r.error.message}`);
  return { ms, c: r.content as { matches: unknown[]; filesSearched: number; engine: string } };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`\nquery          engine       median ms   (runs)                 matches  files searched`);
for (const q of QUERIES) {
  const ms: Record<string, number[]> = { ripgrep: [], javascript: [] };
  const last: Record<string, { matches: unknown[]; filesSearched: number; engine: string }> = {};
  for (let i = 0; i < RUNS; i++) {
    for (const engine of (i % 2 ? ['javascript', 'ripgrep'] : ['ripgrep', 'javascript']) as GrepEngine[]) {
      const r = await timed(engine, q.a);
      ms[engine]!.push(r.ms);
      last[engine] = r.c;
    }
  }
  if (JSON.stringify(last.ripgrep!.matches) !== JSON.stringify(last.javascript!.matches))
    throw new Error(`${q.label}: the engines disagree`);
  for (const engine of ['ripgrep', 'javascript']) {
    const runs = ms[engine]!.map((x) => Math.round(x)).join(', ');
    console.log(
      `${q.label.padEnd(14)} ${last[engine]!.engine.padEnd(12)} ${String(Math.round(median(ms[engine]!))).padStart(9)}   (${runs})`.padEnd(
        62,
      ) + `${String(last[engine]!.matches.length).padStart(7)}  ${last[engine]!.filesSearched}`,
    );
  }
  console.log(
    `${''.padEnd(14)} speed-up: ${(median(ms.javascript!) / median(ms.ripgrep!)).toFixed(1)}× (JavaScript engine = baseline)`,
  );
}
