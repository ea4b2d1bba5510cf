// The fast frontmatter reader against the `yaml` package on real files: every SKILL.md under test/fixtures, split
// once, then each frontmatter parsed by parseFrontmatterYaml with the fast reader on and off, alternating rounds in one
// process (the file reads are left out: both sides read the same bytes). Issue 28 keeps the fast reader only if it
// wins by at least 3×; the ratio is printed with that threshold.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import {
  frontmatterFastParses,
  parseFrontmatterYaml,
  splitFrontmatter,
  useFastFrontmatter,
} from '../../main/core/skills/format/frontmatter.js';
import { FIXTURES } from '../helpers/tmp.js';

const ROUNDS = Number(process.env.KNACK_BENCH_ROUNDS ?? 15);
const KEEP_IF = 3;

function skillFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...skillFiles(p));
    else if (e.name === 'SKILL.md') out.push(p);
  }
  return out;
}

const heads: { fm: string; file: string }[] = [];
for (const file of skillFiles(FIXTURES)) {
  const s = splitFrontmatter(readFileSync(file, 'utf8'), file);
  if (s.ok) heads.push({ fm: s.frontmatter, file });
}

let sink = 0;
function pass(fast: boolean): number {
  useFastFrontmatter(fast);
  const t0 = process.hrtime.bigint();
  for (const h of heads) sink += parseFrontmatterYaml(h.fm, h.file).keyLines.size;
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

pass(true);
pass(false);
const before = frontmatterFastParses();
pass(true);
const answered = frontmatterFastParses() - before;
const fast: number[] = [];
const slow: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  fast.push(pass(true));
  slow.push(pass(false));
}
useFastFrontmatter(true);
const best = (xs: number[]): number => Math.min(...xs);
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
console.log(
  `${heads.length} SKILL.md frontmatters from test/fixtures (${answered} read by the fast reader, the rest fall back to yaml); ${ROUNDS} rounds, load ${loadavg()[0]!.toFixed(1)} (sink ${sink > 0 ? 'ok' : 0})`,
);
console.log(`yaml package (baseline)  best ${best(slow).toFixed(2)} ms/pass, median ${median(slow).toFixed(2)}`);
console.log(`fast reader (+ fallback) best ${best(fast).toFixed(2)} ms/pass, median ${median(fast).toFixed(2)}`);
const ratio = median(slow) / median(fast);
console.log(
  `fast reader wins ${ratio.toFixed(1)}× (median; keep if ≥ ${KEEP_IF}×) ${ratio >= KEEP_IF ? 'KEEP' : 'DROP'}`,
);
