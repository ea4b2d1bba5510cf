// Contract handlers for settings: the policy ceiling (written to the user's settings file, never the workspace's, and
// applied to the open workspace in place). Provider presets, model and keys: the agent's provider settings (chat.ts).
import { readFileSync } from 'node:fs';

import type { Handlers } from './dispatch.js';
import { ServiceError } from './dispatch.js';
import type { ServiceContext } from './context.js';
import type { ServiceOptions } from './index.js';
import { checkRoots } from './tools.js';
import { userSettingsPath } from '../config/index.js';
import { fsWords, say, writeFileAtomic } from '../base/index.js';

type SettingsHandlers = Pick<Handlers, 'settings.setCeiling'>;

/** Merge `ceiling` into policy.ceiling of the user settings file (other keys kept), atomically. */
function writeUserCeiling(dataDir: string, ceiling: Record<string, unknown>): void {
  const file = userSettingsPath(dataDir);
  let json: Record<string, unknown> = {};
  try {
    const raw = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    if (raw && typeof raw === 'object' && !Array.isArray(raw)) json = raw as Record<string, unknown>;
    else throw new ServiceError('conflict', say('settingsFile.notObject', { file }));
  } catch (e) {
    if (e instanceof ServiceError) throw e;
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') {
      // The CLI prints the file system's or the parser's own message; the window says an errno in its language.
      throw new ServiceError(
        'conflict',
        say('settingsFile.cannotUse', { file, error: fsWords(e) }),
        undefined,
        `${file}: ${(e as Error).message}; fix or remove it before changing settings here`,
      );
    }
  }
  const policy = (json.policy && typeof json.policy === 'object' ? json.policy : {}) as Record<string, unknown>;
  const current = (policy.ceiling && typeof policy.ceiling === 'object' ? policy.ceiling : {}) as Record<
    string,
    unknown
  >;
  json.policy = { ...policy, ceiling: { ...current, ...ceiling } };
  writeFileAtomic(file, JSON.stringify(json, null, 2) + '\n', { mode: 0o600 });
}

/**
 * `applyCeiling` puts the new ceiling on the open workspace's live gate and tool box: conversations stay open and a
 * running turn goes on, its next tool call judged by the new ceiling (a narrower one cannot be outrun).
 */
export function settingsHandlers(
  ctx: ServiceContext,
  _options: ServiceOptions,
  applyCeiling: () => Promise<void>,
): SettingsHandlers {
  return {
    'settings.setCeiling': async (ceiling) => {
      checkRoots(ceiling.readRoots, 'readRoots');
      checkRoots(ceiling.writeRoots, 'writeRoots');
      const defined = Object.fromEntries(Object.entries(ceiling).filter(([, v]) => v !== undefined));
      writeUserCeiling(ctx.paths.dataDir, defined);
      await applyCeiling();
      return ctx.settingsView();
    },
  };
}
