// Skill scripts in isolated-vm in a child process: client, host, limits, capabilities.
// What other folders may import from core/sandbox: nothing outside reaches past this file.
export { type ScriptSkill, type ToolRunner } from './capabilities.js';
export { type ScriptResult } from './client.js';
export { limitsFromSettings } from './limits.js';
export { SandboxError } from './protocol.js';
export { createScriptRunner, type ScriptRunner } from './runner.js';
export { policyFromEntry, policyFromManifest } from './skill-policy.js';
export { hostEntry, hostEnv, type HostProcess, type SpawnHost } from './spawn.js';
export { catalogSkillFinder, createRunSkillScriptTool } from './tool.js';
