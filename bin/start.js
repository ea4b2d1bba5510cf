#!/usr/bin/env node
// `npm start`: the desktop app when the Electron binary is installed; otherwise serve mode in the system browser.
// Builds first when dist/ is missing or older than the sources, and says in one line which mode runs and why.
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { mtimeOf as mtime, newest, newestBuildSetting, rendererStale as rendererIsStale } from './newest.js';

const require = createRequire(import.meta.url);
const root = fileURLToPath(new URL('..', import.meta.url));

function electronBinary() {
  try {
    const p = require('electron'); // the npm package exports the binary path; throws when the binary is missing
    return typeof p === 'string' && existsSync(p) ? p : undefined;
  } catch {
    return undefined;
  }
}

/** Build what is missing or stale: the renderer always; main and preload only for the desktop app. */
function buildIfNeeded(desktop) {
  const rendererStale = rendererIsStale(root);
  const mainStale =
    desktop &&
    mtime(join(root, 'dist', 'main', 'electron', 'main.js')) <
      Math.max(newest(join(root, 'main')), newest(join(root, 'preload')), newestBuildSetting(root));
  if (!rendererStale && !mainStale) return;
  const args = rendererStale && mainStale ? [] : rendererStale ? ['--renderer-only'] : ['--main-only'];
  console.log('Knack: building the app first (npm run build)…');
  const r = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs'), ...args], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error('Knack: the build failed (see above); fix it or run `npx knack help` for the command line.');
    process.exit(r.status ?? 1);
  }
}

const bin = electronBinary();
if (bin) {
  buildIfNeeded(true);
  const child = spawn(bin, [root], { stdio: 'inherit' });
  child.on('exit', (code) => process.exit(code ?? 0));
} else {
  console.log(
    'Knack: the Electron binary is not installed on this machine, so Knack opens in your browser instead (serve mode).',
  );
  buildIfNeeded(false);
  const { main } = await import('./cli-entry.js');
  // No folder unless one is asked for (--workspace): serve never opens Knack's own folder by itself.
  process.exitCode = await main(['serve', '--open', ...process.argv.slice(2)]);
}
