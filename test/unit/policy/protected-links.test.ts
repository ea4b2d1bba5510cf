// Attacks on Knack's own settings files reached through symlinks (review 10b, finding 1): when the user's settings.json,
// providers.json or mcp.json in the data folder, or the workspace's .workbuddy folder or settings file, is a link into
// the open folder (dotfiles managed with stow), the link's target is where Knack reads its settings: a write to it asks
// every time, whatever rule allows the tool, for the agent and for a skill's script alike (knack.writeFile reaches the
// gate as write_file with actor = the skill, sandbox/capabilities.ts). A link made after the gate
// was built counts too (the real paths are resolved at each call).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tmp.js';
import { DEFAULT_SETTINGS } from '../../../main/core/config/settings.js';
import { ceilingFrom } from '../../../main/core/policy/ceiling.js';
import { appOwnedRoots, createGate } from '../../../main/core/policy/gate.js';
import { parsePermissions } from '../../../main/core/policy/permissions.js';
import type { Rule } from '../../../main/core/store/policy-repo.js';
import type { Actor, ToolCall } from '../../../main/core/policy/types.js';

const agent: Actor = { kind: 'agent', activeSkills: [] };
const write = (path: string, tool = 'write_file'): ToolCall => ({ tool, args: { path }, access: { write: [path] } });
const rules: Rule[] = [
  { id: 'w', effect: 'allow', tool: 'write_file', createdAt: 0 },
  { id: 'c', effect: 'allow', tool: '@write', createdAt: 0 },
];

/** A home with its data folder outside the open folder; the open folder holds the user's dotfiles. */
function setup() {
  const root = tempDir();
  const home = join(root, 'home');
  const dataDir = join(home, '.local', 'share', 'knack');
  const ws = join(root, 'dotfiles');
  const skillDir = join(root, 'skills', 'tidy');
  mkdirSync(dataDir, { recursive: true });
  mkdirSync(join(ws, 'knack'), { recursive: true });
  mkdirSync(join(ws, 'wb'), { recursive: true });
  mkdirSync(skillDir, { recursive: true });
  writeFileSync(join(skillDir, 'SKILL.md'), 'x');
  for (const f of ['settings.json', 'providers.json', 'mcp.json', 'ws-settings.json', 'notes.txt'])
    writeFileSync(join(ws, 'knack', f), '{}');
  writeFileSync(join(ws, 'wb', 'settings.json'), '{}');
  const perms = parsePermissions({
    file: 'SKILL.md',
    permissions: { tools: ['write_file'], paths: { write: ['**'] } },
  });
  assert.ok(perms.permissions, JSON.stringify(perms.diagnostics));
  const gate = createGate({
    ceiling: ceilingFrom(structuredClone(DEFAULT_SETTINGS), ws, [skillDir]),
    rules: () => rules,
    skill: (n) => (n === 'tidy' ? { name: 'tidy', dir: skillDir, permissions: perms.permissions! } : undefined),
    protectedRoots: appOwnedRoots({ home, dataDir }),
  });
  return { home, dataDir, ws, gate };
}

test('a symlinked settings.json, providers.json or mcp.json in the data folder: writing its target in the open folder asks, agent and skill script alike', () => {
  const { dataDir, ws, gate } = setup();
  // Before any link the targets are ordinary files (the control: the rule allows them).
  for (const f of ['settings.json', 'providers.json', 'mcp.json'])
    assert.equal(gate.authorize(write(join(ws, 'knack', f)), agent).verdict, 'allow', f);
  // The links are made after the gate was built (stow run while Knack is open).
  for (const f of ['settings.json', 'providers.json', 'mcp.json']) symlinkSync(join(ws, 'knack', f), join(dataDir, f));
  for (const f of ['settings.json', 'providers.json', 'mcp.json']) {
    for (const given of [join(ws, 'knack', f), `knack/${f}`, `./knack/../knack/${f}`]) {
      const d = gate.authorize(write(given), agent);
      assert.equal(d.verdict, 'ask', given);
      assert.match(d.reason, new RegExp(`Knack's own ${f.replace('.', '\\.')}`), d.reason);
      assert.match(d.reason, /confirm each time/);
      const s = gate.authorize(write(given), { kind: 'skill', skill: 'tidy' });
      assert.equal(s.verdict, 'ask', `skill script knack.writeFile ${given}: ${s.reason}`);
    }
  }
  assert.equal(
    gate.authorize(write(join(ws, 'knack', 'notes.txt')), agent).verdict,
    'allow',
    'a file beside them stays allowed',
  );
});

test('a symlinked .workbuddy folder or .workbuddy/settings.json in the open folder: writing the target asks', () => {
  const { ws, gate } = setup();
  assert.equal(
    gate.authorize(write(join(ws, 'wb', 'settings.json')), agent).verdict,
    'allow',
    'control: before the link',
  );
  symlinkSync('wb', join(ws, '.workbuddy'));
  for (const given of [join(ws, 'wb', 'settings.json'), 'wb/settings.json', 'wb/mcp.json', 'wb/skills/x/SKILL.md']) {
    assert.equal(gate.authorize(write(given), agent).verdict, 'ask', given);
    assert.equal(gate.authorize(write(given), { kind: 'skill', skill: 'tidy' }).verdict, 'ask', `skill ${given}`);
  }
  assert.equal(gate.authorize(write('knack/ws-settings.json'), agent).verdict, 'allow', 'control');
});

test('a .workbuddy folder whose settings.json is a link elsewhere in the open folder: the target asks, a dangling link too', () => {
  const { ws, gate } = setup();
  mkdirSync(join(ws, '.workbuddy'));
  symlinkSync('../knack/ws-settings.json', join(ws, '.workbuddy', 'settings.json'));
  symlinkSync('../knack/not-yet.json', join(ws, '.workbuddy', 'mcp.json'));
  assert.equal(gate.authorize(write('knack/ws-settings.json'), agent).verdict, 'ask');
  assert.equal(
    gate.authorize(write('knack/not-yet.json'), agent).verdict,
    'ask',
    'the model must not create the file a dangling link names',
  );
  assert.equal(gate.authorize(write('knack/notes.txt'), agent).verdict, 'allow');
});
