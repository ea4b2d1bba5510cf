// Where a call reaches, as the gate judges it: each given path's real path (links followed), and which writes change
// Knack's own files or what tools run by themselves (protected writes, which always ask).
import { join } from 'node:path';
import { displaySafe } from '../../../preload/display.js';
import type { Ceiling } from './ceiling.js';
import { isInside, matchesAny, realPathOf, relPosix, say, type Said } from '../base/index.js';
import { resolvePaths, type KnackPaths } from '../config/index.js';

/** Knack's own folders: the data folder, the user tiers (`~/.workbuddy`, `~/.agents`) and `~/.knack`. */
export function appOwnedRoots(paths: Pick<KnackPaths, 'home' | 'dataDir'> = resolvePaths()): string[] {
  return [paths.dataDir, join(paths.home, '.workbuddy'), join(paths.home, '.agents'), join(paths.home, '.knack')];
}

/**
 * Writing these would change Knack's own policy and skills, or what git and other tools run on their own (hooks,
 * config, `.git` files pointing elsewhere, direnv): never silently allowed, at any depth (nested repositories and
 * project tiers count as much as the root's).
 */
const DEFAULT_PROTECTED_WRITES = [
  '**/.workbuddy',
  '**/.workbuddy/**',
  '**/.agents',
  '**/.agents/**',
  '**/.git',
  '**/.git/**',
  '**/.husky/**',
  '**/.mcp.json',
  '**/.claude/**',
  '**/.gitmodules',
  '**/.envrc',
  '**/.vscode/tasks.json',
  '**/.vscode/settings.json',
];

/** Knack's settings files in each of its own folders (user settings, model providers and keys, MCP servers). */
const OWN_SETTINGS_FILES = ['settings.json', 'providers.json', 'mcp.json'];
/** The workspace's settings files under `.workbuddy`. */
const WORKSPACE_SETTINGS_FILES = ['settings.json', 'mcp.json'];

/** A path a call gives, and the real path it reaches. */
export interface Resolved {
  given: string;
  real: string;
  viaLink: boolean;
}

/** One of Knack's own places by its real path now, and what it is (for the reason). */
export interface OwnPlace {
  real: string;
  what: Said;
}

export interface GatePaths {
  /** The real paths of a call's paths, relative ones taken from the workspace. */
  resolveAll(paths: string[] | undefined): Resolved[];
  /** A path for a reason, escaped for display (a link named with its target). */
  show(r: Resolved): string;
  /** Knack's own folders and settings files by the real path they have now. */
  ownPlaces(): OwnPlace[];
  /**
   * A write that changes Knack's own files (what it is) or what tools run by themselves (null), or undefined when the
   * write is not protected.
   */
  protectedAs(real: string, places: OwnPlace[]): Said | null | undefined;
}

/** The gate's view of paths over a ceiling, with the protected globs and Knack's own roots (GateOptions). */
export function gatePaths(ceiling: Ceiling, protectedWrites?: string[], protectedRoots?: string[]): GatePaths {
  // Case-insensitive: on macOS and Windows `.WorkBuddy/settings.json` is the same file as `.workbuddy/settings.json`.
  const protectedGlobs = protectedWrites ?? DEFAULT_PROTECTED_WRITES;
  const protectedMatch = (rel: string): boolean => matchesAny(protectedGlobs, rel, { nocase: true });
  const givenRoots = protectedRoots ?? appOwnedRoots();
  return {
    resolveAll(paths) {
      return (paths ?? []).map((given) => {
        const real = realPathOf(given, ceiling.workspace).real;
        const lexical = given.startsWith('/') ? given : `${ceiling.workspace}/${given}`;
        return {
          given,
          real,
          viaLink: !isInside(real, ceiling.workspace) && isInside(lexical.replace(/\/+/g, '/'), ceiling.workspace),
        };
      });
    },
    // Paths in reasons are escaped where they are made: a reason is shown to people and to the model.
    show: (r) => displaySafe(r.viaLink ? `${r.given} (really ${r.real})` : r.given),
    /**
     * Resolved at each call: a link made after start counts. Each folder of Knack's own, the settings files in them,
     * and the workspace's `.workbuddy`/`.agents` folders and settings files. When one is a link, its target is where
     * Knack reads, so writing the target is protected as writing the file itself is (a `.workbuddy` linked elsewhere,
     * a settings.json stowed into a dotfiles repository).
     */
    ownPlaces() {
      const places: OwnPlace[] = [];
      const add = (p: string, what: Said): void => {
        try {
          places.push({ real: realPathOf(p, '/').real, what });
        } catch {
          places.push({ real: p, what });
        }
      };
      // The files first: the most precise name wins.
      for (const r of givenRoots)
        for (const f of OWN_SETTINGS_FILES) add(join(r, f), say('gate.own.file', { file: f, path: join(r, f) }));
      for (const f of WORKSPACE_SETTINGS_FILES)
        add(join(ceiling.workspace, '.workbuddy', f), say('gate.own.workspaceFile', { file: f }));
      for (const r of givenRoots) add(r, say('gate.own.folder', { path: r }));
      for (const d of ['.workbuddy', '.agents'])
        add(join(ceiling.workspace, d), say('gate.own.workspaceFolder', { folder: d }));
      return places;
    },
    protectedAs(real, places) {
      const own = places.find((p) => isInside(real, p.real));
      if (own) return own.what;
      const base = [ceiling.workspace, ...ceiling.writeRoots].find((root) => isInside(real, root));
      return base !== undefined && protectedMatch(relPosix(real, base)) ? null : undefined;
    },
  };
}
