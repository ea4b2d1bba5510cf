// The wall's configuration for one workspace: where a contained command may write, what it may never read, and how it
// reaches the network (only through the sandbox's proxy, to the hosts each command is allowed). Pure: no I/O.
import { join } from 'node:path';
import type { SandboxRuntimeConfig } from '@anthropic-ai/sandbox-runtime';
// The runtime's own list of the names it protects around the working folder (a small module: paths and globs, none of
// the runtime's proxies), so Knack's copy of that duty never drifts from it.
import { DANGEROUS_FILES, getDangerousDirectories } from '@anthropic-ai/sandbox-runtime/dist/sandbox/sandbox-utils.js';
import { isInside } from '../base/index.js';

/** Where one workspace's commands run, and Knack's own places they must not touch. */
export interface WallPlace {
  /** Real path of the open workspace. */
  workspace: string;
  /** The user's home (`~`), as Knack resolves it (HOME or --home in tests). */
  home: string;
  /** Knack's data folder: settings, providers.json (keys), mcp.json, the database. */
  dataDir: string;
  /** Extra write roots of the ceiling (absolute, real). */
  writeRoots?: string[];
  /** A private temporary folder for the commands (TMPDIR), writable. */
  tmpDir?: string;
  /**
   * An HTTP proxy the sandbox's own proxy forwards allowed requests to (a corporate proxy; tests: a loopback server that
   * plays the allowed hosts). The allow list is applied before it.
   */
  upstreamProxy?: string;
  /** The user tiers of skills under the home, as discovery reads them (config's userSkillDirs). */
  userSkillTiers?: readonly string[];
  /**
   * The folders of the skills that may act now (enabled, trusted): a command may read those in a user tier, which
   * lies in Knack's own home folders that are otherwise unreadable (readableSkillFolders). Read at every command.
   */
  skillFolders?: () => readonly string[];
}

/**
 * Secrets under the home folder no contained command may read: keys, cloud and registry credentials, password stores,
 * browser profiles and shell histories. Relative to the home folder.
 */
const SECRET_READS = [
  '.ssh',
  '.aws',
  '.gnupg',
  '.config/gcloud',
  '.netrc',
  '.npmrc',
  '.pypirc',
  '.git-credentials',
  '.config/git/credentials',
  '.docker/config.json',
  '.kube',
  '.azure',
  '.config/gh',
  '.config/hub',
  '.password-store',
  '.local/share/keyrings',
  '.vault-token',
  '.cargo/credentials',
  '.cargo/credentials.toml',
  '.gem/credentials',
  '.terraform.d/credentials.tfrc.json',
  '.config/op',
  '.mozilla',
  '.config/google-chrome',
  '.config/chromium',
  '.bash_history',
  '.zsh_history',
  '.python_history',
  '.node_repl_history',
  '.psql_history',
  '.mysql_history',
];

/** Knack's own folders under the home: the user skill tiers and `~/.knack`. */
const OWN_HOME_DIRS = ['.workbuddy', '.agents', '.knack'];

/**
 * Inside a write root, what a command may still not write: what git runs by itself (hooks, config, a commondir that
 * points at another repository's), Knack's own workspace settings and skills, other agents' settings, and the names
 * the sandbox runtime protects around its working folder (shell start-up files, `.gitconfig`, editor folders whose
 * tasks and settings an editor runs as the folder opens): Knack runs from `/` in the window, so it protects those in
 * every write root itself. Those that exist are denied; those missing are checked after each command (see
 * protect.ts). A whole folder, not a file in it: a folder holding a denied file can still be renamed away.
 */
const OWN_PROTECTED = [
  '.git/hooks',
  '.git/config',
  '.git/commondir',
  '.workbuddy',
  '.agents',
  '.claude',
  '.husky',
  '.envrc',
  '.mcp.json',
  '.gitmodules',
];
const RUNTIME_NAMES: readonly string[] = [...DANGEROUS_FILES, ...getDangerousDirectories()];
const PROTECTED_IN_WORKSPACE = [
  ...OWN_PROTECTED,
  ...RUNTIME_NAMES.filter((n) => !OWN_PROTECTED.some((o) => n === o || n.startsWith(`${o}/`))),
];

export interface WallRules {
  allowWrite: string[];
  /** What no command may write even inside allowWrite; split per command by what exists (see planProtect). */
  protect: string[];
  denyRead: string[];
}

