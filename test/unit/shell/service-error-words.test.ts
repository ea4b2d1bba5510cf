// The service's errors as the window meets them: each carries words (a code and parameters) the window says in its
// language, while the English message the CLI and logs print stays as it is.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { callerOf, serviceEnv, testWorkspace } from '../../helpers/service-env.js';
import { tempDir } from '../../helpers/tmp.js';
import { resolvePaths } from '../../../main/core/config/paths.js';
import { KnackService } from '../../../main/core/service/index.js';
import type { Said } from '../../../preload/words.js';
import { assertSaid, chinese } from '../../helpers/words.js';

type Refused = Error & { code?: string; words?: Said };

/** `p` is refused with `code` and `message`, its words the same English; returns the words' Chinese. */
async function refusedAs(p: Promise<unknown>, code: string, message: string): Promise<string> {
  let zh = '';
  await assert.rejects(p, (e: Refused) => {
    assert.equal(e.code, code);
    assert.equal(e.message, `${code}: ${message}`);
    zh = assertSaid(e.words, message);
    return true;
  });
  return zh;
}

test('a typed folder that is missing, a file, or a symlink loop is refused in words', async (t) => {
  const s = await serviceEnv(t);
  const missing = join(s.root, 'nowhere');
  const zh = await refusedAs(
    s.call('workspace.open', { path: missing }),
    'not_found',
    `cannot open ${missing} as a workspace: no such folder`,
  );
  assert.equal(zh, `无法把 ${missing} 作为工作区打开：文件夹不存在`);

  const file = join(s.ws, 'notes.txt');
  assert.equal(
    await refusedAs(
      s.call('workspace.open', { path: file }),
      'not_found',
      `cannot open ${file} as a workspace: not a folder`,
    ),
    `无法把 ${file} 作为工作区打开：它不是文件夹`,
  );

  // Another errno: the CLI keeps Node's message, the window says the errno in its language.
  const loop = join(s.root, 'loop');
  symlinkSync(join(s.root, 'loop2'), loop);
  symlinkSync(loop, join(s.root, 'loop2'));
  await assert.rejects(s.call('workspace.open', { path: loop }), (e: Refused) => {
    assert.match(e.message, /^not_found: cannot open .*loop as a workspace: ELOOP/);
    assert.deepEqual(e.words, { code: 'workspace.cannotOpen', params: { path: loop, why: { code: 'fs.ELOOP' } } });
    assert.equal(chinese(e.words!), `无法把 ${loop} 作为工作区打开：连续的符号链接太多`);
    return true;
  });
});

test('native dialogs in serve mode, and a file that is no skill of the workspace, are refused in words', async (t) => {
  const s = await serviceEnv(t);
  await refusedAs(
    s.call('dialog.pickWorkspace', {}),
    'unsupported',
    'native dialogs exist in the desktop app only; type the path instead',
  );
  const file = join(s.ws, 'notes.txt');
  await refusedAs(
    s.call('dialog.showSkillFile', { file }),
    'not_found',
    `${file} is not a skill file of this workspace`,
  );
});

test('no workspace open, and a service shutting down, are said in words', async (t) => {
  const root = tempDir();
  mkdirSync(join(root, 'repo'));
  const service = new KnackService({
    paths: resolvePaths({
      home: join(root, 'home'),
      dataDir: join(root, 'data'),
      builtinSkillsDir: join(root, 'none'),
    }),
    transport: 'serve',
    version: 't',
    log: () => {},
    workspaceOptions: testWorkspace,
  });
  t.after(() => service.close());
  const call = callerOf(service);
  assert.equal(
    await refusedAs(call('sandbox.status', {}), 'no_workspace', 'open a workspace folder first'),
    '请先打开一个工作区文件夹',
  );
  await service.close();
  await refusedAs(call('workspace.open', { path: join(root, 'repo') }), 'unavailable', 'the service is shutting down');
});
