// A database that cannot be used is said as words, in the window's language: the banner's reason when it cannot be
// opened (a newer schema), and the gate's reason on every tool call, for a database that cannot be opened or one that
// was set aside as damaged. The store's own message stays as it said it; the CLI's English is unchanged.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { tempDir, writeTree } from '../../helpers/tmp.js';
import { assertSaid, chinese } from '../../helpers/words.js';
import { testWorkspace } from '../../helpers/service-env.js';
import { resolvePaths } from '../../../main/core/config/paths.js';
import { KnackService } from '../../../main/core/service/index.js';
import { DB_FILE } from '../../../main/core/store/index.js';
import type { Actor } from '../../../main/core/policy/types.js';

const agent: Actor = { kind: 'agent', activeSkills: [] };

async function open(prepare: (dataDir: string) => void) {
  const root = tempDir();
  const ws = join(root, 'repo');
  writeTree(ws, { 'a.txt': 'a' });
  const paths = resolvePaths({
    home: join(root, 'home'),
    dataDir: join(root, 'data'),
    builtinSkillsDir: join(root, 'none'),
  });
  mkdirSync(paths.dataDir, { recursive: true });
  prepare(paths.dataDir);
  const service = new KnackService({
    paths,
    transport: 'serve',
    version: 't',
    log: () => {},
    workspaceOptions: testWorkspace,
  });
  await service.openWorkspace(ws);
  const info = (await service.handlers['workspace.current']({}))!;
  return { service, info, paths, read: { read: [join(ws, 'a.txt')] } };
}

test('a database that cannot be opened: the banner and the gate say why in words', async () => {
  const { service, info, paths, read } = await open((dataDir) => {
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
  await service.close();
});

test('a database set aside as damaged: the gate says where it went, in words', async () => {
  const { service, read } = await open((dataDir) =>
    writeFileSync(join(dataDir, DB_FILE), 'not a database\n'.repeat(20)),
  );
  const d = service.workspace!.gate.authorize({ tool: 'read_file', args: {}, access: read }, agent);
  assert.equal(d.verdict, 'ask');
  assert.match(d.reason, /your rules cannot be read \(the database was damaged and set aside as .*knack\.db\.damaged-/);
  assert.match(chinese(d.words!), /^你的规则无法读取（数据库已损坏，已移到 .*knack\.db\.damaged-\S+）/);
  assertSaid(d.words, d.reason);
  await service.close();
});
