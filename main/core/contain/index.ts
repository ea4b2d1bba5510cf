// The wall: the OS sandbox every program Knack starts runs in (@anthropic-ai/sandbox-runtime).
// What other folders may import from core/contain: nothing outside reaches past this file.
export { blockedOf, type Blocked } from './blocked.js';
export { PROTECTED_IN_WORKSPACE, SECRET_READS, wallConfig, wallRules, type WallPlace } from './profile.js';
export { backendOf, describeWall, type SandboxMode, type WallStatus } from './status.js';
export { holdWatchdog, watchedArgv, watchedStdio } from './group-watchdog.js';
export {
  scrubbedEnv,
  Wall,
  WallError,
  type ContainedProcess,
  type SpawnOptions,
  type WrapProgramOptions,
  type WrappedProgram,
} from './wall.js';
