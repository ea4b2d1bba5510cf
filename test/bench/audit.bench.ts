// Audit benchmark: skills/second audited on the real public skills (every file of each folder), beside two baselines
// measured in the same run — plain reading of the same files, and a naive lowercase substring scan — plus warm cached discovery,
// and a skill with binary assets (images, fonts: 4 MiB of bytes with NULs) against plain reading of its files.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { auditSkill, listSkillFiles } from '../../main/core/skills/trust/audit.js';
import { auditCached } from '../../main/core/skills/trust/trust.js';
import { Store } from '../../main/core/store/index.js';
import { FIXTURES } from '../helpers/tmp.js';

const PUBLIC = join(FIXTURES, 'public-skills');
const dirs: string[] = [];
for (const org of readdirSync(PUBLIC).filter((d) => d.includes('__'))) {
  for (const s of readdirSync(join(PUBLIC, org, 'skills'))) dirs.push(join(PUBLIC, org, 'skills', s));
}
const ROUNDS = Number(process.env.KNACK_BENCH_ROUNDS ?? 20);

function time(fn: () => void): number {
  fn(); // warm-up
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < ROUNDS; i++) fn();
  return Number(process.hrtime.bigint() - t0) / 1e6 / ROUNDS;
}

const NAIVE = [
  'rm -rf /',
  'sudo ',
  'eval(',
  'exec(',
  'os.system',
  'function(',
  'child_process',
  '| sh',
  'curl ',
  'wget ',
  'npm install',
  'pip install',
  'git clone',
  'ignore previous instructions',
  'do not tell the user',
  'unrestricted mode',
  '.ssh',
  '.aws',
  '.env',
  'base64',
];

let sink = 0;
const readMs = time(() => {
  for (const d of dirs) for (const f of listSkillFiles(d).files) sink += readFileSync(f.abs).length;
});
const naiveMs = time(() => {
  for (const d of dirs) {
    for (const f of listSkillFiles(d).files) {
      const t = readFileSync(f.abs, 'utf8').toLowerCase();
      for (const p of NAIVE) if (t.includes(p)) sink++;
    }
  }
});
let p0 = 0;
const auditMs = time(() => {
  p0 = 0;
  for (const d of dirs) if (auditSkill(d).level === 'P0') p0++;
});
const dataDir = mkdtempSync(join(tmpdir(), 'knack-bench-audit-'));
const store = Store.openIn(dataDir);
for (const d of dirs) auditCached(d, store);
const cachedMs = time(() => {
  for (const d of dirs) auditCached(d, store);
});
store.close();
rmSync(dataDir, { recursive: true, force: true });

// A skill with binary assets: four 1 MiB files of pseudo-random bytes (as compressed images and fonts are, NULs included).
const assetDir = mkdtempSync(join(tmpdir(), 'knack-bench-assets-'));
mkdirSync(join(assetDir, 'assets'));
writeFileSync(
  join(assetDir, 'SKILL.md'),
  '---\nname: charts\ndescription: Draws charts from CSV files.\n---\n# Charts\n\nUse the fonts in assets/.\n',
);
let seed = 1;
for (let k = 0; k < 4; k++) {
  const b = Buffer.alloc(1024 * 1024);
  for (let i = 0; i < b.length; i++) b[i] = (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24;
  writeFileSync(join(assetDir, 'assets', `font-${k}.ttf`), b);
}
const assetFiles = listSkillFiles(assetDir).files;
const assetRead = time(() => {
  for (const f of assetFiles) sink += readFileSync(f.abs).length;
});
const assetAudit = time(() => {
  if (auditSkill(assetDir).level !== 'P2') throw new Error('binary assets are not a finding');
});
rmSync(assetDir, { recursive: true, force: true });

const bytes = dirs.reduce((n, d) => n + listSkillFiles(d).files.reduce((m, f) => m + f.size, 0), 0);
const perSec = (ms: number): string => (dirs.length / (ms / 1000)).toFixed(0);
console.log(
  `public skills: ${dirs.length} folders, ${(bytes / 1024).toFixed(0)} KiB, ${ROUNDS} rounds (sink ${sink % 7})`,
);
console.log(
  `plain read (floor)          ${readMs.toFixed(2).padStart(8)} ms/pass  ${perSec(readMs).padStart(7)} skills/s`,
);
console.log(
  `naive substring scan        ${naiveMs.toFixed(2).padStart(8)} ms/pass  ${perSec(naiveMs).padStart(7)} skills/s`,
);
console.log(
  `full audit (P0/P1/P2)       ${auditMs.toFixed(2).padStart(8)} ms/pass  ${perSec(auditMs).padStart(7)} skills/s  = ${(auditMs / readMs).toFixed(1)}× plain read, ${(auditMs / naiveMs).toFixed(1)}× naive scan; ${(bytes / 1024 / 1024 / (auditMs / 1000)).toFixed(1)} MiB/s`,
);
console.log(
  `cached discovery audit      ${cachedMs.toFixed(2).padStart(8)} ms/pass  ${perSec(cachedMs).padStart(7)} skills/s  = ${((cachedMs / auditMs) * 100).toFixed(0)}% of a full audit (stat fingerprint + store lookup)`,
);
console.log(
  `skill with binary assets   ${assetAudit.toFixed(2).padStart(8)} ms/pass  (4 MiB) = ${(assetAudit / assetRead).toFixed(1)}× plain read of its files (${assetRead.toFixed(2)} ms)`,
);
console.log(`false P0 on public skills: ${p0} (target 0)`);
if (p0 !== 0) process.exitCode = 1;
