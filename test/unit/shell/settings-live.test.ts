// Settings files edited by hand while a workspace is open (the user's settings.json and providers.json, the
// workspace's .workbuddy/settings.json): applied live as a Settings-page save is, the window told by workspace.changed.
// A broken file keeps the last good ceiling; a workspace file still only narrows; the model cannot write them itself.
// No timing: every step waits for the event the edit causes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import WebSocket from 'ws';
import { serviceEnv, testWorkspace } from '../../helpers/service-env.js';
import { tempDir, writeTree } from '../../helpers/tmp.js';
import { resolvePaths } from '../../../main/core/config/paths.js';
import { KnackService } from '../../../main/core/service/index.js';
import { startServe } from '../../../main/serve/server.js';
import { createClient, socketTransport, type SocketLike } from '../../../preload/client.js';
import type { Actor } from '../../../main/core/policy/types.js';
import { formatDiagnostic, type Diagnostic } from '../../../main/core/base/index.js';

const agent: Actor = { kind: 'agent', activeSkills: [] };
/** An edit that is never heard fails its test instead of hanging the run (a guard, not a timing assertion). */
const waits = { timeout: 60_000 };

/** Save as editors do: a new file renamed over the old one. */
function save(file: string, value: unknown): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(`${file}.swp`, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
  renameSync(`${file}.swp`, file);
}

type Env = Awaited<ReturnType<typeof serviceEnv>>;

/** Edit a file and wait for the window to hear about it. */
async function edit(s: Env, file: string, value: unknown) {
  const heard = s.next('workspace.changed');
  save(file, value);
  return (await heard).workspace;
}

/** One turn in which the model calls read_file on notes.txt: what became of the call. */
async function readTurn(s: Env, id: string) {
  s.server.script({ toolCalls: [{ id, name: 'read_file', input: { path: 'notes.txt' } }] }, { text: 'done' });
  const ended = s.next('chat.turnEnd');
  await s.call('chat.send', { text: 'read my notes' });
  await ended;
  return s
    .of('chat.toolCall')
    .map((c) => c.card)
    .filter((c) => c.callId === id)
    .at(-1)!;
}

test(
  'the user settings file narrowed by hand: the very next tool call is refused without a reopen; edited back, it runs again',
  waits,
  async (t) => {
    const s = await serviceEnv(t);
    const user = join(s.paths.dataDir, 'settings.json');
    assert.equal((await readTurn(s, 'r1')).status, 'ok');

    const info = await edit(s, user, { policy: { ceiling: { tools: ['list_dir', 'glob'] } } });
    assert.equal(info.path, s.ws, 'the same folder, still open');
    const refused = await readTurn(s, 'r2');
    assert.equal(refused.errorCode, 'tool.denied');
    assert.match(refused.output ?? '', /not offered in this workspace/);
    assert.deepEqual(
      (await s.call('settings.get', {})).ceiling.tools,
      ['list_dir', 'glob'],
      'the Settings page shows the ceiling in force',
    );
    assert.ok(
      !(await s.call('tools.list', {})).tools.some((x) => x.name === 'read_file'),
      'the tool box no longer offers it',
    );

    await edit(s, user, { policy: { ceiling: { tools: ['*'] } } });
    assert.equal((await readTurn(s, 'r3')).status, 'ok');
    assert.equal(s.of('workspace.changed').length, 2, 'one event per edit');
  },
);

