// The audit table of docs/security-model.md over a folder of fetched public skills, as an install would audit them.
//
//   node --import tsx test/bench/audit-table.ts FOLDER [--findings P0|P1]
//
// FOLDER holds one folder per publisher (`<owner>__<repo>`, any depth below it); every folder holding a SKILL.md is
// one skill. Prints a Markdown row per publisher (skills, files, P0, P1, P2) and every P0 finding with its rule and
// file:line (every P1 finding too with `--findings P1`). The copies are not in the repository: they are public
// content, audited where they were fetched.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { auditSkill, type AuditReport } from '../../main/core/skills/trust/audit.js';

function skillDirs(root: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(root).sort()) {
    const p = join(root, name);
    if (!statSync(p).isDirectory()) continue;
    if (existsSync(join(p, 'SKILL.md'))) out.push(p);
    out.push(...skillDirs(p));
  }
  return out;
}

const args = process.argv.slice(2);
const findingsAt = args.includes('--findings') ? args[args.indexOf('--findings') + 1] : 'P0';
const folder = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--findings');
if (!folder || !existsSync(folder) || !statSync(folder).isDirectory()) {
  console.error('usage: node --import tsx test/bench/audit-table.ts FOLDER [--findings P0|P1]');
  process.exit(2);
}
const root = resolve(folder);
const shown = findingsAt === 'P1' ? new Set(['P0', 'P1']) : new Set(['P0']);

console.log('| publisher | skills | files | P0 | P1 | P2 |');
console.log('|---|---|---|---|---|---|');
const notes: string[] = [];
const totals = { skills: 0, files: 0, P0: 0, P1: 0, P2: 0 };
for (const publisher of readdirSync(root).sort()) {
  const dir = join(root, publisher);
  if (!statSync(dir).isDirectory()) continue;
  const count = { skills: 0, files: 0, P0: 0, P1: 0, P2: 0 };
  for (const skill of skillDirs(dir)) {
    const report: AuditReport = auditSkill(skill);
    count.skills++;
    count.files += report.files;
    count[report.level]++;
    for (const f of report.findings)
      if (shown.has(f.level))
        notes.push(
          `${f.level} ${relative(root, skill)}: ${f.rule} at ${f.file}:${f.line} — ${f.excerpt.slice(0, 100)}`,
        );
  }
  for (const k of Object.keys(totals) as (keyof typeof totals)[]) totals[k] += count[k];
  console.log(
    `| ${publisher.replace('__', '/')} | ${count.skills} | ${count.files} | ${count.P0} | ${count.P1} | ${count.P2} |`,
  );
}
console.log(`| all | ${totals.skills} | ${totals.files} | ${totals.P0} | ${totals.P1} | ${totals.P2} |`);
if (notes.length) console.log('\n' + notes.join('\n'));
