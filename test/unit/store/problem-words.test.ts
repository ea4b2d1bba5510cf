// A database that cannot be used is said as words, in the window's language: the banner's reason when it cannot be
// opened (a newer schema), and the gate's reason on every tool call, for a database that cannot be opened or one that
// was set aside as damaged. The store's own message stays as it said it; the CLI's English is unchanged.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { assertSaid, chinese } from '../../helpers/words.js';
import { serviceEnv } from '../../helpers/service-env.js';
import { DB_FILE } from '../../../main/core/store/index.js';
import type { Actor } from '../../../main/core/policy/types.js';

const agent: Actor = { kind: 'agent', activeSkills: [] };

/** The service opened on a data folder `prepare` left as the test needs it. */
async function open(t: { after(fn: () => unknown): void }, prepare: (dataDir: string) => void) {
  const env = await serviceEnv(t, { prepare: (paths) => prepare(paths.dataDir) });
  const info = (await env.call('workspace.current', {}))!;
  return { ...env, info, read: { read: [join(env.ws, 'notes.txt')] } };
}

test('a database that cannot be opened: the banner and the gate say why in words', async (t) => {
  const { service, info, paths, read } = await open(t, (dataDir) => {
    const db = new Database(join(dataDir, DB_FILE));
    db.pragma('user_version = 9999');
    db.close();
  });
  const store = info.store!;
  assert.match(store.problem!, /^cannot open the database in .*: .*newer than this Knack/);
  const zh = assertSaid(store.problemWords, store.problem!);
  assert.ok(zh.startsWith(`无法打开 ${paths.dataDir} 中的数据库：`), zh);
  const d = service.workspace!.gate.authorize({ tool: 'read_file', args: {}, access: read }, agent);
  assert.equal(d.verdict, 'ask');
  assert.match(chinese(d.words!), /^你的规则无法读取（无法打开 .* 中的数据库：/);
  assertSaid(d.words, d.reason);
});

test('a database set aside as damaged: the gate says where it went, in words', async (t) => {
  const { service, read } = await open(t, (dataDir) =>
    writeFileSync(join(dataDir, DB_FILE), 'not a database\n'.repeat(20)),
  );
  const d = service.workspace!.gate.authorize({ tool: 'read_file', args: {}, access: read }, agent);
  assert.equal(d.verdict, 'ask');
  assert.match(d.reason, /your rules cannot be read \(the database was damaged and set aside as .*knack\.db\.damaged-/);
  assert.match(chinese(d.words!), /^你的规则无法读取（数据库已损坏，已移到 .*knack\.db\.damaged-\S+）/);
  assertSaid(d.words, d.reason);
});