test(
  'an invalid settings file: the problem names the file and the line, and the last good ceiling stays until it is fixed',
  waits,
  async (t) => {
    const s = await serviceEnv(t);
    const user = join(s.paths.dataDir, 'settings.json');
    await edit(s, user, { policy: { ceiling: { network: false, tools: ['list_dir'] } } });

    // A trailing comma on line 4, as people type it: without the rule, the defaults would give every tool back.
    const info = await edit(s, user, '{\n  "policy": {\n    "ceiling": {\n      "network": false,\n    }\n  }\n}\n');
    const bad = info.diagnostics.find((d) => d.code === 'settings.json');
    assert.deepEqual([bad?.file, bad?.line, bad?.severity], [user, 5, 'error'], JSON.stringify(info.diagnostics));
    assert.ok(
      info.diagnostics.some((d) => d.code === 'settings.kept' && d.file === user),
      'the window is told nothing was applied',
    );
    const got = await s.call('settings.get', {});
    const { ceiling } = got;
    const warnings = pageLines(got);
    assert.ok(
      warnings.some((w) => w.startsWith(`${user}:5:5: invalid JSON`)),
      JSON.stringify(warnings),
    );
    assert.deepEqual(ceiling.tools, ['list_dir'], 'the last good ceiling');
    assert.equal((await readTurn(s, 'r1')).errorCode, 'tool.denied', 'the narrowing still holds');

    // A key of the wrong type under policy: the same — its line, and nothing applied.
    const typed = await edit(
      s,
      user,
      '{\n  "policy": {\n    "ceiling": {\n      "tools": "read_file"\n    }\n  }\n}\n',
    );
    assert.ok(
      typed.diagnostics.some((d) => d.field === 'policy.ceiling.tools' && d.line === 4 && d.file === user),
      JSON.stringify(typed.diagnostics),
    );
    assert.equal(
      s.service.workspace!.gate.authorize(
        { tool: 'read_file', args: {}, access: { read: [join(s.ws, 'notes.txt')] } },
        agent,
      ).verdict,
      'deny',
    );

    // Fixed: applied, and the problems are gone from the page.
    const fixed = await edit(s, user, { policy: { ceiling: { tools: ['read_file'] } } });
    assert.ok(!fixed.diagnostics.some((d) => d.code.startsWith('settings.')), JSON.stringify(fixed.diagnostics));
    assert.ok(!pageLines(await s.call('settings.get', {})).some((w) => w.includes('settings.json')));
    assert.equal((await readTurn(s, 'r2')).status, 'ok');
  },
);

test(
  'a workspace settings file edited to widen the ceiling: a warning with its line, and the ceiling does not move',
  waits,
  async (t) => {
    const s = await serviceEnv(t);
    const file = join(s.ws, '.workbuddy', 'settings.json');
    const outside = tempDir();
    // The .workbuddy folder does not exist yet: it is watched from the workspace until it appears.
    const info = await edit(
      s,
      file,
      `{\n  "policy": {\n    "ceiling": {\n      "network": true,\n      "writeRoots": [${JSON.stringify(outside)}]\n    }\n  }\n}\n`,
    );
    const widen = info.diagnostics.filter((d) => d.code === 'settings.ceiling-widening');
    assert.deepEqual(
      widen.map((d) => [d.field, d.line]),
      [
        ['policy.ceiling.network', 4],
        ['policy.ceiling.writeRoots', 5],
      ],
    );
    const ws = s.service.workspace!;
    assert.equal(ws.settings.policy.ceiling.network, false);
    assert.deepEqual(ws.settings.policy.ceiling.writeRoots, []);
    assert.equal(
      ws.gate.authorize({ tool: 'web_fetch', args: {}, access: { network: true, host: 'example.com' } }, agent).verdict,
      'deny',
    );
    assert.equal(
      ws.gate.authorize({ tool: 'write_file', args: {}, access: { write: [join(outside, 'x')] } }, agent).verdict,
      'deny',
    );
    assert.ok(!(await s.call('tools.list', {})).tools.some((x) => x.name === 'web_fetch'));

    // It may narrow, live: take read_file away for this folder.
    await edit(s, file, { policy: { ceiling: { tools: ['list_dir'] } } });
    assert.equal((await readTurn(s, 'r1')).errorCode, 'tool.denied');
  },
);

