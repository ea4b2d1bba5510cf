// A project's own skill against a built-in over the same words: the real getsentry `commit` skill (no read_when) in a
// workspace's .workbuddy/skills, the shipped git-commit beside it, the real service and agent over a fake provider.
// The project skill wins the auto-load by its name; the built-in stays findable, and the projection says why.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES, tempDir, writeTree } from '../../helpers/tmp.js';
import { seedSearchCache } from '../../helpers/search-seed.js';
import { startFakeAnthropic } from '../../helpers/fake-anthropic.js';
import { callerOf } from '../../helpers/service-env.js';
import { resolvePaths } from '../../../main/core/config/paths.js';
import { KnackService } from '../../../main/core/service/index.js';
import type { EventName, EventPayload } from '../../../preload/contract.js';

const BUILTIN = join(import.meta.dirname, '..', '..', '..', 'builtin-skills');
const SENTRY_COMMIT = join(FIXTURES, 'public-skills', 'getsentry__skills', 'skills', 'commit');

async function open(t: { after(fn: () => unknown): void }, withProjectSkill: boolean) {
  const root = tempDir();
  const ws = join(root, 'repo');
  writeTree(ws, { 'README.md': '# repo\n' });
  if (withProjectSkill) cpSync(SENTRY_COMMIT, join(ws, '.workbuddy', 'skills', 'commit'), { recursive: true });
  seedSearchCache(join(root, 'data'));
  const server = await startFakeAnthropic();
  const service = new KnackService({
    paths: resolvePaths({ home: join(root, 'home'), dataDir: join(root, 'data'), builtinSkillsDir: BUILTIN }),
    transport: 'serve',
    version: 't',
    log: () => {},
    workspaceOptions: { watch: false, audit: false },
    provider: { provider: 'anthropic', model: 'fake-model', baseURL: server.url },
    env: { ANTHROPIC_API_KEY: 'sk-ant-test-0123456789' },
  });
  await service.openWorkspace(ws);
  t.after(async () => {
    await service.close();
    await server.close();
  });
  const call = callerOf(service);
  const send = async (text: string) => {
    server.script({ text: 'ok' });
    const ended = new Promise<EventPayload<'chat.turnEnd'>>((resolve) => {
      const off = service.events.on((n: EventName, p) => {
        if (n === 'chat.turnEnd') {
          off();
          resolve(p as EventPayload<'chat.turnEnd'>);
        }
      });
    });
    const { sessionId } = await call('chat.send', { text });
    assert.equal((await ended).reason, 'done');
    return (await call('context.get', { sessionId })).loadedSkills;
  };
  return { service, send };
}

for (const message of ['commit my changes', '帮我提交代码']) {
  test(`"${message}" auto-loads the project's own commit skill, not the built-in git-commit, and says why`, async (t) => {
    const s = await open(t, true);
    const catalog = s.service.workspace!.catalog;
    assert.equal(catalog.get('commit')?.tier, 'project');
    assert.equal(catalog.get('commit')?.enabled, true);
    const loaded = await s.send(message);
    assert.deepEqual(
      loaded.map((x) => [x.name, x.tier]),
      [['commit', 'project']],
    );
    assert.match(loaded[0]!.reason, /its name "commit" matched/);
    assert.match(loaded[0]!.reason, /chosen over the built-in skill "git-commit", matched by the same words/);
    // The built-in stays findable (and loadable by the model) — it only lost the automatic load.
    assert.ok(
      s.service
        .workspace!.skillSearch()
        .search(message, { limit: 10 })
        .some((h) => h.name === 'git-commit'),
    );
  });
}

test('without a project skill of its own, the same message auto-loads the built-in git-commit as before', async (t) => {
  const s = await open(t, false);
  const loaded = await s.send('commit my changes');
  assert.deepEqual(
    loaded.map((x) => [x.name, x.tier]),
    [['git-commit', 'builtin']],
  );
  assert.doesNotMatch(loaded[0]!.reason, /chosen over/);
});
