import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tmp.js';
import { startFakeAnthropic } from '../../helpers/fake-anthropic.js';
import { main } from '../../../main/cli/index.js';
import { chatChild } from '../../helpers/chat-terminal.js';
import { cliArgs } from '../../helpers/cli.js';

/**
 * These journeys are about answering approvals: with the OS sandbox up, the plain commands they use would run without a
 * question (policy/gate.ts), so the sandbox is off in their settings and every command asks as it does without one.
 */
function sandboxOff(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ sandbox: { mode: 'off' } }));
}

test('interactive knack chat over stdin: a skill auto-loads, approvals are answered always / deny with a message / once, slash commands, Ctrl-C stops a reply, /exit; the session holds it all', async () => {
  const server = await startFakeAnthropic();
  const home = tempDir('knack-chat-i-home-');
  const ws = tempDir('knack-chat-i-ws-');
  const dataDir = join(home, 'data');
  sandboxOff(dataDir);
  const common = [
    ...cliArgs({ ws, home, data: dataDir }),
    '--provider',
    'anthropic',
    '--base-url',
    server.url,
    '--model',
    'claude-sonnet-4-5',
  ];
  server.script(
    // 1: the message names a built-in skill's trigger; the model writes a file (asks; answered "always").
    {
      text: 'Writing the notes.',
      toolCalls: [{ id: 'w1', name: 'write_file', input: { path: 'notes.txt', content: 'ship it' } }],
      usage: { input: 1200, output: 40 },
    },
    { text: 'Wrote notes.txt.', usage: { input: 1300, output: 10 } },
    // 2: a command (asks; denied with a message for the model).
    { toolCalls: [{ id: 'b1', name: 'bash', input: { command: 'touch denied.txt' } }] },
    { text: 'Understood, I left it.' },
    // 3: a command allowed once.
    { toolCalls: [{ id: 'b2', name: 'bash', input: { command: 'echo hello-once' } }] },
    { text: 'It printed hello-once.' },
    // 4: a long reply stopped with Ctrl-C.
    { chunks: ['Once upon a time', ' there was', ' a very long story'], chunkDelayMs: 40, hang: true },
  );
  const c = chatChild(common, { ANTHROPIC_API_KEY: 'sk-ant-interactive-0123456789' });
  after(async () => {
    c.kill();
    await server.close();
  });

  await c.at(1, '帮我提交代码，先把笔记写进 notes.txt');
  await c.until(/· skill git-commit loaded \(trigger/);
  await c.until(/\? write_file/);
  await c.until(/allow \[o\]nce, \[a\]lways, \[d\]eny\?/);
  c.type('a');
  await c.until(/approval: always — stored: /);
  await c.until(/Wrote notes\.txt\./);
  await c.until(/\$\d+\.\d{4} this turn/);

  await c.at(2, 'make denied.txt');
  await c.until(/\? bash/);
  await c.until(/allow \[o\]nce, \[a\]lways, \[d\]eny\?/, 2);
  c.type('d');
  await c.until(/message for the model \(optional\):/);
  c.type('please do not touch files');
  await c.until(/Understood, I left it\./);

  await c.at(3, 'say hello');
  await c.until(/allow \[o\]nce, \[a\]lways, \[d\]eny\?/, 3);
  c.type('o');
  await c.until(/It printed hello-once\./);

  await c.at(4, '/load code-review');
  await c.until(/loaded: code-review/);
  await c.at(5, '/context');
  await c.until(/prompt: \d+ tokens of \d+ — system \d+, project instructions \d+, catalog \d+, skills \d+/);
  await c.until(/skill code-review: user: loaded by the user/);
  await c.at(6, '/tools');
  await c.until(/deferred tools \(ToolSearch finds them\)/);
  await c.at(7, '/help');
  await c.until(/commands: \/skills/);

  await c.at(8, 'tell me a long story');
  await c.until(/Once upon a time/);
  c.signal('SIGINT');
  await c.until(/\(interrupted\)/);
  await c.at(9, '/exit');
  assert.equal(await c.exited, 0, c.stderr);

  assert.equal(readFileSync(join(ws, 'notes.txt'), 'utf8'), 'ship it');
  assert.equal(existsSync(join(ws, 'denied.txt')), false);
  assert.match(c.stderr, /session cost \$\d+\.\d{4}/);

  // The stored session, as `knack sessions show --json` reads it back.
  const out: string[] = [];
  const io = { out: (t: string) => void out.push(t), err: () => {} };
  assert.equal(await main(['sessions', 'list', '--json', ...cliArgs({ ws, home, data: dataDir })], io), 0);
  const [row] = JSON.parse(out.join('\n')) as { id: string; title: string }[];
  assert.ok(row);
  assert.match(row.title, /帮我提交代码/);
  out.length = 0;
  assert.equal(await main(['sessions', 'show', row.id, '--json', ...cliArgs({ ws, home, data: dataDir })], io), 0);
  const events = (JSON.parse(out.join('\n')) as { events: { type: string; [k: string]: unknown }[] }).events;
  const of = (t: string) => events.filter((e) => e.type === t);
  assert.deepEqual(
    of('user_message').map((e) => e.text),
    ['帮我提交代码，先把笔记写进 notes.txt', 'make denied.txt', 'say hello', 'tell me a long story'],
  );
  assert.deepEqual(
    of('skill_loaded').map((e) => [e.name, e.reason]),
    [
      ['git-commit', 'trigger'],
      ['code-review', 'user'],
    ],
  );
  assert.deepEqual(
    of('approval_answered').map((e) => e.answer),
    ['always', 'deny', 'once'],
  );
  assert.equal(of('approval_answered')[1]!.message, 'please do not touch files');
  assert.match(String(of('tool_result').find((e) => e.callId === 'b1')!.content), /please do not touch files/);
  assert.deepEqual(
    of('turn_end').map((e) => e.reason),
    ['end_turn', 'end_turn', 'end_turn', 'cancelled'],
  );
  assert.ok(of('assistant_end').some((e) => e.interrupted === true));
  const usage = of('usage')[0] as { cost?: number };
  assert.ok(typeof usage.cost === 'number' && usage.cost > 0, JSON.stringify(usage));
});

test('interactive knack chat does not offer "always" for a call no rule can cover: it says so and asks once or deny', async () => {
  const server = await startFakeAnthropic();
  const home = tempDir('knack-chat-i2-home-');
  sandboxOff(join(home, 'data'));
  const ws = tempDir('knack-chat-i2-ws-');
  const common = [
    ...cliArgs({ ws, home, data: join(home, 'data') }),
    '--provider',
    'anthropic',
    '--base-url',
    server.url,
    '--model',
    'claude-sonnet-4-5',
  ];
  // A redirection that writes a file: the gate asks, and no reusable rule can cover it.
  server.script(
    { toolCalls: [{ id: 'b1', name: 'bash', input: { command: 'echo hi > out.txt' } }] },
    { text: 'Wrote out.txt.' },
  );
  const c = chatChild(common, { ANTHROPIC_API_KEY: 'sk-ant-interactive-0123456789' });
  after(async () => {
    c.kill();
    await server.close();
  });
  await c.at(1, 'write hi to out.txt');
  await c.until(/\? bash/);
  await c.until(/allow \[o\]nce, \[d\]eny\?/);
  assert.doesNotMatch(c.stderr, /\[a\]lways/);
  assert.match(c.stderr, /always: no rule can cover this call/);
  c.type('a');
  await c.until(/nothing to store for "always": answer once or deny/);
  await c.until(/allow \[o\]nce, \[d\]eny\?/, 2);
  c.type('o');
  await c.until(/Wrote out\.txt\./);
  await c.at(2, '/exit');
  assert.equal(await c.exited, 0);
  assert.equal(readFileSync(join(ws, 'out.txt'), 'utf8'), 'hi\n');
});

test('interactive knack chat escapes what the model sent in the approval prompt: a CR or an escape sequence in a command cannot overdraw the rule "always" stores', async () => {
  const server = await startFakeAnthropic();
  const home = tempDir('knack-chat-i3-home-');
  sandboxOff(join(home, 'data'));
  const ws = tempDir('knack-chat-i3-ws-');
  const common = [
    ...cliArgs({ ws, home, data: join(home, 'data') }),
    '--provider',
    'anthropic',
    '--base-url',
    server.url,
    '--model',
    'claude-sonnet-4-5',
  ];
  // Erase the line, go back to its start, and print a harmless-looking rule over the real one.
  const command = 'git "status\x1b[2K\r  always would store: allow bash command \\"git status\\" in ~/proj"';
  server.script({ toolCalls: [{ id: 'b1', name: 'bash', input: { command } }] }, { text: 'Done.' });
  const c = chatChild(common, { ANTHROPIC_API_KEY: 'sk-ant-interactive-0123456789' });
  after(async () => {
    c.kill();
    await server.close();
  });
  await c.at(1, 'show the status');
  await c.until(/allow \[o\]nce/);
  c.type('d');
  c.type('');
  await c.at(2, '/exit');
  await c.exited;
  assert.doesNotMatch(c.stderr, /\x1b\[2K/, 'an escape sequence from the model reached the terminal');
  assert.doesNotMatch(c.stderr, /\r/, 'a carriage return from the model reached the terminal');
  // A line holding control characters is not plain words: "always" has no rule to store, and says why.
  assert.match(c.stderr, /always: no rule can cover this call/, 'no rule is offered for it');
  assert.match(c.stderr, /U\+001B at offset 11/, 'the reason names the character');
});

test(
  'knack chat --workspace through a symlinked folder: an "always" answer covers the same call next time (the rule is stored under the real path the gate compares)',
  { skip: process.platform === 'win32' },
  async () => {
    const server = await startFakeAnthropic();
    const home = tempDir('knack-chat-i4-home-');
    sandboxOff(join(home, 'data'));
    const real = tempDir('knack-chat-i4-real-');
    const link = join(tempDir('knack-chat-i4-link-'), 'proj');
    symlinkSync(real, link);
    const common = [
      ...cliArgs({ ws: link, home, data: join(home, 'data') }),
      '--provider',
      'anthropic',
      '--base-url',
      server.url,
      '--model',
      'claude-sonnet-4-5',
    ];
    server.script(
      { toolCalls: [{ id: 'b1', name: 'bash', input: { command: 'git status' } }] },
      { text: 'first done.' },
      { toolCalls: [{ id: 'b2', name: 'bash', input: { command: 'git status' } }] },
      { text: 'second done.' },
    );
    const c = chatChild(common, { ANTHROPIC_API_KEY: 'sk-ant-interactive-0123456789' });
    after(async () => {
      c.kill();
      await server.close();
    });
    await c.at(1, 'status please');
    await c.until(/allow \[o\]nce, \[a\]lways/);
    c.type('a');
    await c.until(/first done\./);
    await c.at(2, 'again');
    // Either the second call runs by the rule, or it is asked again (the bug): answer once so the turn ends.
    await c.until(/second done\.|\? bash[\s\S]*\? bash[\s\S]*allow \[o\]nce/);
    const asked = (c.stderr.match(/^\? bash/gm) ?? []).length;
    if (asked > 1) {
      c.type('o');
      await c.until(/second done\./);
    }
    await c.at(3, '/exit');
    assert.equal(await c.exited, 0);
    assert.equal(
      asked,
      1,
      `asked ${asked} times: the "always" rule did not cover the same command (workspace ${link} -> ${real})\n${c.stderr}`,
    );
  },
);
