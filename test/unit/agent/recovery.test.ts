import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { agentEnv, recorder } from '../../helpers/agent-env.js';
import { Store } from '../../../main/core/store/index.js';

const child = join(import.meta.dirname, '..', '..', 'helpers', 'chat-child.ts');

/**
 * Run a chat turn in a real child process and kill -9 it when it shows the event type `killWhen`. With `stopThere`
 * the child freezes at that event, so on a busy machine it cannot run on (to the next tool call) before the signal
 * lands; without it, the kill lands wherever the child has got to (mid-stream, perhaps mid-commit).
 */
async function crashDuring(
  env: Awaited<ReturnType<typeof agentEnv>>,
  message: string,
  killWhen: string,
  stopThere = true,
): Promise<string> {
  const p = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      child,
      env.home,
      env.dataDir,
      env.workspace,
      env.server.url,
      message,
      ...(stopThere ? [killWhen] : []),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  p.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  let id = '';
  const lines = createInterface({ input: p.stdout });
  await new Promise<void>((resolve, reject) => {
    p.on('exit', (code) => reject(new Error(`child exited early (${code}): ${stderr}`)));
    lines.on('line', (l) => {
      if (l.startsWith('SESSION ')) id = l.slice(8);
      if (l === `EVENT ${killWhen}`) {
        p.removeAllListeners('exit');
        p.kill('SIGKILL');
        resolve();
      }
    });
  });
  await new Promise((r) => p.once('exit', r));
  return id;
}

test('kill -9 mid-stream: the database is intact and the session reopens with the conversation, its skills and the partial answer marked interrupted', async () => {
  const env = await agentEnv();
  env.server.script({ chunks: ['第一部分，', '第二部分', '……'], hang: true, chunkDelayMs: 20 });
  const id = await crashDuring(env, '帮我提交代码', 'text_delta', false);
  const check = Store.openIn(env.dataDir);
  assert.equal(check.integrityCheck(), 'ok');
  check.close();

  const chat = env.agent.openSession(id);
  const msgs = chat.messages();
  assert.equal(msgs[0]!.role, 'user');
  assert.equal(msgs[0]!.role === 'user' && msgs[0]!.text, '帮我提交代码');
  const a = msgs[1]!;
  assert.equal(a.role, 'assistant');
  assert.ok(a.role === 'assistant' && a.interrupted === true);
  assert.ok(a.role === 'assistant' && a.text.startsWith('第一部分'), 'the half-streamed text is kept');
  assert.deepEqual(
    chat.loadedSkills().map((s) => s.name),
    ['git-commit'],
  );
  const rec = chat.events().find((e) => e.type === 'recovered');
  assert.ok(rec && rec.type === 'recovered' && rec.interruptedAnswer);
  // The conversation goes on, with the interrupted answer marked in what the model reads.
  env.server.script({ text: '继续。' });
  const r = await chat.send('继续');
  assert.equal(r.text, '继续。');
  const sent = env.server.requests.at(-1)!.body.messages as {
    role: string;
    content: { type: string; text?: string }[];
  }[];
  assert.match(sent[1]!.content[0]!.text ?? '', /\[interrupted\]/);
});

test('kill -9 while an approval is pending: reopening asks again, and the answer resumes the turn', async () => {
  const env = await agentEnv();
  env.server.script({
    text: 'Writing it.',
    toolCalls: [{ id: 'w1', name: 'write_file', input: { path: 'out.txt', content: 'saved' } }],
  });
  const id = await crashDuring(env, 'write out.txt', 'approval_requested');
  const check = Store.openIn(env.dataDir);
  assert.equal(check.integrityCheck(), 'ok');
  check.close();

  const chat = env.agent.openSession(id.slice(0, 8));
  const evs = recorder(chat);
  const pending = chat.pendingApprovals();
  assert.equal(pending.length, 1);
  assert.equal(pending[0]!.tool, 'write_file');
  env.server.script({ text: 'Written.' });
  assert.ok(chat.answer(pending[0]!.approvalId, { kind: 'once' }));
  const r = await chat.idle();
  assert.equal(r?.reason, 'end_turn');
  assert.equal(readFileSync(join(env.workspace, 'out.txt'), 'utf8'), 'saved');
  assert.ok(evs.some((e) => e.type === 'tool_result' && e.ok));
  assert.equal(chat.pendingApprovals().length, 0);
});

test('kill -9 while a tool call had no answer yet: reopening closes the call as interrupted instead of running it again', async () => {
  const env = await agentEnv();
  // The second call never gets its result: the child is killed as soon as the first result is committed.
  env.server.script({
    toolCalls: [
      { id: 'l1', name: 'list_dir', input: { path: '.' } },
      { id: 'l2', name: 'write_file', input: { path: 'never.txt', content: 'x' } },
    ],
  });
  const id = await crashDuring(env, 'list then write', 'tool_result');
  const chat = env.agent.openSession(id);
  const results = chat.events().filter((e) => e.type === 'tool_result');
  assert.ok(results.length >= 2);
  const last = results.at(-1)!;
  assert.ok(last.type === 'tool_result' && !last.ok && last.code === 'tool.interrupted');
  assert.equal(existsSync(join(env.workspace, 'never.txt')), false);
});

test('a new message instead of answering a re-asked approval: the old call is closed as not run and the conversation stays valid', async () => {
  const env = await agentEnv();
  env.server.script({ toolCalls: [{ id: 'w9', name: 'write_file', input: { path: 'skipped.txt', content: 'x' } }] });
  const id = await crashDuring(env, 'write skipped.txt', 'approval_requested');
  const chat = env.agent.openSession(id);
  assert.equal(chat.pendingApprovals().length, 1);
  env.server.script({ text: 'Something else, then.' });
  const r = await chat.send('forget that, do something else');
  assert.equal(r.text, 'Something else, then.');
  assert.equal(chat.pendingApprovals().length, 0);
  assert.equal(existsSync(join(env.workspace, 'skipped.txt')), false);
  const msgs = env.server.requests.at(-1)!.body.messages as {
    role: string;
    content: { type: string; tool_use_id?: string }[];
  }[];
  const results = msgs.flatMap((m) => m.content).filter((b) => b.type === 'tool_result');
  assert.deepEqual(
    results.map((b) => b.tool_use_id),
    ['w9'],
  );
});
