// Opening the system browser, when this machine has one: a desktop session on Linux (DISPLAY/WAYLAND_DISPLAY and
// xdg-open), `open` on macOS, `start` on Windows. Returns why not, so the caller prints one clear line.
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

function onPath(cmd: string, env: NodeJS.ProcessEnv): boolean {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    try {
      accessSync(join(dir, cmd), constants.X_OK);
      return true;
    } catch {
      // not here
    }
  }
  return false;
}

/** The command that opens a URL here, or the reason there is none. */
function browserOpener(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
): { cmd: string; args: string[] } | { reason: string } {
  if (platform === 'darwin') return { cmd: 'open', args: [] };
  if (platform === 'win32') return { cmd: 'cmd', args: ['/c', 'start', '""'] };
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY)
    return { reason: 'no desktop session here (DISPLAY and WAYLAND_DISPLAY are unset)' };
  if (!onPath('xdg-open', env)) return { reason: 'xdg-open is not installed' };
  return { cmd: 'xdg-open', args: [] };
}

/** Try to open `url`; resolves to undefined when launched, or the reason it was not. Never throws. */
export function openBrowser(url: string, opener = browserOpener()): Promise<string | undefined> {
  if ('reason' in opener) return Promise.resolve(opener.reason);
  return new Promise((resolve) => {
    try {
      const child = spawn(opener.cmd, [...opener.args, url], { stdio: 'ignore', detached: true });
      child.once('error', (e) => resolve(`${opener.cmd} failed: ${e.message}`));
      child.once('spawn', () => {
        child.unref();
        resolve(undefined);
      });
    } catch (e) {
      resolve(`${opener.cmd} failed: ${(e as Error).message}`);
    }
  });
}
