// The system git, run for skill sources through one function (runGit), so the process sandbox can wrap every call:
// no prompts, no hooks, no submodules, no ext:: transport; bounded in time and, while fetching, in bytes on disk.
// runFetcher under it runs any fetching program (git, curl) that way.
import { spawn } from 'node:child_process';
import { lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export interface GitLimits {
  /** Whole fetch (network included), in ms. */
  timeoutMs: number;
  /** Bytes the clone may take on disk (objects and checked-out files). */
  maxBytes: number;
}

export const GIT_LIMITS: GitLimits = { timeoutMs: 120_000, maxBytes: 200 * 1024 * 1024 };

/** Settings given to every git call: a fetched repository can change none of them (its .git/config is ours). */
const SAFE_CONFIG = [
  'core.hooksPath=/dev/null',
  'core.fsmonitor=false',
  'core.symlinks=true',
  'protocol.ext.allow=never',
  'protocol.file.allow=always',
  'submodule.recurse=false',
  'fetch.recurseSubmodules=false',
  'credential.interactive=never',
  'advice.detachedHead=false',
  'init.defaultBranch=main',
];

export interface GitRun {
  code: number;
  stdout: string;
  stderr: string;
  /** Why it was stopped: the time or size limit. */
  stopped?: 'timeout' | 'size';
}

/**
 * What git (and curl, for a marketplace.json URL) is given of the environment: what it needs to find programs, the
 * home folder's ssh keys and config, an ssh agent, proxies and CA certificates (curl's own CURL_CA_BUNDLE too). Nothing
 * else (API keys, tokens, Knack's settings) reaches it.
 */
const GIT_ENV_KEEP =
  /^(PATH|HOME|USER|LOGNAME|LANG|TMPDIR|TMP|TEMP|SystemRoot|SSH_AUTH_SOCK|(HTTPS?|NO|ALL)_PROXY|(https?|no|all)_proxy|SSL_CERT_(FILE|DIR)|GIT_SSL_CAINFO|GIT_SSL_CAPATH|CURL_CA_BUNDLE|XDG_CONFIG_HOME)$/;

export function gitEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([k]) => GIT_ENV_KEEP.test(k)));
}

/** Bytes under `dir`, counting each file and link once (stops early past `cap`). */
export function folderBytes(dir: string, cap = Infinity): number {
  let total = 0;
  const stack = [dir];
  while (stack.length) {
    const d = stack.pop()!;
    let names: string[];
    try {
      names = readdirSync(d);
    } catch {
      continue;
    }
    for (const n of names) {
      const p = join(d, n);
      let st;
      try {
        st = lstatSync(p);
      } catch {
        continue;
      }
      total += st.size;
      if (total > cap) return total;
      if (st.isDirectory()) stack.push(p);
    }
  }
  return total;
}

/**
 * The OS sandbox git runs in (core/contain's Wall, seen through what this file needs): the program is wrapped, may
 * write only in `writeRoots` (`onlyWriteRoots`: not even the workspace) and reach only `hosts` through the sandbox's
 * proxy, loopback and private hosts included (`loopbackViaProxy`: a loopback git server is reached through the proxy,
 * not directly, since nothing is reachable directly from inside).
 */
export interface GitWall {
  wrapProgram(
    argv: string[],
    opts: {
      cwd: string;
      hosts?: string[];
      env?: NodeJS.ProcessEnv;
      writeRoots?: string[];
      onlyWriteRoots?: boolean;
      loopbackViaProxy?: boolean;
    },
  ): Promise<{ file: string; args: string[]; env: NodeJS.ProcessEnv; release(): Promise<unknown> | void }>;
}

