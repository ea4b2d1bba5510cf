#!/usr/bin/env node
// Runs every test file under test/unit and test/e2e with node's test runner (TypeScript through tsx).
// Usage: node test/run.js [substring ...]   — only files whose path contains one of the substrings.
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const filters = process.argv.slice(2);

function walk(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...walk(p));
    else if (/\.test\.ts$/.test(name)) out.push(p);
  }
  return out;
}

const files = ['test/unit', 'test/e2e']
  .flatMap((d) => {
    try {
      return walk(join(root, d));
    } catch {
      return [];
    }
  })
  .map((f) => relative(root, f))
  .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)))
  .sort();

if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}

const res = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-reporter=spec', ...files],
  { cwd: root, stdio: 'inherit', env: { ...process.env, KNACK_TEST: '1' } },
);
process.exit(res.status ?? 1);
