// One command run inside a wall for tests: its exit code, output, and what the wall blocked (each as `kind target`);
// and the folders such a test runs in.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { basename, join } from 'node:path';
import { tempDir } from './tmp.js';
import type { Wall } from '../../main/core/contain/wall.js';
import type { Blocked } from '../../main/core/contain/blocked.js';

export async function runInWall(wall: Wall, cwd: string, command: string, hosts: string[] = []) {
  const p = await wall.spawn(command, { cwd, hosts });
  let stdout = '';
  let stderr = '';
  p.child.stdout!.on('data', (b: Buffer) => (stdout += b));
  p.child.stderr!.on('data', (b: Buffer) => (stderr += b));
  const code = await new Promise<number | null>((r) => p.child.once('close', r));
  return { code, stdout, stderr, blocked: await p.finish(stderr) };
}

/** `write /x`, `read /home/u/.ssh`, `network host:80`: what was blocked, one string each. */
export const kinds = (blocked: Blocked[]): string[] => blocked.map((b) => `${b.kind} ${b.target}`);

/** A root folder with a home, a workspace and a canary file outside both that no command may change. */
export function wallFolders(prefix: string): { root: string; home: string; ws: string; canary: string } {
  const root = tempDir(prefix);
  const home = join(root, 'home');
  const ws = join(root, 'ws');
  const canary = join(root, 'canary.txt');
  mkdirSync(home, { recursive: true });
  mkdirSync(ws, { recursive: true });
  writeFileSync(canary, 'untouched\n');
  return { root, home, ws, canary };
}

/** A TCP listener on 127.0.0.1 that counts the connections it gets (closing each): what no contained command reaches. */
export async function loopbackListener(): Promise<{ port: number; hits: () => number; close: () => void }> {
  let hits = 0;
  const server = createServer((s) => {
    hits++;
    s.destroy();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { port: (server.address() as AddressInfo).port, hits: () => hits, close: () => server.close() };
}

/** The socat bridges this process runs (the sandbox runtime's proxy relays, spawned as its children). */
export function socatBridges(): number[] {
  const pids: number[] = [];
  for (const task of readdirSync(`/proc/${process.pid}/task`)) {
    let children = '';
    try {
      children = readFileSync(`/proc/${process.pid}/task/${task}/children`, 'utf8');
    } catch {
      continue;
    }
    for (const pid of children.split(/\s+/).filter(Boolean).map(Number)) {
      try {
        if (basename(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0]!) === 'socat') pids.push(pid);
      } catch {
        // gone meanwhile
      }
    }
  }
  return pids;
}
