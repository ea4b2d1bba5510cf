// Where Knack keeps things: its own folder (KNACK_HOME, default ~/.knack) for the database and settings, the user's
// home for the user tier of skills (~/.workbuddy/skills), the shipped skills. KNACK_DATA_DIR replaces the data folder.
import { existsSync } from 'node:fs';
import { homedir, platform } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface KnackPaths {
  /** The user's home (`~`): the user tier of skills lives under it. */
  home: string;
  /** Knack's own folder (KNACK_HOME, default ~/.knack) or KNACK_DATA_DIR: the SQLite store and settings live here. */
  dataDir: string;
  /** Shipped skills. */
  builtinSkillsDir: string;
}

// fileURLToPath, not `.pathname`: a checkout under `My Projects/` would otherwise be looked for under `My%20Projects/`.
const repoRoot = resolve(fileURLToPath(new URL('../../..', import.meta.url)));

/** Where the data folder was by default before ~/.knack: kept while it holds a database and ~/.knack does not exist. */
function platformDataDir(home: string, env: NodeJS.ProcessEnv): string {
  switch (platform()) {
    case 'darwin':
      return join(home, 'Library', 'Application Support', 'Knack');
    case 'win32':
      return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'Knack');
    default:
      return join(env.XDG_DATA_HOME ?? join(home, '.local', 'share'), 'knack');
  }
}

let warnedLegacy = false;

/**
 * KNACK_HOME as it was read before (a home folder: user skills in $KNACK_HOME/.workbuddy, the database in
 * $KNACK_HOME/.knack) while such a folder holds either. Kept for one release, with a warning, so nothing is lost.
 */
function legacyHome(dir: string): boolean {
  const legacy = existsSync(join(dir, '.knack')) || existsSync(join(dir, '.workbuddy'));
  if (legacy && !warnedLegacy) {
    warnedLegacy = true;
    process.emitWarning(
      `KNACK_HOME=${dir} is read as a home folder (it holds .knack or .workbuddy): the database stays in ` +
        `${join(dir, '.knack')} and user skills in ${join(dir, '.workbuddy', 'skills')}. KNACK_HOME now names ` +
        `Knack's own folder; set KNACK_HOME=${join(dir, '.knack')} (and HOME for the user tier). ` +
        'The old reading goes in the next release.',
      { code: 'KNACK_HOME_LEGACY' },
    );
  }
  return legacy;
}

export function resolvePaths(overrides: Partial<KnackPaths> = {}, env: NodeJS.ProcessEnv = process.env): KnackPaths {
  let home = overrides.home ?? homedir();
  let knackDir: string;
  if (env.KNACK_HOME) {
    const dir = resolve(env.KNACK_HOME);
    if (legacyHome(dir)) {
      home = overrides.home ?? dir;
      knackDir = join(dir, '.knack');
    } else knackDir = dir;
  } else {
    knackDir = join(home, '.knack');
    // An install from before ~/.knack keeps its data where it is (only for the real home: never for a --home).
    const old = platformDataDir(home, env);
    if (!overrides.home && !existsSync(knackDir) && existsSync(join(old, 'knack.db'))) knackDir = old;
  }
  return {
    home,
    dataDir: overrides.dataDir ?? (env.KNACK_DATA_DIR ? resolve(env.KNACK_DATA_DIR) : knackDir),
    builtinSkillsDir: overrides.builtinSkillsDir ?? env.KNACK_BUILTIN_SKILLS ?? join(repoRoot, 'builtin-skills'),
  };
}

/** The user tier folders under a home. */
export function userSkillDirs(home: string): { workbuddy: string; agents: string } {
  return { workbuddy: join(home, '.workbuddy', 'skills'), agents: join(home, '.agents', 'skills') };
}

/** The project tier folders under a workspace. */
export function projectSkillDirs(workspace: string): { workbuddy: string; agents: string } {
  return { workbuddy: join(workspace, '.workbuddy', 'skills'), agents: join(workspace, '.agents', 'skills') };
}

export { repoRoot };
