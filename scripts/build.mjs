#!/usr/bin/env node
// `npm run build`: the renderer with Vite (dist/renderer), then the Electron main, the preload, the sandbox host and
// the catalog's parse and audit workers, and the `knack` CLI with esbuild (dist/main/electron, dist/preload) — compiled
// JavaScript, no tsx at run time.
// Usage: node scripts/build.mjs [--main-only | --renderer-only]
import { build } from 'esbuild';
import { copyFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const args = new Set(process.argv.slice(2));

/** Runtime dependencies stay in node_modules (native modules, data files); only our TypeScript is bundled. */
// esbuild: parse-pool.ts imports it dynamically on the TypeScript-checkout path only (never taken by built code).
const external = ['electron', 'esbuild', ...Object.keys(pkg.dependencies ?? {})];

// Bundled ESM still meets `require` in dependencies' interop paths; give it a real one.
const banner = {
  js: "import { createRequire as __knackCreateRequire } from 'node:module'; const require = __knackCreateRequire(import.meta.url);",
};

export async function buildMain() {
  const out = join(root, 'dist', 'main', 'electron');
  rmSync(out, { recursive: true, force: true });
  const common = {
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    sourcemap: 'linked',
    external,
    banner,
    logLevel: 'warning',
    legalComments: 'none',
  };
  // main.js (and cli.js, the `knack` command: bin/cli-entry.js runs it when it is newer than the sources), and beside
  // them the file the core starts by path (sandbox/spawn.ts: ./host.js).
  await build({
    ...common,
    entryPoints: {
      main: join(root, 'main', 'electron', 'main.ts'),
      cli: join(root, 'main', 'cli', 'index.ts'),
      host: join(root, 'main', 'core', 'sandbox', 'host.ts'),
    },
    outdir: out,
  });
  // A sandboxed preload must be one CommonJS file that requires nothing but `electron`: zod and the contract go inside.
  await build({
    bundle: true,
    platform: 'node',
    target: 'chrome130',
    format: 'cjs',
    sourcemap: 'linked',
    external: ['electron'],
    logLevel: 'warning',
    entryPoints: [join(root, 'preload', 'index.ts')],
    outfile: join(root, 'dist', 'preload', 'index.cjs'),
  });
  // dist/ holds ESM .js files next to a CommonJS preload: say which is which for Node and Electron.
  writeFileSync(join(root, 'dist', 'package.json'), JSON.stringify({ type: 'module' }) + '\n');
  copyWindowIcon();
}

/** The window's icon ships inside app.asar (main/electron/app-icon.ts); the installers' icons come from packaging/. */
export function copyWindowIcon(distDir = join(root, 'dist')) {
  copyFileSync(join(root, 'packaging', 'icon.png'), join(distDir, 'icon.png'));
}

export function buildRenderer() {
  const vite = join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  const r = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`vite build failed (exit ${r.status})`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    const built = [];
    if (!args.has('--main-only')) {
      buildRenderer();
      built.push('dist/renderer');
    }
    if (!args.has('--renderer-only')) {
      await buildMain();
      built.push('dist/main/electron (main, cli, host)', 'dist/preload/index.cjs', 'dist/icon.png');
    }
    console.log(`built: ${built.join(', ')}`);
  } catch (e) {
    console.error(`build failed: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  }
}
