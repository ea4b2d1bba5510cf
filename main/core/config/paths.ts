// Where Knack keeps things: the user's home for skills, the app data folder for the database.
// KNACK_HOME replaces the home folder (tests and portable setups); KNACK_DATA_DIR replaces the data folder.
import { homedir, platform } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface KnackPaths {
  /** The folder treated as the user's home (`~`). */
  home: string;
  /** App data folder: the SQLite store lives here. */
  dataDir: string;
  /** Shipped skills. */
  builtinSkillsDir: string;
}

// fileURLToPath, not `.pathname`: a checkout under `My Projects/` would otherwise be looked for under `My%20Projects/`.
const repoRoot = resolve(fileURLToPath(new URL('../../..', import.meta.url)));

export function defaultDataDir(home: string, env: NodeJS.ProcessEnv = process.env): string {
  if (env.KNACK_DATA_DIR) return resolve(env.KNACK_DATA_DIR);
  if (env.KNACK_HOME) return join(resolve(env.KNACK_HOME), '.knack');
  switch (platform()) {
    case 'darwin':
      return join(home, 'Library', 'Application Support', 'Knack');
    case 'win32':
      return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'Knack');
    default:
      return join(env.XDG_DATA_HOME ?? join(home, '.local', 'share'), 'knack');
  }
}

export function resolvePaths(overrides: Partial<KnackPaths> = {}, env: NodeJS.ProcessEnv = process.env): KnackPaths {
  const home = overrides.home ?? (env.KNACK_HOME ? resolve(env.KNACK_HOME) : homedir());
  return {
    home,
    dataDir: overrides.dataDir ?? defaultDataDir(home, env),
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