/** The host a git URL reaches (none for a local path or file://): the only one a contained git may reach. */
export function gitHost(url: string): string | undefined {
  const scp = /^[^/@:]+@([^/:]+):/.exec(url);
  if (scp) return scp[1]!.toLowerCase();
  try {
    const u = new URL(url);
    return u.protocol === 'file:' || !u.hostname ? undefined : u.hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

export interface RunGitOptions {
  /** Run inside this wall, writing only `writeRoots` and reaching only `hosts`; without it git runs as a plain process. */
  wall?: GitWall;
  hosts?: string[];
  writeRoots?: string[];
  cwd: string;
  /** Deadline for this call. */
  timeoutMs: number;
  /** Stop the call when `watch` grows past this many bytes. */
  maxBytes?: number;
  watch?: string;
}

/** Run `git ARGS` (never through a shell) and collect its output; never throws for a failing git. */
export async function runGit(args: string[], opts: RunGitOptions): Promise<GitRun> {
  const env: NodeJS.ProcessEnv = {
    ...gitEnv(process.env),
    GIT_TERMINAL_PROMPT: '0',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_LFS_SKIP_SMUDGE: '1',
    GIT_ASKPASS: 'false',
    SSH_ASKPASS: 'false',
    GIT_SSH_COMMAND: 'ssh -oBatchMode=yes',
    LC_ALL: 'C',
  };
  return runFetcher(['git', ...SAFE_CONFIG.flatMap((c) => ['-c', c]), ...args], env, opts);
}

export interface RunFetcherOptions extends RunGitOptions {
  /** Stop the program (stopped: 'size') once it has printed more than this many bytes. */
  maxStdout?: number;
}

/**
 * Run a program that fetches a skill source (git, curl) with `env` and collect its output; never throws for a failing
 * program. Inside the wall when one is given (writing only `writeRoots`, reaching only `hosts` through its proxy,
 * refused when it cannot be contained); stopped, with its whole process group, at the deadline and at the size limits.
 */
export async function runFetcher(argv: string[], env: NodeJS.ProcessEnv, opts: RunFetcherOptions): Promise<GitRun> {
  const name = argv[0]!;
  let program = { file: name, args: argv.slice(1), env, release: (): Promise<unknown> | void => undefined };
  // The wall's sweep after the program (what it left in protected places moved aside) finishes before the run is
  // answered; a sweep that fails fails the run (fail closed: what it fetched is not used).
  const released = async (run: GitRun): Promise<GitRun> => {
    try {
      await program.release();
      return run;
    } catch (e) {
      const why = `fatal: the sandbox could not check what ${name} left behind: ${(e as Error).message}`;
      return { ...run, code: -1, stderr: `${run.stderr}${run.stderr ? '\n' : ''}${why}` };
    }
  };
  if (opts.wall) {
    try {
      program = await opts.wall.wrapProgram(argv, {
        cwd: opts.cwd,
        env,
        hosts: opts.hosts ?? [],
        writeRoots: opts.writeRoots ?? [],
        onlyWriteRoots: true,
        loopbackViaProxy: true,
      });
    } catch (e) {
      // Fail closed: a program that cannot be contained does not run.
      return {
        code: -1,
        stdout: '',
        stderr: `fatal: ${name} could not start inside the sandbox: ${(e as Error).message}`,
      };
    }
  }
  return new Promise((resolveRun) => {
    let child;
    try {
      child = spawn(program.file, program.args, {
        cwd: opts.cwd,
        env: program.env,
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
    } catch (e) {
      void released({ code: -1, stdout: '', stderr: `cannot start ${name}: ${(e as Error).message}` }).then(resolveRun);
      return;
    }
    // Bytes, decoded once at the end: a character split between two chunks stays whole.
    const out: Buffer[] = [];
    let outBytes = 0;
    const keep = opts.maxStdout ?? 1_000_000;
    let stderr = '';
    let stopped: GitRun['stopped'];
    const kill = (why: NonNullable<GitRun['stopped']>) => {
      if (stopped) return;
      stopped = why;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    child.stdout.on('data', (b: Buffer) => {
      if (outBytes + b.length > keep) {
        if (opts.maxStdout !== undefined) kill('size');
        return;
      }
      out.push(b);
      outBytes += b.length;
    });
    child.stderr.on('data', (b: Buffer) => {
      if (stderr.length < 64_000) stderr += b.toString('utf8');
    });
    const timer = setTimeout(() => kill('timeout'), opts.timeoutMs);
    const poll =
      opts.maxBytes !== undefined && opts.watch
        ? setInterval(() => {
            if (folderBytes(opts.watch!, opts.maxBytes) > opts.maxBytes!) kill('size');
          }, 100)
        : undefined;
    child.on('error', (e) => {
      stderr += `cannot start ${name}: ${e.message}`;
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (poll) clearInterval(poll);
      const stdout = Buffer.concat(out).toString('utf8');
      void released({ code: code ?? -1, stdout, stderr, ...(stopped ? { stopped } : {}) }).then(resolveRun);
    });
  });
}

/** The last meaningful line git printed (its "fatal:" line when there is one), for a one-line error. */
export function gitReason(r: GitRun): string {
  const lines = r.stderr
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const fatal = lines.find((l) => l.startsWith('fatal:')) ?? lines.at(-1) ?? `git exited with ${r.code}`;
  return fatal.replace(/^fatal:\s*/, '');
}
