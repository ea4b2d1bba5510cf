#!/usr/bin/env node
// Runs every test file under test/unit and test/e2e with node's test runner (compiled by esbuild first, or TypeScript
// through tsx with KNACK_TEST_BUNDLE=0).
// Usage: node test/run.js [substring ...]   — only files whose path contains one of the substrings.
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { rendererStale } from '../bin/newest.js';

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

const env = { ...process.env, KNACK_TEST: '1' };
// The Chromium journeys share one renderer: dist/renderer (`npm test` builds it just before), built here first when it
// is missing or older than its sources, so no journey file builds its own.
if (files.some((f) => f.startsWith(join('test', 'e2e'))) && !env.KNACK_E2E_RENDERER) {
  if (rendererStale(root)) {
    const built = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--renderer-only'], {
      cwd: root,
      stdio: 'inherit',
    });
    if (built.status !== 0) {
      console.error('the renderer did not build (see above): the journeys in test/e2e need it');
      process.exit(built.status ?? 1);
    }
  }
  env.KNACK_E2E_RENDERER = join(root, 'dist', 'renderer');
}

// Three files at once on a 2-core machine: most journeys and CLI tests wait on a browser, a server or a child process,
// so a third file fills that time (the suite had grown past 15 minutes at two). KNACK_TEST_CONCURRENCY=N tries another
// number on a given machine. Files start in the sorted order: the journeys (the longest files) first, then test/unit by
// name; ordering test/unit by size too gained under 1 % when replayed over a CI run's per-file durations.
const concurrency = Number(process.env.KNACK_TEST_CONCURRENCY ?? 3);
if (!Number.isInteger(concurrency) || concurrency < 1) {
  console.error(
    `KNACK_TEST_CONCURRENCY must be a whole number of files, at least 1: ${process.env.KNACK_TEST_CONCURRENCY}`,
  );
  process.exit(2);
}
// One folder for the run's derived Chinese–English map (test/helpers/search-seed.ts): built by the first file that makes
// a data folder, copied into each test data folder after that. A file run on its own builds its own, as before.
const seed = files.length > 1 && !env.KNACK_TEST_SEARCH_SEED ? mkdtempSync(join(tmpdir(), 'knack-search-seed-')) : '';
if (seed) env.KNACK_TEST_SEARCH_SEED = seed;
// The files compiled by esbuild first (test/bundle.js), then run in plain node: ~1.4 s less CPU per file than tsx's
// loader, ~150 s of a 2-core run of the suite. KNACK_TEST_BUNDLE=0 runs them through tsx instead. The folder is under node_modules/.cache (packages resolve from there, and no formatter,
// linter or git looks in it), one per run, removed after it.
let bundled = '';
let loader = ['--import', 'tsx'];
let paths = files;
if (process.env.KNACK_TEST_BUNDLE !== '0') {
  const cache = join(root, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  // Its real path, so the source maps' paths lead back to this checkout when node_modules is a link to another one.
  bundled = mkdtempSync(join(realpathSync(cache), 'knack-test-bundle-'));
  try {
    const { bundleTests } = await import('./bundle.js');
    paths = await bundleTests(root, files, bundled);
    loader = ['--enable-source-maps'];
  } catch (e) {
    rmSync(bundled, { recursive: true, force: true });
    console.error(`the test files did not compile (test/bundle.js): ${e.message}`);
    process.exit(1);
  }
}
const res = spawnSync(
  process.execPath,
  [...loader, '--test', `--test-concurrency=${concurrency}`, '--test-reporter=spec', ...paths],
  { cwd: root, stdio: 'inherit', env },
);
if (seed) rmSync(seed, { recursive: true, force: true });
if (bundled) rmSync(bundled, { recursive: true, force: true });
process.exit(res.status ?? 1);
