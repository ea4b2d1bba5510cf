// The wall: every program Knack starts runs inside the OS sandbox of @anthropic-ai/sandbox-runtime (bubblewrap + socat
// on Linux, Seatbelt on macOS, its own backend on Windows), initialised once per open workspace and reset when the last
// workspace closes; each command is wrapped, spawned as its own process group, and reports what the wall blocked.
import { execFile, spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { accessSync, constants, existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as RuntimeModule from '@anthropic-ai/sandbox-runtime';
import type { SandboxRuntimeConfig } from '@anthropic-ai/sandbox-runtime';
import { cwdProtect, readableSkillFolders, wallConfig, wallRules, type WallPlace } from './profile.js';
import { backendOf, installHintWords, type SandboxMode, type WallStatus } from './status.js';
import {
  BoundedMap,
  english,
  isInside,
  makeOwnTemp,
  onOwnWrite,
  pruneStaleTemp,
  say,
  type Said,
} from '../base/index.js';
import { blockedOf, NOT_ALLOWED, type Blocked } from './blocked.js';
import {
  claimOwnWrite,
  gitDirProtected,
  gitDirsBelow,
  newGitDirProtected,
  planProtect,
  sweepProtect,
} from './protect.js';
import { GitDirWatch } from './git-dirs.js';
import { holdWatchdog, watchedArgv, watchedStdio } from './group-watchdog.js';
import { commandId, encodedId, fill, pathState, reusable, STAND_IN, withoutStubs, type Template } from './template.js';
import { quoteWords, unquoteWords, withoutRelays } from './offline.js';

type Runtime = typeof RuntimeModule;
let runtimeModule: Promise<Runtime> | undefined;
/**
 * Loaded by the first wall that opens (a workspace's, as it opens); the CLI's commands that run nothing do not pay for
 * it. One import holds the event loop a few hundred ms; loading it a module per turn of the loop shortened the median
 * hold by a quarter, left the longest the same and made the first command later, so it was not kept.
 */
const loadRuntime = (): Promise<Runtime> => (runtimeModule ??= import('@anthropic-ai/sandbox-runtime'));

/** The runtime is one per process (its proxies): started by the first open wall, reset when the last one closes. */
const open = new Set<Wall>();
let started: Promise<void> | undefined;
/** Counts the runtime's starts: a command line built under one start (its proxy's sockets and token) is of no other. */
let generation = 0;
/**
 * The process got SIGINT or SIGTERM. The runtime resets itself on them (its own handlers), which cancels a start under
 * way; one started again then would outlive the shutdown (its bridges keep the process alive), so none is.
 */
let stopping = false;
let heedingSignals = false;
function heedSignals(): void {
  if (heedingSignals) return;
  heedingSignals = true;
  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => void (stopping = true));
}
/** The socat processes relaying the proxy's sockets (Linux), found once the runtime has started. */
let bridges: { pid: number; socket: string }[] | undefined;

/**
 * The socat the runtime starts its bridges with (Linux): knack-socat, shipped beside this file in a checkout
 * (`../../..` is the repository root from main/core/contain and from the bundles in dist/main/electron) and as an extra
 * resource in the packaged app. It execs socat under `setpriv --pdeathsig KILL`, so a bridge dies with Knack even on
 * kill -9; the runtime's own cleanup runs only on a clean exit. PDEATHSIG follows the thread that spawned the bridge:
 * the runtime spawns from the event loop's (main) thread, which lives as long as the process.
 * Where it cannot run (no setpriv, or one without --pdeathsig: util-linux before 2.33) the runtime's plain socat is
 * used, and the wall's status says its bridges may outlive a crash. Probed once (a run of `knack-socat -V`), without
 * blocking the event loop: three programs start for it, which under load took hundreds of milliseconds.
 */
let bridgeSocat: { path?: string; note?: string } | undefined;
let bridgeProbe: Promise<{ path?: string; note?: string }> | undefined;
/** What the probe found (nothing before it has run: a wall's start awaits it first). */
function socatForBridges(): { path?: string; note?: string } {
  return bridgeSocat ?? {};
}
function probeSocatForBridges(): Promise<{ path?: string; note?: string }> {
  return (bridgeProbe ??= probeBridgeSocat().then((found) => (bridgeSocat = found)));
}
async function probeBridgeSocat(): Promise<{ path?: string; note?: string }> {
  if (process.platform !== 'linux') return {};
  const root = fileURLToPath(new URL('../../..', import.meta.url));
  // Electron's resources folder (the packaged app); absent under Node.
  const resources = (process as { resourcesPath?: string }).resourcesPath;
  const candidates = [
    ...(resources ? [join(resources, 'knack-socat')] : []),
    join(root, 'main/core/contain/knack-socat'),
  ];
  const path = candidates.find((c) => {
    try {
      accessSync(c, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
  if (!path) return { note: `knack-socat not found (${candidates.join(', ')}): ${OUTLIVE}` };
  const why = await new Promise<string | undefined>((done) =>
    execFile(path, ['-V'], { timeout: 10_000 }, (error, _stdout, stderr) =>
      done(error ? stderr.trim().split('\n')[0] || error.message : undefined),
    ),
  );
  return why === undefined ? { path } : { note: `setpriv --pdeathsig did not run (${why}): ${OUTLIVE}` };
}
/**
 * Where `name` is on PATH (the first executable file of that name in one of its folders, as `which` finds it), read
 * from the file system: the runtime's own look-up runs `which` with spawnSync under a 1 s limit, which blocks the event
 * loop and, on a loaded machine, times out and reads an installed program as missing.
 */
export function findOnPath(name: string, path = process.env.PATH ?? ''): string | undefined {
  const dirs = name.includes('/') ? [''] : path.split(':');
  for (const dir of dirs) {
    const file = resolve(dir || '.', name);
    try {
      accessSync(file, constants.X_OK);
      if (statSync(file).isFile()) return file;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** The programs the runtime runs on Linux, found by Knack (findOnPath); `missing` names each one that is not there. */
function linuxPrograms(ripgrep: string): {
  bwrap?: string;
  socat?: string;
  ripgrep?: string;
  missing: (string | Said)[];
} {
  const bwrap = findOnPath('bwrap');
  const socat = findOnPath('socat');
  const rg = findOnPath(ripgrep);
  const missing = [
    ...(bwrap ? [] : ['bubblewrap (bwrap)']),
    ...(socat ? [] : ['socat']),
    ...(rg ? [] : [ripgrep === 'rg' ? 'ripgrep (rg)' : say('sandbox.scanner', { command: ripgrep })]),
  ];
  return { ...(bwrap ? { bwrap } : {}), ...(socat ? { socat } : {}), ...(rg ? { ripgrep: rg } : {}), missing };
}
const OUTLIVE = "the sandbox's socat bridges run without it and may outlive Knack if it is killed";

/** Knack's working folder; `/` once it has been removed (the runtime then protects nothing around it either). */
function knackCwd(): string {
  try {
    return process.cwd();
  } catch {
    return '/';
  }
}

/** A process's command line, NUL-separated; empty once it is gone (or a zombie). */
function cmdlineOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
}

/** This process's children (Linux /proc, every thread's). */
function childPids(): number[] {
  let tasks: string[] = [];
  try {
    tasks = readdirSync(`/proc/${process.pid}/task`);
  } catch {
    return [];
  }
  return tasks.flatMap((task) => {
    try {
      return readFileSync(`/proc/${process.pid}/task/${task}/children`, 'utf8')
        .split(/\s+/)
        .filter(Boolean)
        .map(Number);
    } catch {
      return [];
    }
  });
}

/**
 * The runtime's bridge processes: this process's children (Linux /proc) whose command line names one of the proxy's
 * sockets. The runtime keeps their handles to itself; these are what a dead proxy is told by.
 */
function bridgeProcesses(rt: Runtime): { pid: number; socket: string }[] {
  if (process.platform !== 'linux') return [];
  const sockets = [rt.SandboxManager.getLinuxHttpSocketPath(), rt.SandboxManager.getLinuxSocksSocketPath()].filter(
    (s): s is string => !!s,
  );
  const out: { pid: number; socket: string }[] = [];
  for (const pid of childPids()) {
    const cmd = cmdlineOf(pid);
    const socket = sockets.find((s) => cmd.includes(`UNIX-LISTEN:${s},`));
    if (socket) out.push({ pid, socket });
  }
  return out;
}

/** This process's socat children (the runtime's bridges are its only ones). */
function socatChildren(): Set<number> {
  if (process.platform !== 'linux') return new Set();
  return new Set(childPids().filter((pid) => basename(cmdlineOf(pid).split('\0')[0] ?? '') === 'socat'));
}

/**
 * A start that failed or was cancelled (the runtime resets itself on SIGINT and SIGTERM) can leave a bridge it had
 * already started, which nothing then ends and which keeps the process from exiting: one that came since `before`
 * is ended.
 */
function endStrayBridges(before: Set<number>): void {
  for (const pid of socatChildren()) {
    if (before.has(pid)) continue;
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
}

/** An unavailable state: why, in English, and as words when Knack said it (the runtime's own errors stay as they are). */
function unavailable(why: Said | string): { available: false; reason: string; words?: Said } {
  return typeof why === 'string'
    ? { available: false, reason: why }
    : { available: false, reason: english(why), words: why };
}

/** A command that could not be contained: it did not run. */
export class WallError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WallError';
  }
}

/** Environment variables a contained command does not get: credentials a command has no business holding. */
const SECRET_ENV = /(^|_)(API_?KEY|ACCESS_?KEY|SECRET|TOKEN|PASSWORD|PASSWD|CREDENTIALS?|AUTH)(_|$)/i;

function scrubbedEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(env)) if (!SECRET_ENV.test(k) && !k.startsWith('KNACK_')) out[k] = v;
  return out;
}

/**
 * What the runtime adds to the environment it hands back with a wrapped program. On Linux and macOS it hands back
 * `process.env` itself, which would bring back every variable the caller left out (credentials, Knack's own): only a
 * variable it set or changed is kept.
 */
function addedEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(env)) if (process.env[k] !== v) out[k] = v;
  return out;
}

/**
 * A bash whose stdin is a socket (a pipe Node made, as an MCP server's) runs ~/.bashrc unless SHLVL says it is nested;
 * each bash around a command execs the next and hands SHLVL down unchanged, so the innermost would read it, and what it
 * prints corrupts the program's output. Unless the caller's environment sets it.
 */
const SHELL_LEVEL = { SHLVL: '1' };

/**
 * `argv` (`[shell, '-c', bwrap line]`) with the TMPDIR bwrap sets inside the sandbox pointed at `dir`; as it is when
 * the line is not one the runtime quoted or sets no TMPDIR before the command.
 */
function withTmpDir(argv: string[], dir: string | undefined): string[] {
  if (!dir || argv.length !== 3 || argv[1] !== '-c') return argv;
  const words = unquoteWords(argv[2]!);
  const end = words?.indexOf('--') ?? -1;
  const at = words?.findIndex((w, i) => i < end && w === '--setenv' && words[i + 1] === 'TMPDIR') ?? -1;
  if (!words || at < 0 || at + 2 >= end) return argv;
  words[at + 2] = dir;
  return [argv[0]!, '-c', quoteWords(words)];
}

/** The temporary folders walls make for their commands: `knack-wall-tmp-<pid>-XXXXXX` under the system temp folder. */
export const WALL_TMP_PREFIX = 'knack-wall-tmp-';

/** The shared-memory folder of the fresh /dev the sandbox mounts (`--dev /dev`): private to the command. */
const SANDBOX_OWN_SHM = '/dev/shm';

/** One word for bash, quoted so it stays one word whatever it holds. */
function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

export interface ContainedProcess {
  child: ChildProcess;
  /**
   * Call once the child has exited: what the wall blocked (read from its reports and the command's stderr), once what
   * it made at a protected path (a git dir's hooks included) is moved aside.
   */
  finish(stderr: string): Promise<Blocked[]>;
}

export interface SpawnOptions {
  cwd: string;
  /** Hosts this command may reach through the proxy (ceiling ∩ the acting skills); none: no network. */
  hosts?: string[];
  env?: NodeJS.ProcessEnv;
  stdio?: StdioOptions;
}

export interface WrapProgramOptions {
  cwd: string;
  hosts?: string[];
  env?: NodeJS.ProcessEnv;
  writeRoots?: string[];
  onlyWriteRoots?: boolean;
  loopbackViaProxy?: boolean;
}

export interface WrappedProgram {
  file: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  /** Call once the program has exited: what the wall moved aside. */
  release(): Promise<Blocked[]>;
  /** The hosts the proxy refused this program since `since` (ms since the epoch), each named with why. */
  refused(since?: number): Blocked[];
}

/** How one command line is wrapped (Wall.wrap). */
interface WrapOptions {
  cwd: string;
  /** Hosts the proxy lets this command reach; none: see `hostless`. */
  hosts: string[];
  /** Folders outside the workspace this command may also write. */
  writeRoots?: string[];
  /** Nothing is writable. */
  readOnly?: boolean;
  /** Only `writeRoots` are writable, the workspace not. */
  onlyWriteRoots?: boolean;
  /** With no host: 'offline' cuts the network altogether (offline.ts); 'proxy' (default) keeps the proxy's refusals. */
  hostless?: 'offline' | 'proxy';
  /** Knack's own command, which writes nothing: no protected path is swept after it. */
  own?: boolean;
}

export interface WallOptions {
  /** false: the runtime builds every command's line anew (the benchmark's baseline). Default true (template.ts). */
  reuseCommandLines?: boolean;
  /**
   * true: a command allowed no host still starts the proxy's relays inside the sandbox (the benchmark's baseline).
   * Default false: its network is off altogether (offline.ts).
   */
  relaysWithoutHosts?: boolean;
  /**
   * false: the git dirs below the workspace are walked before and after every command (the benchmark's baseline).
   * Default true: they are watched (git-dirs.ts), walked once as the wall opens.
   */
  watchGitDirs?: boolean;
}

export class Wall {
  private state: { available: true } | { available: false; reason: string; words?: Said };
  private readonly config: SandboxRuntimeConfig;
  private readonly denyRead: string[];
  private readonly protect: string[];
  private isClosed = false;
  /** The temporary folder this wall made for its commands (removed as it closes). */
  private ownTmp: string | undefined;
  /**
   * The protected paths that were missing when a program still running started (each with how many such programs): what
   * it creates there is on disk until the sweep at its end moves it aside, so discovery treats them as absent meanwhile.
   */
  private readonly guards = new Map<string, number>();
  /**
   * What Knack itself wrote below a guarded path meanwhile (a project skill installed, a settings file saved), each
   * entry with its identity then (protect.ts: claimOwnWrite): the sweep leaves it. Heard only while a path is guarded.
   */
  private readonly claims = new Map<string, string>();
  private unhear: (() => void) | undefined;
  private readonly settledListeners = new Set<(paths: string[]) => void>();
  /**
   * Command lines built by the runtime, by what they were built from (template.ts); null: not reusable. A few keys live
   * at a time (one per write-roots set, a readOnly probe); a long session meets more as paths change.
   */
  private readonly templates = new BoundedMap<string, Template | null>(16);
  /** The git dirs below the write roots, watched (git-dirs.ts); undefined: walked at each command. */
  private readonly gitDirWatch: GitDirWatch | undefined;

  private constructor(
    readonly place: WallPlace,
    readonly mode: SandboxMode,
    state: Wall['state'],
    private readonly options: WallOptions = {},
  ) {
    this.state = state;
    this.config = wallConfig(place);
    const rules = wallRules(place);
    this.denyRead = rules.denyRead;
    this.protect = rules.protect;
    this.gitDirWatch = options.watchGitDirs === false ? undefined : new GitDirWatch(this.baseRoots());
  }

  /** What every command may write (the workspace, its temporary folder): the roots of the watched git dirs. */
  private baseRoots(): string[] {
    return this.config.filesystem.allowWrite.map((w) => (typeof w === 'string' ? w : w.path));
  }

  /**
   * The git dirs below `roots` now: from the watch when they are every command's roots (every change made before this
   * call included), else walked.
   */
  private async gitDirsNow(roots: string[]): Promise<Map<string, string>> {
    const base = this.baseRoots();
    const same = roots.length === base.length && roots.every((r, i) => r === base[i]);
    return same && this.gitDirWatch ? this.gitDirWatch.current() : gitDirsBelow(roots);
  }

  /**
   * The wall of one workspace. Never throws: a sandbox that cannot start is a status (reason + hint), and in mode
   * `off` nothing is started at all. Available means a real command ran inside it.
   */
  static async open(place: WallPlace, mode: SandboxMode, options: WallOptions = {}): Promise<Wall> {
    if (mode === 'off') return new Wall(place, mode, unavailable(say('sandbox.offInSettings')), options);
    // The runtime points TMPDIR at /tmp/claude, which only Claude Code makes: without a folder of their own, mktemp
    // failed and Python's tempfile wrote into the workspace, each reported as a blocked write (telling the model to run
    // the command again without the sandbox). Each wall has its own, private to the user, removed as it closes; those
    // of a Knack that never closed its walls (killed with -9) are removed as the next one opens a wall.
    if (place.tmpDir === undefined) pruneStaleTemp(WALL_TMP_PREFIX);
    const own = place.tmpDir === undefined ? makeOwnTemp(WALL_TMP_PREFIX) : undefined;
    const wall = new Wall(own ? { ...place, tmpDir: own } : place, mode, { available: true }, options);
    wall.ownTmp = own;
    open.add(wall);
    const problem = await wall.start();
    if (problem) wall.state = unavailable(problem);
    // The one walk of the workspace for nested git dirs; from now on they are watched.
    else wall.gitDirWatch?.start();
    return wall;
  }

  private async start(): Promise<Said | string | undefined> {
    let rt: Runtime;
    try {
      rt = await loadRuntime();
    } catch (e) {
      return say('sandbox.runtimeNotLoaded', { error: (e as Error).message });
    }
    const { SandboxManager } = rt;
    if (!SandboxManager.isSupportedPlatform()) return say('sandbox.noOsSandbox', { os: process.platform });
    // Linux: Knack finds bubblewrap, socat and the runtime's file scanner itself, without running a program, and hands
    // the runtime their paths, so it looks none of them up with `which` (spawnSync: it holds the event loop, and under
    // load its 1 s limit reads an installed program as missing). A missing one is the reason, named; nothing starts.
    // The runtime checks them again when it starts (and what else it needs: the seccomp helper, user namespaces).
    let programs: Partial<SandboxRuntimeConfig> = {};
    if (process.platform === 'linux') {
      const found = linuxPrograms(this.config.ripgrep?.command ?? 'rg');
      if (found.missing.length)
        return say('sandbox.notInstalled', { programs: found.missing.reduce((a, b) => say('listAnd', { a, b })) });
      programs = { bwrapPath: found.bwrap, ripgrep: { ...this.config.ripgrep, command: found.ripgrep! } };
      programs.socatPath = (await probeSocatForBridges()).path ?? found.socat;
    } else {
      // The async check: the sync one resolves the seccomp helper with `npm root -g` on the event loop.
      const deps = await SandboxManager.checkDependenciesAsync();
      if (deps.errors.length) return deps.errors.join('; ');
    }
    heedSignals();
    const init = (): Promise<void> => {
      if (!started) generation++;
      started ??= SandboxManager.initialize(
        { ...this.config, ...programs },
        // A host no command's list names is refused, and the refusal says which host and why.
        ({ host }) =>
          Promise.resolve({
            allow: false as const,
            reason: `${host} ${NOT_ALLOWED} (the ceiling's network with the acting skills' permissions.network, or an MCP server's network list)`,
          }),
        true,
      ).then(() => void (bridges = bridgeProcesses(rt)));
      return started;
    };
    // The runtime gives its socat bridges 0.6 s to appear, and its one remaining `which` (of the scanner, by the path
    // Knack found) 1 s; a loaded machine can take longer, and then the sandbox would stay unavailable for the session
    // (every command asking). Two more tries before that, whatever the runtime's words: a lasting cause fails all three.
    for (let attempt = 1; ; attempt++) {
      const before = socatChildren();
      try {
        await init();
        // Opened again after the network bridge died under another open workspace: restart the runtime.
        if (!(await this.proxyAlive(rt))) {
          started = undefined;
          bridges = undefined;
          await SandboxManager.reset();
          await init();
        }
        break;
      } catch (e) {
        started = undefined;
        const why = (e as Error).message.split('\n')[0] ?? '';
        endStrayBridges(before);
        if (attempt < 3 && !stopping) {
          await SandboxManager.reset().catch(() => undefined);
          continue;
        }
        return say('sandbox.didNotStart', { error: why });
      }
    }
    // Available only when a command really ran inside it (user namespaces can be off, a container can refuse bwrap).
    try {
      // With reused command lines, the probe builds the one commands use; else it runs with nothing writable: the
      // runtime's own stand-ins (.bashrc, … in Knack's working folder) would be left in the workspace while it runs.
      // Knack's own `exit 0` creates nothing: a protected path that appears while it runs (the user's .workbuddy, a
      // project skill Knack installs) was made by someone else and is not swept aside.
      const p = await this.spawnInside(
        'exit 0',
        { cwd: this.place.workspace, stdio: 'ignore' },
        !this.reusesLines(),
        true,
      );
      const code = await new Promise<number | null>((res) => {
        p.child.once('close', (c) => res(c));
        p.child.once('error', () => res(-1));
      });
      if (code !== 0) return say('sandbox.probeFailed', { code: String(code) });
    } catch (e) {
      return (e as Error).message;
    }
    return undefined;
  }

  status(): WallStatus {
    const backend = backendOf();
    const note = this.mode === 'off' ? undefined : socatForBridges().note;
    if (this.state.available)
      return { available: true, backend, reason: '', hint: '', mode: this.mode, ...(note ? { note } : {}) };
    // Closed with its workspace: nothing runs for it and nothing is to be installed.
    if (this.isClosed)
      return {
        available: false,
        backend,
        reason: this.state.reason,
        ...(this.state.words ? { reasonWords: this.state.words } : {}),
        hint: '',
        mode: this.mode,
        closed: true,
      };
    const hint = this.mode === 'off' ? say('sandbox.hintOff') : installHintWords();
    return {
      available: false,
      backend,
      reason: this.state.reason,
      ...(this.state.words ? { reasonWords: this.state.words } : {}),
      hint: english(hint),
      hintWords: hint,
      mode: this.mode,
    };
  }

  get available(): boolean {
    return this.state.available;
  }

  /**
   * Protected paths a program running now may be creating (missing when it started, inside what it may write): until
   * it has ended and what it made there is moved aside, whatever they hold is not to be read, e.g. as a project skill.
   */
  guarded(): string[] {
    return [...this.guards.keys()];
  }

  /**
   * Hear when guarded paths that Knack wrote into while programs ran are guarded no more (their sweep has run): what
   * discovery left out meanwhile as possibly a program's is Knack's own (a project skill installed), to be read now.
   */
  onSettled(listener: (paths: string[]) => void): () => void {
    this.settledListeners.add(listener);
    return () => void this.settledListeners.delete(listener);
  }

  /** Closed with its workspace: whatever its mode, nothing runs for it, inside or outside the sandbox. */
  get closed(): boolean {
    return this.isClosed;
  }

  /**
   * The network proxy's bridges are alive (Linux: their sockets exist and the socat processes relaying them still run);
   * a dead one turns the wall unavailable. Commands could not reach the network through it anyway (fail closed); this
   * is what says so.
   */
  private async proxyAlive(rt: Runtime): Promise<boolean> {
    if (process.platform !== 'linux') return true;
    const http = rt.SandboxManager.getLinuxHttpSocketPath();
    const socks = rt.SandboxManager.getLinuxSocksSocketPath();
    if ((http && !existsSync(http)) || (socks && !existsSync(socks))) return false;
    return (bridges ?? []).every(({ pid, socket }) => cmdlineOf(pid).includes(socket));
  }

  /**
   * Start `command` (a bash command line) inside the wall, as its own process group that dies with this process.
   * Throws WallError when it cannot be contained: then nothing ran.
   */
  async spawn(command: string, opts: SpawnOptions): Promise<ContainedProcess> {
    await this.ready();
    return this.spawnInside(command, opts);
  }

  /**
   * A program (argv, run without a shell) wrapped for the wall, for callers that spawn it themselves (the MCP SDK's
   * stdio transport): start `file` with `args` and `env` in `cwd`, and call `release` once it has exited. bwrap's
   * --die-with-parent ends it with Knack. `writeRoots`: folders outside the workspace this one program may also write
   * (a skill source's temporary clone); with `onlyWriteRoots` it may write those and nothing else, the workspace
   * included. `loopbackViaProxy`: loopback and private hosts go through the proxy too (see below). Throws WallError
   * when it cannot be contained.
   */
  async wrapProgram(argv: string[], opts: WrapProgramOptions): Promise<WrappedProgram> {
    await this.ready();
    // The runtime sets NO_PROXY to loopback and private ranges, but inside the wall nothing is reachable directly
    // (its own network namespace): a program that honours NO_PROXY (git, curl) fails to connect to 127.0.0.1 or an
    // intranet host it was allowed. Without NO_PROXY it asks the proxy, whose per-command host list decides.
    const unset = opts.loopbackViaProxy ? 'env -u NO_PROXY -u no_proxy ' : '';
    // exec: the program replaces the shell, so signals and the exit code are its own.
    const command = `exec ${unset}${argv.map(shellQuote).join(' ')}`;
    const w = await this.wrap(command, {
      cwd: opts.cwd,
      hosts: opts.hosts ?? [],
      writeRoots: opts.writeRoots ?? [],
      onlyWriteRoots: opts.onlyWriteRoots ?? false,
    });
    const [file, ...args] = w.argv;
    const { SandboxManager } = await loadRuntime();
    const refused = (since = 0): Blocked[] =>
      blockedOf({
        violations: SandboxManager.getSandboxViolationStore()
          .getViolationsForCommand(w.id)
          .filter((v) => v.timestamp.getTime() >= since && v.line.startsWith('deny network-outbound '))
          .map((v) => v.line),
        stderr: '',
        cwd: opts.cwd,
        denyRead: [],
      });
    return {
      file: file!,
      args,
      env: { ...SHELL_LEVEL, ...(opts.env ?? process.env), ...addedEnv(w.env) },
      release: w.settle,
      refused,
    };
  }

  /** Throws WallError unless the wall is available and its proxy alive. */
  private async ready(): Promise<void> {
    if (!this.state.available) throw new WallError(`the sandbox is unavailable: ${this.state.reason}`);
    const rt = await loadRuntime();
    if (!(await this.proxyAlive(rt))) {
      this.state = unavailable(say('sandbox.proxyStopped'));
      throw new WallError(`the sandbox is unavailable: ${this.state.reason}`);
    }
  }

  /** Wrap one command line; its host list is registered with the proxy until `settle`. */
  private async wrap(
    command: string,
    {
      cwd,
      hosts,
      writeRoots = [],
      readOnly = false,
      onlyWriteRoots = false,
      hostless = 'proxy',
      own = false,
    }: WrapOptions,
  ): Promise<{
    id: string;
    argv: string[];
    env: NodeJS.ProcessEnv;
    /** Call once the program has ended (as often as wanted): what the wall moved aside. */
    settle(): Promise<Blocked[]>;
    mayWrite(path: string): boolean;
    /** The protected paths that existed when it started: read-only to it. */
    denied: string[];
  }> {
    const { SandboxManager } = await loadRuntime();
    // 144 random bits: the proxy binds a connection to this command's host list by it (see registerCommandNetworkLists).
    const id = commandId();
    // The protected paths that exist are denied; a missing one handed to the sandbox would be stubbed in the workspace
    // (an empty file at .workbuddy, .git, …) for as long as the command runs, so those are checked after it instead.
    const base = onlyWriteRoots ? [] : this.config.filesystem.allowWrite;
    const roots = [...base.map((w) => (typeof w === 'string' ? w : w.path)), ...writeRoots];
    // The runtime also protects names around Knack's working folder; where commands may write there, Knack takes that
    // over (profile.ts), read at each command: a test or a caller may change folder between two.
    const here = readOnly ? { protect: [], follow: [] } : cwdProtect(knackCwd(), roots);
    // The hooks and settings of every git dir below the write roots (nested repositories, submodules), protected as the
    // workspace's own: the user's git runs them on the host. One the command makes is judged once it has ended.
    const gitDirs = readOnly ? new Map<string, string>() : await this.gitDirsNow(roots);
    const nested = [...gitDirs.keys()].flatMap(gitDirProtected);
    const protect = [...new Set([...this.protect, ...here.protect, ...nested])];
    const plan = readOnly ? { deny: [], watch: [] } : planProtect(protect, roots);
    // The acting user-tier skills' folders, readable inside Knack's otherwise unreadable home folders (profile.ts).
    const readable = readableSkillFolders(this.place, this.place.skillFolders?.() ?? []);
    const allowRead = readable.length ? { allowRead: readable.map((path) => ({ path, literal: true as const })) } : {};
    // This workspace's file rules, whichever workspace started the runtime.
    const custom = {
      filesystem: readOnly
        ? { ...this.config.filesystem, ...allowRead, allowWrite: [], denyWrite: [] }
        : {
            ...this.config.filesystem,
            ...allowRead,
            allowWrite: [...base, ...writeRoots.map((path) => ({ path, literal: true as const }))],
            denyWrite: plan.deny.map((path) => ({ path, literal: true as const })),
          },
    } as Partial<SandboxRuntimeConfig>;
    // No host: no network at all, not even the way to the proxy (offline.ts); a line of another shape keeps its relays.
    // A long-lived program (an MCP server) keeps the proxy, whose refusals name the host it tried.
    const offline =
      hosts.length === 0 &&
      hostless === 'offline' &&
      process.platform === 'linux' &&
      this.options.relaysWithoutHosts !== true;
    const sockets = [SandboxManager.getLinuxHttpSocketPath(), SandboxManager.getLinuxSocksSocketPath()].filter(
      (p): p is string => !!p,
    );
    const cut = (argv: string[]): string[] => (offline ? (withoutRelays(argv, sockets) ?? argv) : argv);
    let wrapped: { argv: string[]; env: NodeJS.ProcessEnv } | undefined;
    /** A wrap of the runtime's own, counted by it until cleanupAfterCommand (a reused line is not). */
    let counted = false;
    try {
      if (this.reusesLines()) {
        // Everything the line is built from: the rules, the runtime's start, and where each path they name leads now
        // (a secret folder made since, a protected folder made or swapped for a link, builds a new line).
        const paths = [...this.denyRead, ...readable, ...roots, ...(readOnly ? [] : protect), ...here.follow];
        const state = pathState(paths);
        const key = JSON.stringify([
          generation,
          knackCwd(),
          readOnly,
          onlyWriteRoots,
          writeRoots,
          readable,
          plan.deny,
          state,
          offline,
        ]);
        // A stub the runtime mounts over a missing path Knack watches itself is left out (template.ts).
        const covered = (dest: string): boolean => plan.watch.some((p) => isInside(p, dest));
        const t = await this.template(
          key,
          custom,
          cwd,
          paths.filter((_, i) => state[i]!.endsWith('\0-')),
          (argv) => cut(withoutStubs(argv, covered) ?? argv),
        );
        if (t) wrapped = fill(t, id, command);
      }
      if (!wrapped) {
        counted = true;
        const w = await SandboxManager.wrapWithSandboxArgv(
          command,
          // eslint-disable-next-line knack/tool-names -- the program bash runs the command line
          'bash',
          custom,
          undefined,
          cwd,
          { commandId: id, commandText: command },
        );
        wrapped = { argv: cut(w.argv), env: w.env };
      }
    } catch (e) {
      throw new WallError(`the command could not be wrapped in the sandbox: ${(e as Error).message.split('\n')[0]}`);
    }
    if (hosts.length) {
      try {
        SandboxManager.registerCommandNetworkLists(id, { allowedDomains: hosts });
      } catch (e) {
        if (counted) SandboxManager.cleanupAfterCommand();
        throw new WallError(`the command's hosts are not valid: ${(e as Error).message.split('\n')[0]}`);
      }
    }
    for (const p of plan.watch) this.guards.set(p, (this.guards.get(p) ?? 0) + 1);
    if (this.guards.size && !this.unhear)
      this.unhear = onOwnWrite((path, contents) => {
        for (const g of this.guards.keys()) if (isInside(path, g)) claimOwnWrite(this.claims, path, g, contents);
      });
    // Once the program has ended: its git dirs are read again (every change it made heard first), its hosts leave the
    // proxy, a protected path it created is moved aside, and the runtime removes its own mount points (each wrap
    // counts one; they go when no other contained program runs).
    const sweep = (after: Map<string, string>): Blocked[] => {
      const swept =
        own || readOnly
          ? []
          : sweepProtect(
              [...new Set([...plan.watch, ...newGitDirProtected(gitDirs, after)])],
              this.place.workspace,
              this.claims,
            );
      // Only once what it made is moved aside: a discovery meanwhile still skips it.
      const settled: string[] = [];
      for (const p of plan.watch) {
        const n = (this.guards.get(p) ?? 1) - 1;
        if (n > 0) this.guards.set(p, n);
        else {
          this.guards.delete(p);
          for (const c of this.claims.keys())
            if (isInside(c, p)) {
              this.claims.delete(c);
              if (!settled.includes(p)) settled.push(p);
            }
        }
      }
      if (!this.guards.size) {
        this.unhear?.();
        this.unhear = undefined;
        this.claims.clear();
      }
      if (settled.length) for (const l of this.settledListeners) l(settled);
      if (hosts.length) SandboxManager.unregisterCommandNetworkLists(id);
      if (counted) SandboxManager.cleanupAfterCommand();
      return swept;
    };
    let settled: Promise<Blocked[]> | undefined;
    const settle = (): Promise<Blocked[]> =>
      (settled ??= (
        own || readOnly
          ? Promise.resolve(new Map<string, string>())
          : // Fail closed: the watch could not be read, so the git dirs are walked.
            this.gitDirsNow(roots).catch(() => gitDirsBelow(roots))
      ).then(sweep));
    const mayWrite = (path: string): boolean =>
      roots.some((r) => isInside(path, r)) && !plan.deny.some((d) => isInside(path, d));
    // Temporary files go to the wall's own folder, which every command may write (see open).
    wrapped = { ...wrapped, argv: withTmpDir(wrapped.argv, this.place.tmpDir) };
    // `bash -c …` (Linux, macOS): --norc, or bash runs ~/.bashrc when its stdin is a socket (a pipe Node made, as an MCP
    // server's) and SHLVL is unset (an environment without Knack's own): what that prints corrupts the program's output.
    const [shell, flag, ...rest] = wrapped.argv;
    const argv = flag === '-c' ? [shell!, '--norc', flag, ...rest] : wrapped.argv;
    return { id, argv, env: wrapped.env, settle, mayWrite, denied: plan.deny };
  }

  /**
   * Whether commands reuse one command line (template.ts): on Linux, wherever Knack runs (the window from `/`, the CLI
   * or `knack serve` from inside the workspace: there Knack protects the runtime's names around its working folder
   * itself, and leaves out the stubs the runtime would mount for the missing ones).
   */
  private reusesLines(): boolean {
    return this.options.reuseCommandLines !== false && process.platform === 'linux';
  }

  /** The runtime's line for one key, built once around the stand-in; undefined when it cannot be reused. */
  private async template(
    key: string,
    custom: Partial<SandboxRuntimeConfig>,
    cwd: string,
    missing: string[],
    cut: (argv: string[]) => string[],
  ): Promise<Template | undefined> {
    const known = this.templates.get(key);
    if (known !== undefined) return known ?? undefined;
    const { SandboxManager } = await loadRuntime();
    const id = commandId();
    // eslint-disable-next-line knack/tool-names -- the program bash runs the command line
    const w = await SandboxManager.wrapWithSandboxArgv(STAND_IN, 'bash', custom, undefined, cwd, {
      commandId: id,
      commandText: 'the stand-in of every command (template.ts)',
    });
    // Its mount points, if any, are the runtime's to remove now; a line that needs them is not kept (reusable).
    SandboxManager.cleanupAfterCommand();
    const t: Template = { argv: cut(w.argv), env: w.env, key: encodedId(id) };
    const keep = reusable(t, missing) ? t : null;
    this.templates.set(key, keep);
    return keep ?? undefined;
  }

  /** `readOnly`: nothing is writable. `own`: Knack's own command, which writes nothing: no protected path is swept. */
  private async spawnInside(
    command: string,
    opts: SpawnOptions,
    readOnly = false,
    own = false,
  ): Promise<ContainedProcess> {
    const { SandboxManager } = await loadRuntime();
    const { id, argv, env, settle, mayWrite, denied } = await this.wrap(command, {
      cwd: opts.cwd,
      hosts: opts.hosts ?? [],
      readOnly,
      hostless: 'offline',
      own,
    });
    // detached: its own process group, so a timeout or stop kills everything it started. It dies with Knack by the
    // group watchdog (group-watchdog.ts), as a command on the host does; Seatbelt has no parent-death option either.
    const stdio = opts.stdio ?? ['ignore', 'pipe', 'pipe'];
    const watched = process.platform !== 'win32';
    const [file, ...args] = watched ? watchedArgv('knack-wall', argv) : argv;
    const child = spawn(file!, args, {
      cwd: opts.cwd,
      detached: true,
      stdio: watched ? watchedStdio(stdio) : stdio,
      env: { ...SHELL_LEVEL, ...scrubbedEnv(opts.env ?? process.env), ...addedEnv(env) },
    });
    if (watched) holdWatchdog(child);
    child.once('error', () => void settle());
    child.once('exit', () => void settle());
    return {
      child,
      finish: async (stderr: string) => {
        // The runtime's write observer judges by the configuration it started with (the first workspace's): a write
        // this command's own rules allow (another open workspace, a missing protected path) is no violation, nor is
        // one into the sandbox's own /dev/shm (bwrap's fresh /dev: a Python multiprocessing lock), which reaches no
        // host file; reported, it would send the model to run the command again without the sandbox.
        const lines = SandboxManager.getSandboxViolationStore()
          .getViolationsForCommand(id)
          .map((v) => v.line)
          .filter((l) => {
            const w = /^deny (?!network-outbound)\S+ (\/.*)$/.exec(l);
            const path = w && (w[1]!.replace(/\/+$/, '') || '/');
            return !path || !(mayWrite(path) || isInside(path, SANDBOX_OWN_SHM));
          });
        const moved = await settle();
        return [
          ...blockedOf({ violations: lines, stderr, cwd: opts.cwd, denyRead: this.denyRead, protect: denied }),
          ...moved,
        ];
      },
    };
  }

  /**
   * Once closed, the wall runs nothing more: a command asked of it is refused as unavailable, never run on a runtime
   * that another workspace may have started or that was reset meanwhile.
   */
  async close(): Promise<void> {
    this.isClosed = true;
    if (this.ownTmp) rmSync(this.ownTmp, { recursive: true, force: true });
    this.ownTmp = undefined;
    this.gitDirWatch?.close();
    this.state = unavailable(say('sandbox.closed'));
    if (!open.delete(this)) return;
    if (open.size === 0 && started) {
      const rt = await loadRuntime();
      started = undefined;
      bridges = undefined;
      await rt.SandboxManager.reset();
    }
  }
}
