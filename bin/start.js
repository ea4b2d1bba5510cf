#!/usr/bin/env node
// `npm start`: opens the desktop app where Electron is installed; otherwise says why and falls back
// to what runs under plain Node (the CLI view of the current folder's skills).
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

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

const bin = electronBinary();
if (bin && existsSync(new URL('../dist/main/electron/main.js', import.meta.url))) {
  const child = spawn(bin, [root], { stdio: 'inherit' });
  child.on('exit', (code) => process.exit(code ?? 0));
} else {
  console.log(
    bin
      ? 'Knack: the desktop build is not present yet (run `npm run build`); showing the command-line view instead.\n'
      : 'Knack: Electron is not installed on this machine (its binary could not be downloaded), so the desktop window\n' +
          'cannot open. Showing the command-line view of this folder instead.\n',
  );
  const { main } = await import('./cli-entry.js');
  // What the listing says about broken skills is information for the user; `npm start` itself never fails.
  await main(['skills', 'list', '--workspace', process.cwd()]);
  console.log('\nMore: npx knack help   ·   npx knack skills show NAME   ·   npx knack skills search "QUERY"');
  process.exit(0);
}