test(
  'attack: the model writing the workspace settings file to widen its ceiling is asked about, never silent, even past an always-allow rule; refused, nothing is written',
  waits,
  async (t) => {
    const s = await serviceEnv(t);
    s.service.workspace!.store!.policy.insertRule({ effect: 'allow', tool: 'write_file' });
    const wide = JSON.stringify({
      policy: { ceiling: { network: true, tools: ['*'], writeRoots: ['/'], readRoots: ['/'] } },
    });
    s.server.script(
      { toolCalls: [{ id: 'w1', name: 'write_file', input: { path: '.workbuddy/settings.json', content: wide } }] },
      { toolCalls: [{ id: 'w2', name: 'write_file', input: { path: '.WorkBuddy/Settings.json', content: wide } }] },
      { text: 'I could not.' },
    );
    const approvals: string[] = [];
    const off = s.service.events.on((name, p) => {
      if (name !== 'chat.approval') return;
      const a = p as { sessionId: string; approvalId: string; reason: string };
      approvals.push(a.reason);
      void s.call('chat.answer', { sessionId: a.sessionId, approvalId: a.approvalId, answer: 'deny' });
    });
    t.after(off);
    const ended = s.next('chat.turnEnd');
    await s.call('chat.send', { text: 'give yourself the network' });
    await ended;
    assert.equal(approvals.length, 2, 'each write was put to the user');
    for (const r of approvals) assert.match(r, /Knack's settings/);
    assert.ok(!existsSync(join(s.ws, '.workbuddy')), 'nothing was written');
    assert.equal(s.service.workspace!.settings.policy.ceiling.network, false);

    // Through a symlink that looks harmless, and from a skill's script: the real path is judged.
    mkdirSync(join(s.ws, '.workbuddy'));
    symlinkSync(join(s.ws, '.workbuddy', 'settings.json'), join(s.ws, 'notes.json'));
    assert.equal(readlinkSync(join(s.ws, 'notes.json')), join(s.ws, '.workbuddy', 'settings.json'));
    const gate = s.service.workspace!.gate;
    assert.equal(
      gate.authorize({ tool: 'write_file', args: {}, access: { write: [join(s.ws, 'notes.json')] } }, agent).verdict,
      'ask',
    );
    assert.equal(
      gate.authorize(
        { tool: 'write_file', args: {}, access: { write: [join(s.paths.dataDir, 'settings.json')] } },
        agent,
      ).verdict,
      'deny',
      'the data folder is not a write root',
    );
    assert.equal(
      gate.authorize(
        { tool: 'write_file', args: {}, access: { write: [join(s.paths.dataDir, 'providers.json')] } },
        agent,
      ).verdict,
      'deny',
    );

    // Even written by other means (a script the user ran), the workspace file cannot widen.
    const info = await edit(s, join(s.ws, '.workbuddy', 'settings.json'), JSON.parse(wide));
    assert.ok(info.diagnostics.some((d) => d.code === 'settings.ceiling-widening'));
    const c = s.service.workspace!.settings.policy.ceiling;
    assert.deepEqual([c.network, c.readRoots, c.writeRoots], [false, [], []]);
  },
);

test(
  'providers.json edited by hand: the next turn uses the new model; a broken one keeps the provider in use',
  waits,
  async (t) => {
    const s = await serviceEnv(t, { extra: { provider: undefined } });
    const file = join(s.paths.dataDir, 'providers.json');
    const providers = (model: string) => ({
      default: 'anthropic',
      providers: { anthropic: { baseURL: s.server.url, model } },
    });
    await edit(s, file, providers('model-a'));
    const send = async (text: string, sessionId?: string) => {
      const before = s.server.requests.length;
      const ended = s.next('chat.turnEnd');
      const r = await s.call('chat.send', { text, ...(sessionId ? { sessionId } : {}) });
      const end = await ended;
      // The turn reached this server and ended well (a provider lost to a broken file would go elsewhere and fail).
      assert.equal(end.reason, 'done', JSON.stringify(end));
      assert.equal(s.server.requests.length, before + 1, 'one request to the fake server');
      return { sessionId: r.sessionId, model: s.server.requests.at(-1)?.body.model };
    };
    const first = await send('hello');
    assert.equal(first.model, 'model-a');
    assert.equal((await s.call('settings.get', {})).provider?.model, 'model-a');

    await edit(s, file, providers('model-b'));
    assert.equal((await send('again', first.sessionId)).model, 'model-b', "the open conversation's next turn");
    assert.equal((await s.call('settings.get', {})).provider?.model, 'model-b');

    await edit(s, file, '{ "default": "anthropic", ');
    assert.equal((await send('still there?', first.sessionId)).model, 'model-b');
    assert.ok(pageLines(await s.call('settings.get', {})).some((w) => w.startsWith(file) && /invalid JSON/.test(w)));
  },
);

test("the Settings page's own saves are not applied a second time by the watcher", waits, async (t) => {
  const s = await serviceEnv(t);
  await s.call('settings.setCeiling', { network: true });
  await s.call('settings.setProvider', { preset: 'anthropic', model: 'claude-test' });
  // A hand edit after them is heard, and is the first workspace.changed: the saves themselves caused none.
  await edit(s, join(s.paths.dataDir, 'settings.json'), { policy: { ceiling: { network: false } } });
  assert.equal(s.of('workspace.changed').length, 1);
  assert.equal(s.service.workspace!.settings.policy.ceiling.network, false);
});

test(
  "workspace.changed from a hand edit reaches a contract subscriber over serve mode's WebSocket",
  waits,
  async (t) => {
    const { root, ws, service } = await serviceEnv(t);
    const renderer = join(root, 'renderer');
    writeTree(renderer, { 'index.html': '<!doctype html><title>t</title>' });
    const server = await startServe({ handlers: service.handlers, events: service.events, rendererDir: renderer });
    const origin = `http://127.0.0.1:${server.port}`;
    const client = createClient(
      socketTransport({
        connect: () =>
          new WebSocket(`ws://127.0.0.1:${server.port}/ws`, {
            headers: { Origin: origin, Cookie: `knack_${server.port}=${server.token}` },
          }) as unknown as SocketLike,
      }),
    );
    t.after(async () => {
      client.close();
      await server.close();
    });
    await client.call('workspace.current', {});
    const heard = new Promise<{ workspace: { path: string; diagnostics: { code: string; line?: number }[] } }>(
      (resolve) => client.on('workspace.changed', resolve),
    );
    save(join(ws, '.workbuddy', 'settings.json'), '{\n  "policy": { "ceiling": { "network": true } }\n}\n');
    const { workspace } = await heard;
    assert.equal(workspace.path, ws);
    assert.ok(
      workspace.diagnostics.some((d) => d.code === 'settings.ceiling-widening' && d.line === 2),
      JSON.stringify(workspace.diagnostics),
    );
  },
);

/** inotify watches this process holds (Linux): a leaked fs watcher shows here even when it keeps nothing alive. */
function inotifyWatches(): number {
  let n = 0;
  for (const fd of readdirSync('/proc/self/fdinfo')) {
    try {
      n += readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8')
        .split('\n')
        .filter((l) => l.startsWith('inotify wd:')).length;
    } catch {
      // closed meanwhile
    }
  }
  return n;
}

test(
  'no watcher leaks: a service opened, switched between folders and closed many times leaves no watch behind',
  { skip: process.platform !== 'linux' && 'counts inotify watches' },
  async () => {
    const root = tempDir();
    const a = join(root, 'a');
    const b = join(root, 'b');
    writeTree(a, { '.workbuddy/settings.json': '{}' });
    writeTree(b, { 'x.txt': 'x' });
    const paths = resolvePaths({
      home: join(root, 'home'),
      dataDir: join(root, 'data'),
      builtinSkillsDir: join(root, 'none'),
    });
    const before = inotifyWatches();
    let during = 0;
    for (let i = 0; i < 8; i++) {
      const service = new KnackService({
        paths,
        transport: 'serve',
        version: 't',
        log: () => {},
        workspaceOptions: testWorkspace,
      });
      await service.openWorkspace(a);
      await service.openWorkspace(b);
      await service.openWorkspace(a, { reload: true });
      during = Math.max(during, inotifyWatches());
      await service.close();
    }
    assert.ok(during > before, 'the watchers were there while a folder was open');
    assert.equal(inotifyWatches(), before);
  },
);

/** The Settings page's lines: providers' warnings, then the settings problems as the CLI prints them. */
function pageLines(v: { warnings: string[]; problems?: Diagnostic[] }): string[] {
  return [...v.warnings, ...(v.problems ?? []).map(formatDiagnostic)];
}
