// Settings and where Knack keeps things.
// What other folders may import from core/config: nothing outside reaches past this file.
export { projectSkillDirs, repoRoot, resolvePaths, userSkillDirs, type KnackPaths } from './paths.js';
export {
  blocksCeilingChange,
  DEFAULT_SETTINGS,
  loadSettings,
  narrowCeiling,
  SETTINGS_FILE,
  settingsFiles,
  userSettingsPath,
  workspaceSettingsPath,
  type CeilingMemory,
  type RunLimits,
  type SandboxLimits,
  type Settings,
} from './settings.js';
export { watchFiles, type FileWatcher } from './watch.js';
export { MAX_DEPTH, readJsonText, tooDeep } from './json-text.js';
