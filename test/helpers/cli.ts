// The real `knack` CLI for tests: in-process (main() with an Io that collects what each command prints, a line per
// out/err call, optionally answering the terminal's yes/no questions), and the command line and environment every
// test points it at (temporary workspace, home and data folders), in-process or as a real `node bin/knack.js`.
import { join } from 'node:path';
import { main } from '../../main/cli/index.js';
import type { Io } from '../../main/cli/command.js';
import { tempDir } from './tmp.js';
import { seedSearchCache } from './search-seed.js';

/** bin/knack.js: the command a user runs, for tests where a real process is the point (exit, stdin, a terminal). */
export const KNACK_BIN = join(import.meta.dirname, '..', '..', 'bin', 'knack.js');

/** The folders a test points `knack` at, so it never reads the real home or ~/.knack. */
export interface CliFolders {
  ws: string;
  home: string;
  data: string;
}

/**
 * `--workspace WS --home HOME --data-dir DATA`: what every test's `knack` command line carries. DATA starts with the
 * test run's derived search data (test/helpers/search-seed.ts).
 */
export function cliArgs(f: CliFolders): string[] {
  seedSearchCache(f.data);
  return ['--workspace', f.ws, '--home', f.home, '--data-dir', f.data];
}

/** Workspace `ws`, `home` and `data` folder names under ROOT (a fresh temporary folder by default; none created). */
export function cliFolders(root = tempDir()): CliFolders & { root: string; args: string[] } {
  const f = { ws: join(root, 'ws'), home: join(root, 'home'), data: join(root, 'data') };
  return { root, ...f, args: cliArgs(f) };
}

/**
 * The environment of a `knack` child process: the test's own, less what would reach past the temporary folders or to
 * a real provider (KNACK_HOME, KNACK_DATA_DIR, the API keys), plus `extra`.
 */
export function cliEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    KNACK_HOME: '',
    KNACK_DATA_DIR: '',
    ANTHROPIC_API_KEY: '',
    OPENAI_API_KEY: '',
    DEEPSEEK_API_KEY: '',
    ...extra,
  };
}

export interface CliRun {
  code: number;
  /** stdout, each printed line ending in a newline. */
  out: string;
  err: string;
}

/**
 * Run `knack ARGS`; `answer` is what the terminal answers to a yes/no question (none: no terminal to ask); `env` is
 * set in process.env for the run only (the command reads it as a child would).
 */
export async function run(args: string[], answer?: boolean, env: Record<string, string> = {}): Promise<CliRun> {
  let out = '';
  let err = '';
  const io: Io = {
    out: (t) => void (out += `${t}\n`),
    err: (t) => void (err += `${t}\n`),
    ...(answer === undefined ? {} : { confirm: async () => answer }),
  };
  const before = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  try {
    const code = await main(args, io);
    return { code, out, err };
  } finally {
    for (const [k, v] of Object.entries(before)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

/** An Io that keeps each call's text apart (streamed text included), for tests that call main() themselves. */
export function capture(): { out: string[]; err: string[]; io: Io } {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    io: { out: (t) => void out.push(t), err: (t) => void err.push(t), write: (t) => void out.push(t) },
  };
}
