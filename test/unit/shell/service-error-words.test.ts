// The service's errors as the window meets them: each carries words (a code and parameters) the window says in its
// language, while the English message the CLI and logs print stays as it is.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { callerOf, serviceEnv, testWorkspace } from '../../helpers/service-env.js';
import { skillMd, tempDir } from '../../helpers/tmp.js';
import { resolvePaths } from '../../../main/core/config/paths.js';
import { userSettingsPath } from '../../../main/core/config/index.js';
import { KnackService, type KeyStore } from '../../../main/core/service/index.js';
import { safeKeyStore } from '../../../main/electron/key-store.js';
import { PRESETS, type AttachmentError } from '../../../main/core/agent/index.js';
import { checkAttachments } from '../../../main/core/agent/attachments.js';
import { english, type Said } from '../../../preload/words.js';
import { assertSaid, chinese } from '../../helpers/words.js';
import Database from 'better-sqlite3';

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

/** `p` is refused with `code`, its message matching `pattern` and its words saying that message; returns the Chinese. */
async function refusedLike(p: Promise<unknown>, code: string, pattern: RegExp): Promise<string> {
  let zh = '';
  await assert.rejects(p, (e: Refused) => {
    assert.equal(e.code, code);
    assert.match(e.message, pattern);
    zh = assertSaid(e.words, e.message.slice(`${code}: `.length));
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

test("a conversation's refusals are said in words: busy, an empty title, no such session, a skill not loaded", async (t) => {
  const s = await serviceEnv(t);
  s.server.script({ text: 'slow', chunkDelayMs: 50, hang: true });
  const { sessionId } = await s.call('chat.send', { text: 'plan the release' });
  await s.server.streaming(1);
  await refusedAs(
    s.call('chat.send', { sessionId, text: 'again' }),
    'conflict',
    'a turn is already running in this session: stop it or wait for it to finish',
  );
  assert.equal(
    await refusedAs(
      s.call('chat.setModel', { sessionId, model: 'other-model' }),
      'conflict',
      'a turn is running in this session: switch the model once it has ended',
    ),
    '这个会话中还有一轮正在进行：等它结束后再切换模型',
  );
  await refusedAs(
    s.call('chat.answer', { sessionId, approvalId: 'a1', answer: 'once' }),
    'not_found',
    'no pending approval a1 in this session (answered already, or the turn was stopped)',
  );
  const ended = s.next('chat.turnEnd');
  await s.call('chat.stop', { sessionId });
  await ended;
  assert.equal(
    await refusedAs(
      s.call('sessions.rename', { id: sessionId, title: '   ' }),
      'invalid_input',
      'a session title cannot be empty',
    ),
    '会话标题不能为空',
  );
  await refusedAs(s.call('sessions.remember', { id: 'nope' }), 'not_found', 'no session nope');
  await refusedAs(
    s.call('chat.unloadSkill', { sessionId, name: 'release-notes' }),
    'not_found',
    '"release-notes" is not loaded in this conversation',
  );
  await refusedAs(
    s.call('settings.setProvider', { preset: 'nope' }),
    'not_found',
    `unknown provider "nope" (presets: ${PRESETS.map((p) => p.id).join(', ')})`,
  );
});

test("a providers.json the Settings page will not change is said in words, the parser's own message kept", async (t) => {
  const s = await serviceEnv(t);
  const file = join(s.paths.dataDir, 'providers.json');
  const refused = (why: string) => `${file}: ${why}; fix it (or move it away) first: it was not changed`;
  writeFileSync(file, '{\n  "providers": {\n    "deepseek": {,\n');
  await assert.rejects(s.call('settings.setProvider', { preset: 'deepseek' }), (e: Refused) => {
    assert.equal(e.code, 'conflict');
    const detail = /invalid JSON \((.*)\); fix it/.exec(e.message)![1]!;
    assert.equal(e.message, `conflict: ${refused(`line 3, column 18: invalid JSON (${detail})`)}`);
    const zh = assertSaid(e.words, refused(`line 3, column 18: invalid JSON (${detail})`));
    assert.equal(zh, `${file}：第 3 行第 18 列：JSON 无效（${detail}）；请先修正它（或把它移走）：它没有被改动`);
    return true;
  });
  for (const [text, why] of [
    ['[1]', 'not a JSON object'],
    ['{"providers": 3}', '"providers" is not an object'],
    ['{"providers": {"deepseek": "x"}}', 'providers.deepseek is not an object'],
  ]) {
    writeFileSync(file, text!);
    await refusedAs(s.call('settings.setProvider', { preset: 'deepseek' }), 'conflict', refused(why!));
  }
  rmSync(file);
  mkdirSync(file);
  await refusedAs(s.call('settings.setProvider', { preset: 'deepseek' }), 'conflict', refused('not a regular file'));
});

test("the Settings page's refusals are said in words: an MCP server or rule not there, a relative root, settings.json", async (t) => {
  const s = await serviceEnv(t);
  assert.equal(
    await refusedAs(
      s.call('mcp.remove', { scope: 'project', name: 'docs' }),
      'not_found',
      'no MCP server "docs" in the project mcp.json',
    ),
    '项目的 mcp.json 中没有名为「docs」的 MCP 服务器',
  );
  assert.ok(!existsSync(join(s.paths.dataDir, 'mcp-trust.json')), 'no trust record written for a server not there');
  await refusedAs(
    s.call('mcp.remove', { scope: 'user', name: 'docs' }),
    'not_found',
    'no MCP server "docs" in the user mcp.json',
  );
  await refusedAs(s.call('rules.remove', { id: 'r9' }), 'not_found', 'no rule with id r9');
  await refusedAs(
    s.call('settings.setCeiling', { readRoots: ['docs'] }),
    'invalid_input',
    'readRoots: "docs" must be an absolute path',
  );
  const file = userSettingsPath(s.paths.dataDir);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, '[]');
  await refusedAs(
    s.call('settings.setCeiling', { network: false }),
    'conflict',
    `${file}: not a JSON object; fix or remove it before changing settings here`,
  );
  // The parser's own message, verbatim inside the words.
  writeFileSync(file, '{');
  await assert.rejects(s.call('settings.setCeiling', { network: false }), (e: Refused) => {
    const head = `conflict: ${file}: `;
    assert.ok(e.message.startsWith(head), e.message);
    const detail = e.message.slice(head.length, e.message.indexOf('; fix or remove'));
    assertSaid(e.words, `${file}: ${detail}; fix or remove it before changing settings here`);
    assert.equal(chinese(e.words!), `${file}：${detail}；请先修正或删除它，再在这里更改设置`);
    return true;
  });
});

test("the conversations' database failing is said behind words, SQLite's own message kept", async (t) => {
  const s = await serviceEnv(t);
  s.service.workspace!.store!.close();
  for (const call of [() => s.call('sessions.list', {}), () => s.call('sessions.search', { query: 'release' })]) {
    await assert.rejects(call(), (e: Refused) => {
      assert.equal(e.code, 'unavailable');
      const detail = e.message.slice('unavailable: '.length);
      assert.match(detail, /database connection is not open/);
      assert.deepEqual(e.words, { code: 'store.cannotRead', params: { error: detail } });
      assert.equal(chinese(e.words!), `无法读取数据库：${detail}`);
      return true;
    });
  }
});

test('a skill whose SKILL.md is gone since the list was read: its page says why in words', async (t) => {
  const s = await serviceEnv(t, {
    files: {
      '.workbuddy/skills/notes/SKILL.md': skillMd({ name: 'notes', description: 'Read the notes. Use for notes.' }),
    },
  });
  const file = realpathSync(join(s.ws, '.workbuddy/skills/notes/SKILL.md'));
  rmSync(file);
  await assert.rejects(s.call('skills.show', { name: 'notes' }), (e: Refused) => {
    assert.equal(e.code, 'not_found');
    assert.match(e.message, /^not_found: ENOENT: no such file or directory/);
    assert.deepEqual(e.words, { code: 'skill.cannotRead', params: { file, error: { code: 'fs.ENOENT' } } });
    assert.equal(chinese(e.words!), `无法读取 ${file}：文件或文件夹不存在`);
    return true;
  });
});

const png = readFileSync(join(import.meta.dirname, '../../fixtures/attach/red-dot.png')).toString('base64');

test('a file refused as it is attached is said in words: an image unread, a false image, binary, too large', async (t) => {
  const s = await serviceEnv(t);
  const image = { kind: 'image', name: 'red-dot.png', mime: 'image/png', size: 69, data: png } as const;
  assert.equal(
    await refusedAs(
      s.call('chat.send', { text: 'what is this?', attachments: [image] }),
      'refused',
      'red-dot.png is an image, and the model fake-model does not read images: it was not sent (pick a model that does)',
    ),
    'red-dot.png 是图片，而模型 fake-model 不能读取图片：它没有被发送（请选一个能读取图片的模型）',
  );
  const fake = { ...image, name: 'fake.png', data: Buffer.from('not a picture').toString('base64') };
  await refusedAs(
    s.call('chat.send', { text: 'what is this?', model: 'claude-fake-vision', attachments: [fake] }),
    'refused',
    'fake.png is not a image/png file: its first bytes are not those of one',
  );
  const binary = { kind: 'text', name: 'blob.bin', mime: '', size: 3, text: 'a\u0000b' } as const;
  assert.equal(
    await refusedAs(
      s.call('chat.send', { text: 'read this', attachments: [binary] }),
      'refused',
      'blob.bin is a binary file (unknown type), not text',
    ),
    'blob.bin 是二进制文件（未知类型），不是文本',
  );
  // Digits take a token per three: 500,000 of them are more than half of any context window this model has.
  const digits = '1234567890'.repeat(50_000);
  const zh = await refusedLike(
    s.call('chat.send', {
      text: 'read this',
      attachments: [{ kind: 'text', name: 'big.txt', mime: 'text/plain', size: digits.length, text: digits }],
    }),
    'refused',
    /^refused: big\.txt \(488\.3 KB\) is too large for the context: the files of this message come to about [\d,]+ tokens, and at most [\d,]+ fit \(half of fake-model's context window\); put it in the workspace and ask the model to read it there$/,
  );
  assert.match(zh, /^big\.txt（488\.3 KB）太大，放不进上下文：/);
  assert.equal(s.server.requests.length, 0);
  // With no model set up (the agent's own check): an image has nothing to read it.
  assert.throws(
    () => checkAttachments([image], undefined),
    (e: AttachmentError) => {
      assert.equal(assertSaid(e.words, e.message), 'red-dot.png：还没有设置能读取它的模型');
      assert.equal(e.message, 'red-dot.png: no model is set up to read it');
      return true;
    },
  );
});

test('why a turn cannot be retried, regenerated, edited or switched is said in words', async (t) => {
  const s = await serviceEnv(t);
  s.server.script({ text: 'Friday.' }, { text: 'slow', chunkDelayMs: 50, hang: true });
  let ended = s.next('chat.turnEnd');
  const { sessionId } = await s.call('chat.send', { text: 'when is the release?' });
  await ended;
  assert.equal(
    await refusedAs(
      s.call('chat.retry', { sessionId }),
      'conflict',
      'the last turn ended end turn: only an interrupted, failed or timed-out turn can be retried',
    ),
    '上一轮是正常回答完的：只有中断、失败或超时的一轮才能重试',
  );
  assert.equal(
    await refusedAs(
      s.call('chat.regenerate', { sessionId, turn: 5 }),
      'conflict',
      'there is no message 6 in this conversation',
    ),
    '这个对话中没有第 6 条消息',
  );
  await refusedAs(
    s.call('chat.switchVersion', { sessionId, turn: 1, which: 'answer', index: 0 }),
    'conflict',
    'there is no message 2 in this conversation',
  );
  await refusedAs(
    s.call('chat.send', { sessionId, text: 'when, again?', edit: 0, keepFiles: [2] }),
    'conflict',
    'message 1 has no file 3 to keep (it has 0)',
  );
  await refusedAs(s.call('chat.send', { sessionId, text: '   ', edit: 0 }), 'conflict', 'the message is empty');
  await refusedLike(
    s.call('chat.setModel', { sessionId, model: 'other-model', provider: 'nope' }),
    'unavailable',
    /^unavailable: "nope" is not a configured provider \(configured: .+\)$/,
  );
  // While a turn runs.
  await s.call('chat.send', { sessionId, text: 'and the next one?' });
  await s.server.streaming(2);
  assert.equal(
    await refusedAs(
      s.call('chat.regenerate', { sessionId, turn: 0 }),
      'conflict',
      'a turn is running in this conversation: stop it first',
    ),
    '这个对话中有一轮正在进行：请先停止它',
  );
  await refusedAs(
    s.call('chat.retry', { sessionId }),
    'conflict',
    'a turn is already running: stop it or wait for it to finish',
  );
  ended = s.next('chat.turnEnd');
  await s.call('chat.stop', { sessionId });
  await ended;
});

test('a conversation, event or version the store does not have is said in words', async (t) => {
  const s = await serviceEnv(t);
  s.server.script({ text: 'Friday.' });
  const ended = s.next('chat.turnEnd');
  const { sessionId } = await s.call('chat.send', { text: 'when is the release?' });
  await ended;
  assert.equal(
    await refusedAs(
      s.call('sessions.open', { id: sessionId, at: 99_999 }),
      'not_found',
      `no event 99999 in conversation ${sessionId}`,
    ),
    `对话 ${sessionId} 中没有事件 99999`,
  );
  assert.equal(
    await refusedAs(
      s.call('chat.switchVersion', { sessionId, turn: 0, which: 'answer', index: 3 }),
      'conflict',
      'there is no version 4 here (there are 1)',
    ),
    '这里没有第 4 个版本（共 1 个）',
  );
  for (const call of [
    () => s.call('sessions.open', { id: 'gone-1234' }),
    () => s.call('sessions.delete', { id: 'gone-1234' }),
    () => s.call('sessions.export', { id: 'gone-1234', format: 'markdown' }),
  ])
    assert.equal(await refusedAs(call(), 'not_found', 'no session "gone-1234"'), '没有会话「gone-1234」');
  const sessions = s.service.workspace!.store!.sessions;
  // The matches are listed most recently used first.
  sessions.create({ id: 'abcd1111-0000', workspace: s.ws, now: 1000 });
  sessions.create({ id: 'abcd2222-0000', workspace: s.ws, now: 2000 });
  await refusedAs(
    s.call('sessions.rename', { id: 'abcd', title: 'plans' }),
    'not_found',
    'session id "abcd" is ambiguous: abcd2222, abcd1111',
  );
});

test('conversations with no database to keep them are said in words', async (t) => {
  // A database a newer Knack wrote: this one refuses to open it, and the workspace opens without one.
  const root = tempDir();
  const dataDir = join(root, 'data');
  mkdirSync(dataDir, { recursive: true });
  const db = new Database(join(dataDir, 'knack.db'));
  db.pragma('user_version = 9999');
  db.close();
  const paths = resolvePaths({ home: join(root, 'home'), dataDir, builtinSkillsDir: join(root, 'none') });
  const s = await serviceEnv(t, { extra: { paths } });
  assert.equal(s.service.workspace!.store, undefined);
  for (const call of [
    () => s.call('sessions.open', { id: 'any-session' }),
    () => s.call('sessions.rename', { id: 'any-session', title: 'plans' }),
  ])
    assert.equal(
      await refusedAs(call(), 'not_found', 'chat sessions need the database, which could not be opened'),
      '对话需要数据库，而数据库无法打开',
    );
  // A new conversation is refused in the same words (one refusal for every way to the store), not failed: the window
  // says them as they are, with no "chat.send failed" around them and no CLI's "warning above".
  assert.equal(
    await refusedAs(
      s.call('chat.send', { text: 'hello' }),
      'unavailable',
      'chat sessions need the database, which could not be opened',
    ),
    '对话需要数据库，而数据库无法打开',
  );
});

/** `p` is refused as unavailable with the key store's own `message`, said behind the words' lead `code`. */
async function keyStoreRefused(p: Promise<unknown>, code: string, message: string, zh: string): Promise<void> {
  await assert.rejects(p, (e: Refused) => {
    assert.equal(e.code, 'unavailable');
    assert.equal(e.message, `unavailable: ${message}`);
    assert.deepEqual(e.words, { code, params: { detail: message } });
    assertSaid(e.words, english(e.words!));
    assert.equal(chinese(e.words!), `${zh}${message}`);
    return true;
  });
}

test("a key store that cannot save or remove a key is said in words, the store's own message kept", async (t) => {
  // The desktop app's key store as it is, given a keychain that offers no encryption (Electron's safeStorage on a
  // Linux desktop with no keyring): it refuses to save a key.
  const locked = safeKeyStore(tempDir(), {
    isEncryptionAvailable: () => false,
    encryptString: () => Buffer.alloc(0),
    decryptString: () => '',
  });
  // Removing a key fails only when the keychain cannot be reached, which cannot be made happen here: this store's
  // removal throws what such a keychain says, and saves as the locked one does.
  const keychain: KeyStore = {
    kind: 'os-keychain',
    get: () => undefined,
    set: (id, key) => locked.set(id, key),
    delete: () => {
      throw new Error('the OS keychain could not be reached');
    },
  };
  const s = await serviceEnv(t, { extra: { keyStore: keychain } });
  await keyStoreRefused(
    s.call('settings.setKey', { preset: 'deepseek', key: 'sk-deepseek-0123456789' }),
    'keys.cannotSave',
    'the OS keychain is not available, so the key cannot be stored encrypted',
    '无法保存密钥：',
  );
  await keyStoreRefused(
    s.call('settings.clearKey', { preset: 'deepseek' }),
    'keys.cannotClear',
    'the OS keychain could not be reached',
    '无法删除密钥：',
  );
});

test('providers.json that cannot be written when a key is saved or removed is said in words', async (t) => {
  const s = await serviceEnv(t);
  // The file key store writes providers.json beside a temporary file in the data folder: a folder no one may add a
  // file to (read-only for a user; immutable for root, whom permissions do not stop) makes every write fail.
  const dir = s.paths.dataDir;
  const root = process.getuid?.() === 0;
  if (root) {
    const made = spawnSync('chattr', ['+i', dir]);
    if (made.status !== 0) return t.skip(`chattr +i is not available here: ${String(made.stderr).trim()}`);
  } else chmodSync(dir, 0o500);
  // Writable again before the test's clean-up removes the folder.
  const undo = () => (root ? spawnSync('chattr', ['-i', dir]) : chmodSync(dir, 0o700));
  try {
    assert.throws(() => writeFileSync(join(dir, 'probe'), ''), 'the data folder is still writable');
    for (const [call, code, zh] of [
      [
        () => s.call('settings.setKey', { preset: 'deepseek', key: 'sk-deepseek-0123456789' }),
        'keys.cannotSave',
        '无法保存密钥：',
      ],
      [() => s.call('settings.clearKey', { preset: 'deepseek' }), 'keys.cannotClear', '无法删除密钥：'],
    ] as const) {
      await assert.rejects(call(), (e: Refused) => {
        assert.equal(e.code, 'unavailable');
        const detail = e.message.slice('unavailable: '.length);
        assert.match(detail, /^(EPERM|EACCES): .*providers\.json/);
        assert.deepEqual(e.words, { code, params: { detail } });
        assert.equal(chinese(e.words!), `${zh}${detail}`);
        return true;
      });
    }
  } finally {
    undo();
  }
});

test('a damaged or unreadable record of trusted MCP servers is refused in its own words', async (t) => {
  const s = await serviceEnv(t, {
    files: {
      '.workbuddy/mcp.json': JSON.stringify({ mcpServers: { docs: { command: 'node' }, wiki: { command: 'node' } } }),
    },
  });
  // The record damaged: removing a workspace's server cannot forget its trust, and the window says why.
  const trust = join(s.paths.dataDir, 'mcp-trust.json');
  writeFileSync(trust, '[1]');
  await assert.rejects(s.call('mcp.remove', { scope: 'project', name: 'docs' }), (e: Refused) => {
    assert.equal(e.code, 'refused');
    const why = `${trust}: not a JSON object; it is left as it is: move it aside to trust servers again`;
    assert.equal(e.message, `refused: ${why}`);
    assert.deepEqual(e.words, { code: 'mcp.trustDamaged', params: { file: trust } });
    assertSaid(e.words, why);
    assert.equal(chinese(e.words!), `${trust}：不是 JSON 对象；已保持原样不动：把它移到别处才能再信任服务器`);
    return true;
  });
  // The record a folder: it cannot be read, and the window says so with the system's reason.
  rmSync(trust);
  mkdirSync(trust);
  await assert.rejects(s.call('mcp.remove', { scope: 'project', name: 'wiki' }), (e: Refused) => {
    assert.equal(e.code, 'refused');
    const error = e.message.slice(`refused: ${trust}: cannot be read: `.length);
    assert.ok(error, e.message);
    assert.deepEqual(e.words, { code: 'mcp.trustUnreadable', params: { file: trust, error } });
    assertSaid(e.words, e.message.slice('refused: '.length));
    assert.equal(chinese(e.words!), `${trust}：无法读取：${error}`);
    return true;
  });
  // Neither server left the folder's file.
  assert.deepEqual(Object.keys(JSON.parse(readFileSync(join(s.ws, '.workbuddy/mcp.json'), 'utf8')).mcpServers), [
    'docs',
    'wiki',
  ]);
});

test('a marketplace.json URL given a ref or a path is refused in its own words', async (t) => {
  const s = await serviceEnv(t);
  for (const source of ['https://127.0.0.1:9/marketplace.json#main', 'https://127.0.0.1:9/marketplace.json:skills']) {
    const zh = await refusedAs(
      s.call('sources.open', { source }),
      'refused',
      `${source}: a marketplace.json URL takes no #ref or :path`,
    );
    assert.equal(zh, `${source}：marketplace.json 地址不接受 #ref 或 :path`);
  }
});

test('an edit with no conversation, or files kept with no edit, is refused in words', async (t) => {
  const s = await serviceEnv(t);
  await refusedAs(
    s.call('chat.send', { text: 'shorter', edit: 0 }),
    'invalid_input',
    'an edit needs the conversation it edits (sessionId)',
  );
  await refusedAs(
    s.call('chat.send', { text: 'shorter', keepFiles: [0] }),
    'invalid_input',
    'keepFiles names files of the message an edit changes (edit)',
  );
});

test("a conversation's request that fails with no words of its own is said behind words naming it", async (t) => {
  const s = await serviceEnv(t);
  s.service.workspace!.store!.sessions.create({ id: 'plans-0000', workspace: s.ws });
  s.service.workspace!.store!.close();
  for (const [method, call] of [
    ['sessions.rename', () => s.call('sessions.rename', { id: 'plans-0000', title: 'plans' })],
    ['sessions.open', () => s.call('sessions.open', { id: 'plans-0000' })],
    ['sessions.delete', () => s.call('sessions.delete', { id: 'plans-0000' })],
  ] as const) {
    await assert.rejects(call(), (e: Refused) => {
      assert.equal(e.code, 'internal');
      const detail = e.message.slice(`internal: ${method} failed: `.length);
      assert.match(detail, /database connection is not open/);
      assert.deepEqual(e.words, { code: 'service.failed', params: { method, detail } });
      assert.equal(chinese(e.words!), `${method} 失败：${detail}`);
      return true;
    });
  }
});
