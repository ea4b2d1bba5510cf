// Newest modification time under a folder, and of the build settings: how `npm start` and `knack` tell whether dist/
// is older than what it is built from.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Newest mtime (ms) under `dir`: its files' and its folders' own (a deleted or renamed file changes its folder's), 0
 * when it does not exist. Symlinks and other special files are skipped.
 */
export function newest(dir) {
  let t = 0;
  let names;
  try {
    names = readdirSync(dir, { withFileTypes: true });
    t = statSync(dir).mtimeMs;
  } catch {
    return 0;
  }
  for (const d of names) {
    const p = join(dir, d.name);
    if (d.isDirectory()) t = Math.max(t, newest(p));
    else if (d.isFile()) t = Math.max(t, statSync(p).mtimeMs);
  }
  return t;
}

/** A file's mtime (ms), 0 when it does not exist (a settings file a checkout lacks cannot make a build stale). */
export function mtimeOf(file) {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

/** Newest mtime of the files that shape every build: the package, the build script and the TypeScript settings (esbuild reads them). */
export function newestBuildSetting(root) {
  return Math.max(
    ...['package.json', 'scripts/build.mjs', 'tsconfig.json', 'tsconfig.base.json', 'tsconfig.electron.json'].map((f) =>
      mtimeOf(join(root, f)),
    ),
  );
}

/** Whether dist/renderer is missing or older than what Vite builds it from (`npm start`, and test/run.js for the journeys). */
export function rendererStale(root) {
  const sources = Math.max(
    newest(join(root, 'renderer')),
    newest(join(root, 'preload')),
    mtimeOf(join(root, 'vite.config.ts')),
    mtimeOf(join(root, 'tsconfig.renderer.json')),
    newestBuildSetting(root),
  );
  return mtimeOf(join(root, 'dist', 'renderer', 'index.html')) < sources;
}
