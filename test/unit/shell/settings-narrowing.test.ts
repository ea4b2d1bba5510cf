// A settings file that does not read cleanly where the ceiling is concerned keeps the ceiling from widening, never
// from narrowing: a repository's broken .workbuddy/settings.json, or a typo in the user's own file, cannot stop the
// user from taking a permission away (from the Settings page or by editing the file).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { serviceEnv } from '../../helpers/service-env.js';
import { assertSaid } from '../../helpers/words.js';
import type { Actor } from '../../../main/core/policy/types.js';

const agent: Actor = { kind: 'agent', activeSkills: [] };
const waits = { timeout: 60_000 };
/** Save a file as editors do: write a temporary file, rename it over the old one. */
function save(file: string, value: unknown): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(`${file}.swp`, JSON.stringify(value, null, 2));
  renameSync(`${file}.swp`, file);
}
const readNotes = (s: Awaited<ReturnType<typeof serviceEnv>>) =>
  s.service.workspace!.gate.authorize(
    { tool: 'read_file', args: {}, access: { read: [join(s.ws, 'notes.txt')] } },
    agent,
  ).verdict;

test(
  'a workspace settings file with an unknown policy key does not stop a Settings-page save from narrowing the ceiling',
  waits,
  async (t) => {
    const s = await serviceEnv(t, {
      files: { '.workbuddy/settings.json': JSON.stringify({ policy: { ceilng: {} } }) },
    });
    assert.equal(readNotes(s), 'allow');
    const view = await s.call('settings.setCeiling', { tools: ['list_dir'] });
    assert.deepEqual(view.ceiling.tools, ['list_dir']);
    assert.equal(readNotes(s), 'deny', 'the user took read_file away; the gate must follow');
  },
);

test(
  'a broken workspace settings file does not stop a hand edit of the user file from narrowing the ceiling',
  waits,
  async (t) => {
    const s = await serviceEnv(t, {
      files: { '.workbuddy/settings.json': '{"policy": {"ceiling": {"network": false, "x": 1}}}' },
    });
    const heard = s.next('workspace.changed');
    save(join(s.paths.dataDir, 'settings.json'), { policy: { ceiling: { tools: ['list_dir'] } } });
    await heard;
    assert.equal(readNotes(s), 'deny');
  },
);

test(
  "a typo in the user's own policy settings does not stop a Settings-page save from narrowing the ceiling",
  waits,
  async (t) => {
    const s = await serviceEnv(t);
    mkdirSync(s.paths.dataDir, { recursive: true });
    writeFileSync(join(s.paths.dataDir, 'settings.json'), JSON.stringify({ policy: { ceiling: { netwrok: false } } }));
    await s.call('workspace.open', { path: s.ws, reload: true });
    await s.call('settings.setCeiling', { tools: ['list_dir'] });
    assert.equal(readNotes(s), 'deny');
  },
);

test(
  'a broken settings file still cannot widen the ceiling: what it asks beyond the ceiling in force is not applied',
  waits,
  async (t) => {
    const s = await serviceEnv(t);
    await s.call('settings.setCeiling', { tools: ['list_dir'] });
    assert.equal(readNotes(s), 'deny');
    const heard = s.next('workspace.changed');
    // Gives every tool back, with an unknown key beside it: the file does not read cleanly, so nothing widens.
    save(join(s.paths.dataDir, 'settings.json'), { policy: { ceiling: { tools: ['*'], netwrok: true } } });
    const info = (await heard).workspace;
    assert.equal(readNotes(s), 'deny');
    const kept = info.diagnostics.find((d) => d.code === 'settings.kept');
    assert.ok(kept, JSON.stringify(info.diagnostics));
    // Said in the window's language: the Chinese has no English sentence.
    assert.match(assertSaid(kept.words, kept.message), /设置只能收回权限/);
  },
);