/**
 * What the sandbox runtime protects around Knack's working folder on its own (shell and tool settings, editor folders,
 * the folder's git hooks and config), relative to that folder. Where that folder is one commands may write (the CLI or
 * `knack serve` started inside the workspace), Knack protects these names there itself, as it does its own list in
 * every write root: the runtime would otherwise stub each missing one for every command, and a line holding stubs
 * cannot be reused (template.ts).
 */
const RUNTIME_CWD_PROTECTED: readonly string[] = [...RUNTIME_NAMES, '.git/hooks', '.git/config'];

/**
 * The runtime's names around `knackCwd` (absolute), when a command may write there; none otherwise (there a command
 * cannot create them). `follow`: what else the runtime's line depends on there (whether `.git` is a folder, a file or
 * missing), for the reused line's key.
 */
export function cwdProtect(knackCwd: string, writeRoots: readonly string[]): { protect: string[]; follow: string[] } {
  if (!writeRoots.some((r) => isInside(knackCwd, r))) return { protect: [], follow: [] };
  return { protect: RUNTIME_CWD_PROTECTED.map((n) => join(knackCwd, n)), follow: [join(knackCwd, '.git')] };
}

/**
 * Of the acting skills' folders, those a command may read although they lie in Knack's own home folders: a skill's
 * scripts (Python, shell) run through bash, so a user-tier skill's folder must be readable to them. Only a folder
 * strictly inside a user tier, never Knack's data folder, nor one that holds or lies in a secret folder; the rest of
 * `~/.workbuddy` (settings, mcp.json) stays unreadable, and so do disabled, refused and pending skills.
 */
export function readableSkillFolders(place: WallPlace, folders: readonly string[]): string[] {
  const tiers = place.userSkillTiers ?? [];
  const secrets = SECRET_READS.map((s) => join(place.home, s));
  return [...new Set(folders)]
    .filter(
      (f) =>
        tiers.some((t) => f !== t && isInside(f, t)) &&
        !isInside(f, place.dataDir) &&
        !isInside(place.dataDir, f) &&
        !secrets.some((s) => isInside(f, s) || isInside(s, f)),
    )
    .sort();
}

/** The file rules of a place, as absolute paths. */
export function wallRules(place: WallPlace): WallRules {
  const roots = [place.workspace, ...(place.writeRoots ?? [])];
  const own = [place.dataDir, ...OWN_HOME_DIRS.map((d) => join(place.home, d))];
  // A secret folder the user opened as the workspace stays readable (reads of the workspace are the point).
  const denyRead = [...SECRET_READS.map((s) => join(place.home, s)), ...own].filter(
    (p) => !isInside(place.workspace, p),
  );
  return {
    allowWrite: [...roots, ...(place.tmpDir ? [place.tmpDir] : [])],
    protect: [...roots.flatMap((r) => PROTECTED_IN_WORKSPACE.map((p) => join(r, p))), ...own],
    denyRead,
  };
}

/**
 * The sandbox runtime's configuration: no network but through its proxy, and there no host unless a command's own list
 * (registered per command) names it; paths as literals, never patterns (a workspace named `a*b` is that folder). The
 * protected paths are not here: each command gets those that exist when it starts (planProtect).
 */
export function wallConfig(place: WallPlace): SandboxRuntimeConfig {
  const r = wallRules(place);
  const lit = (path: string) => ({ path, literal: true as const });
  // On every command the runtime lists the files three levels below Knack's own working folder (ripgrep) for nested
  // .git/hooks, .vscode, … to deny. Its scan is given a program that lists nothing (`true`), wherever Knack runs: from
  // Electron's `/` it finds nothing a command could change, and from inside the workspace (the CLI) its result follows
  // the tree at each command, which keeps a command line from being reused; it cost from a third of a second to ten
  // seconds per command. Knack protects its own list in every write root and the runtime's names around its working
  // folder (cwdProtect), and the git dirs nested below the write roots (protect.ts: gitDirsBelow).
  return {
    ripgrep: { command: 'true' },
    network: {
      allowedDomains: [],
      deniedDomains: [],
      allowLocalBinding: false,
      allowUnixSockets: [],
      ...(place.upstreamProxy ? { parentProxy: { http: place.upstreamProxy, https: place.upstreamProxy } } : {}),
    },
    filesystem: {
      denyRead: r.denyRead.map(lit),
      allowWrite: r.allowWrite.map(lit),
      denyWrite: [],
    },
  } as SandboxRuntimeConfig;
}
