// The window's English where the CLI's (preload/words.ts) tells the reader to type a command, or tells the model what
// to call next (the bash tool's sandbox.blocked error): the window names the button to press, or what you will see.
// Every other code is said as the CLI says it. test/unit/renderer/words.test.tsx checks
// that no English or Chinese the window says names a command line, and that these say the same parameters.
import type { WordCode } from '../../../preload/contract.js';
import { WORDS } from '../../../preload/contract.js';

export const windowEnglish: Partial<Record<WordCode, string>> = {
  'skillOff.p1': 'audit P1, not trusted yet: {{summary}} — press Trust on {{name}} to review it',
  'skillOff.widened':
    'permissions widened since last use ({{added}}): press Trust on {{name}} to review and accept them',
  'install.exists': 'skill "{{name}}" is already installed at {{dest}}; updating replaces it',
  'install.discovered': 'approval {{id}} is for a skill found in a skills folder: press Trust on it',
  'install.gone': 'approval {{id}} is no longer available: {{source}} is gone; press Dismiss to remove it',
  'wall.blocked':
    'the sandbox blocked {{blocked}} (exit {{exit}}). If the task needs it, the model may ask to run the command WITHOUT the sandbox: you are asked first.',
  'gate.rulesUnreadable': 'your rules cannot be read ({{why}}): every tool call asks',
  'rule.skillByName':
    'for skill {{name}} (by name only: a user or built-in skill of that name; delete it and answer Always allow when the skill asks again to bind it to one folder and content)',
  'provider.needsBaseUrl': 'provider "{{id}}" needs a base URL (baseURL in {{file}})',
  'provider.needsModel': 'provider "{{id}}" needs a model (model in {{file}})',
  'rule.anyContentOld':
    'any content: stored before rules were bound to content; delete it and answer Always allow when the skill asks again to bind it',
};

/** The English words table the window reads. */
export const wordsEn: Record<WordCode, string> = { ...WORDS, ...windowEnglish };
