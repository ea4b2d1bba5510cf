// The wall: the OS sandbox every program Knack starts runs in (@anthropic-ai/sandbox-runtime).
// What other folders may import from core/contain: nothing outside reaches past this file.
export { type Blocked } from './blocked.js';
export { type WallPlace } from './profile.js';
export { describeWall, wallSeen } from './status.js';
export { holdWatchdog, watchedArgv, watchedStdio } from './group-watchdog.js';
export { Wall, WallError } from './wall.js';
