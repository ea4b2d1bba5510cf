// Loads the CLI: the built bundle (dist/main/electron/cli.js, made by `npm run build`) when it is newer than every
// source file it is built from, else the TypeScript through tsx, so a checkout runs without a build step and never
// runs stale code. The bundle starts several times faster (no TypeScript to compile at start-up).
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { mtimeOf, newest, newestBuildSetting } from './newest.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const built = join(root, 'dist', 'main', 'electron');
// The bundle and the file it starts by path (the sandbox host).
const BUNDLE = ['cli.js', 'host.js'];

function bundleIsFresh() {
  if (process.env.KNACK_CLI_FROM_SOURCE) return false;
  let oldest = Infinity;
  for (const f of BUNDLE) {
    const t = mtimeOf(join(built, f));
    if (!t) return false; // missing
    oldest = Math.min(oldest, t);
  }
  // What the CLI bundle is built from: the core and CLI sources, the IPC contract (serve), and the build settings.
  const sources = Math.max(newest(join(root, 'main')), newest(join(root, 'preload')), newestBuildSetting(root));
  return sources <= oldest;
}

async function load() {
  if (bundleIsFresh()) {
    try {
      return await import(pathToFileURL(join(built, 'cli.js')).href);
    } catch {
      // A bundle being rebuilt right now: the sources always work.
    }
  }
  const { register } = await import('tsx/esm/api');
  register();
  return import('../main/cli/index.ts');
}

export const { main } = await load();
