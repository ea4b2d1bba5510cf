// The real `knack chat` in a child process, typed into through stdin, for tests of the interactive chat: waits for
// what it prints (`until`) and for its `>` prompts (`at`).
import { spawn } from 'node:child_process';
import { cliEnv, KNACK_BIN } from './cli.js';

/** The real `knack chat` in a child process, typed into through stdin; waits for what it prints. */
export function chatChild(args: string[], env: Record<string, string>) {
  const p = spawn(process.execPath, [KNACK_BIN, 'chat', ...args], {
    env: cliEnv(env),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const waiters: { test: () => boolean; resolve: () => void }[] = [];
  const check = (): void => {
    for (const w of [...waiters])
      if (w.test()) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
  };
  p.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
    check();
  });
  p.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
    check();
  });
  const exited = new Promise<number | null>((resolve) => p.on('exit', (code) => resolve(code)));
  const prompts = (): number => (stderr.match(/^>$/gm) ?? []).length;
  return {
    get stdout() {
      return stdout;
    },
    get stderr() {
      return stderr;
    },
    /** Resolve once `re` has matched the output (stdout + stderr) `times` times. */
    until(re: RegExp, times = 1): Promise<void> {
      const g = new RegExp(re.source, re.flags.includes('g') ? re.flags : re.flags + 'g');
      const seen = (): boolean => ((stdout + '\n' + stderr).match(g) ?? []).length >= times;
      if (seen()) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const t = setTimeout(
          () =>
            reject(new Error(`timed out waiting for ${re} (${times}×)\n--- stdout\n${stdout}\n--- stderr\n${stderr}`)),
          60_000,
        );
        waiters.push({
          test: seen,
          resolve: () => {
            clearTimeout(t);
            resolve();
          },
        });
      });
    },
    /** Wait for the n-th `>` prompt, then type a line. */
    async at(n: number, line: string): Promise<void> {
      const g = { test: () => prompts() >= n };
      if (!g.test()) {
        await new Promise<void>((resolve, reject) => {
          const t = setTimeout(
            () => reject(new Error(`timed out waiting for prompt ${n}\n--- stdout\n${stdout}\n--- stderr\n${stderr}`)),
            60_000,
          );
          waiters.push({
            test: g.test,
            resolve: () => {
              clearTimeout(t);
              resolve();
            },
          });
        });
      }
      p.stdin.write(line + '\n');
    },
    type(line: string): void {
      p.stdin.write(line + '\n');
    },
    signal(s: NodeJS.Signals): void {
      p.kill(s);
    },
    exited,
    kill(): void {
      if (p.exitCode === null) p.kill('SIGKILL');
    },
  };
}
