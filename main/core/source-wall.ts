// The wall git runs in for skill sources: the workspace's OS sandbox (core/contain) seen as skills/sources' GitWall, for
// the window (the open workspace's wall) and the CLI (a wall opened for one command, without opening the catalog).
import { loadSettings, userSkillDirs, type KnackPaths, type Settings } from './config/index.js';
import { Wall, type WallPlace } from './contain/index.js';
import { english, say, type Said } from './base/index.js';
import type { GitWall } from './skills/sources/index.js';

/** Where one workspace's programs run: its folder, Knack's own places, the ceiling's extra write roots. */
export function wallPlaceOf(paths: KnackPaths, workspace: string, settings: Settings): WallPlace {
  return {
    workspace,
    home: paths.home,
    dataDir: paths.dataDir,
    writeRoots: settings.policy.ceiling.writeRoots,
    userSkillTiers: Object.values(userSkillDirs(paths.home)),
    // A proxy the sandbox's proxy forwards allowed requests to (a corporate proxy; tests play hosts with it).
    ...(process.env.KNACK_SANDBOX_UPSTREAM_PROXY ? { upstreamProxy: process.env.KNACK_SANDBOX_UPSTREAM_PROXY } : {}),
  };
}

/**
 * The GitWall of a workspace's wall, opened on the first git call (a source that needs no git costs nothing). Like a
 * command: inside the wall when it is available; refused when the workspace requires it and it is down (the wall's
 * error: git does not run); in mode `off`, or `auto` without a sandbox, git runs as a plain process and `onOutside`
 * is told why, once.
 */
export function sourceWall(wall: () => Promise<Wall>, onOutside?: (why: string, words: Said) => void): GitWall {
  let told = false;
  return {
    async wrapProgram(argv, opts) {
      const w = await wall();
      if (w.available || w.mode === 'required' || w.closed) return w.wrapProgram(argv, opts);
      if (!told) {
        told = true;
        const status = w.status();
        const words =
          w.mode === 'off'
            ? say('sources.outsideOff')
            : say('sources.outsideUnavailable', { reason: status.reasonWords ?? status.reason });
        onOutside?.(english(words), words);
      }
      return { file: argv[0]!, args: argv.slice(1), env: opts.env ?? {}, release: () => undefined };
    },
  };
}

/**
 * For a CLI command: the workspace's wall as a GitWall (settings read for sandbox.mode and the ceiling's write roots),
 * started only when git first runs; close() ends it.
 */
export function openSourceWall(
  paths: KnackPaths,
  workspace: string,
  onOutside?: (why: string) => void,
): { wall: GitWall; close(): Promise<void> } {
  let opened: Promise<Wall> | undefined;
  const open = () =>
    (opened ??= (() => {
      const { settings } = loadSettings(paths.dataDir, workspace);
      // Git for a source writes only its own clone: the workspace's git dirs are walked once for the wall's probe, not
      // watched (watching a big workspace costs more than the one walk this short-lived wall needs).
      return Wall.open(wallPlaceOf(paths, workspace, settings), settings.sandbox.mode, { watchGitDirs: false });
    })());
  return {
    wall: sourceWall(open, onOutside),
    close: async () => {
      if (opened) await (await opened).close();
    },
  };
}
