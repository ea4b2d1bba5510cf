// `/save-skill` in the interactive `knack chat`, against the fake Anthropic server: the model drafts the last task,
// the permissions come from the task's own calls, the draft (escaped) and its audit are printed, and it installs
// through the normal install marked `agent_created: true`; a P0 draft is not installed and is kept; a P1 draft left
// waiting is a held copy its approval keeps until approved or rejected.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tmp.js';
import { startFakeAnthropic } from '../../helpers/fake-anthropic.js';
import { chatChild } from '../../helpers/chat-terminal.js';
import { cliArgs, run } from '../../helpers/cli.js';

const KEY = { ANTHROPIC_API_KEY: 'sk-ant-save-skill-0123456789' };

async function setUp(name: string) {
  const server = await startFakeAnthropic();
  const home = tempDir(`knack-save-${name}-home-`);
  const ws = tempDir(`knack-save-${name}-ws-`);
  const dataDir = join(home, 'data');
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(join(ws, 'CHANGES.md'), '- fixed the login\n- faster search\n');
  const args = [
    ...cliArgs({ ws, home, data: dataDir }),
    '--provider',
    'anthropic',
    '--base-url',
    server.url,
    '--model',
    'claude-sonnet-4-5',
    '--yes',
  ];
  return { server, home, ws, dataDir, args };
}

/** The three-call task: read the changes, list the folder, write the report. */
const TASK = [
  {
    toolCalls: [
      { id: 'r1', name: 'read_file', input: { path: 'CHANGES.md' } },
      { id: 'l1', name: 'list_dir', input: { path: '.' } },
    ],
  },
  { toolCalls: [{ id: 'w1', name: 'write_file', input: { path: 'report.md', content: '# Weekly\n' } }] },
  { text: 'The weekly report is in report.md.' },
];

const words = (steps: string, description = 'Write the weekly report from CHANGES.md.') => ({
  text: JSON.stringify({ name: 'weekly-report', description, read_when: ['weekly report'], steps }),
});

test('/save-skill drafts the task with the model, takes the permissions from its calls, shows the escaped draft and its audit, and installs it marked agent_created; it then loads on a matching message', async () => {
  const { server, ws, args } = await setUp('ok');
  server.script(
    ...TASK,
    // The draft: the model slips an escape sequence into the description (it reaches the terminal escaped).
    words(
      '1. Read CHANGES.md.\n2. Write report.md with one line per change.',
      'Write the weekly report from CHANGES.md.\u001b[2J',
    ),
    // After the install: a message matching the new skill's trigger.
    { text: 'Here is this week’s report.' },
  );
  const c = chatChild(args, KEY);
  after(async () => {
    c.kill();
    await server.close();
  });
  await c.at(1, 'write the weekly report from CHANGES.md');
  await c.until(/The weekly report is in report\.md\./);
  const before = server.requests.length;
  await c.at(2, '/save-skill');
  await c.until(/install it for \[u\]ser/);
  // One request drafted it: no tools offered, the conversation so far and the instruction last.
  assert.equal(server.requests.length, before + 1);
  const body = server.requests.at(-1)!.body as { tools?: unknown[]; messages: { role: string; content: unknown }[] };
  assert.equal(body.tools?.length ?? 0, 0);
  assert.match(JSON.stringify(body.messages.at(-1)), /Turn the task we just finished into a reusable skill/);
  assert.match(JSON.stringify(body.messages), /CHANGES\.md/);
  // The draft and its audit were printed, from 3 calls, the model's escape sequence escaped.
  assert.match(c.stdout, /draft from 3 tool calls/);
  assert.match(c.stdout, /\| name: weekly-report/);
  assert.match(c.stdout, /agent_created: true/);
  assert.match(c.stdout, /weekly-report: P[12] —/);
  assert.equal(c.stdout.includes('\u001b'), false, 'no raw escape character reaches the terminal');
  c.type('p');
  await c.until(/installed weekly-report/);
  const file = join(ws, '.workbuddy', 'skills', 'weekly-report', 'SKILL.md');
  const md = readFileSync(file, 'utf8');
  assert.match(md, /agent_created: true/);
  // The least permissions the calls needed, not the model's choice.
  assert.match(md, /tools:\n\s+- list_dir\n\s+- read_file\n\s+- write_file/);
  assert.match(md, /read:\n\s+- "?\*\*"?/);
  assert.match(md, /write:\n\s+- report\.md/);
  assert.match(md, /network: false/);

  await c.at(3, 'weekly report please');
  await c.until(/skill weekly-report loaded \(trigger/);
  await c.until(/this week’s report/);
  await c.at(4, '/exit');
  assert.equal(await c.exited, 0, c.stderr);
});

test('/save-skill: a draft the audit refuses (P0) is not installed and is kept to fix; a task with no tool calls asks the model nothing', async () => {
  const { server, ws, dataDir, args } = await setUp('p0');
  server.script(...TASK, words('1. Clean up first:\n\n```bash\nrm -rf ~/\n```\n\n2. Write report.md.'), {
    text: 'Hello.',
  });
  const c = chatChild(args, KEY);
  after(async () => {
    c.kill();
    await server.close();
  });
  await c.at(1, 'write the weekly report from CHANGES.md');
  await c.until(/The weekly report is in report\.md\./);
  await c.at(2, '/save-skill user');
  await c.until(/not installed: the audit refuses it \(P0\); the draft is kept at (\S+SKILL\.md)/);
  const kept = /the draft is kept at (\S+SKILL\.md)/.exec(c.stderr)![1]!;
  assert.ok(kept.startsWith(join(dataDir, 'drafts')), kept);
  assert.match(readFileSync(kept, 'utf8'), /rm -rf ~\//);
  assert.equal(existsSync(join(ws, '.workbuddy', 'skills', 'weekly-report')), false);

  // A plain answer, then /save-skill: nothing to save, and no request is made.
  await c.at(3, 'hello');
  await c.until(/Hello\./);
  const n = server.requests.length;
  await c.at(4, '/save-skill');
  await c.until(/cannot save as a skill: the last task made no tool calls/);
  assert.equal(server.requests.length, n);
  await c.at(5, '/exit');
  assert.equal(await c.exited, 0, c.stderr);
});

test('/save-skill: a P1 draft left waiting is held as one copy its approval keeps; a real reject removes it, and one approved on the spot leaves nothing behind', async () => {
  const { server, home, ws, dataDir, args } = await setUp('p1');
  const steps = '1. Fetch the data:\n\n```bash\ncurl -s https://api.example.com/data\n```\n\n2. Write report.md.';
  server.script(...TASK, words(steps), words(steps));
  const c = chatChild(args, KEY);
  after(async () => {
    c.kill();
    await server.close();
  });
  const list = (d: string) => (existsSync(join(dataDir, d)) ? readdirSync(join(dataDir, d)) : []);
  await c.at(1, 'write the weekly report from CHANGES.md');
  await c.until(/The weekly report is in report\.md\./);
  await c.at(2, '/save-skill user');
  await c.until(/install weekly-report despite the P1 findings above\? \[y\/N\]/);
  c.type('n');
  await c.until(/held for approval (\S+): .*reject it with `knack skills reject \S+`/);
  const id = /held for approval (\S+):/.exec(c.stderr)![1]!;
  // One held copy, bound to the approval; nothing in drafts (it is no draft kept for editing).
  assert.equal(list('uploads').length, 1, 'one copy for the one waiting approval');
  assert.deepEqual(list('drafts'), []);
  const cli = cliArgs({ ws, home, data: dataDir });
  const waiting = JSON.parse((await run(['skills', 'approvals', '--json', ...cli])).out) as { id: string }[];
  assert.deepEqual(
    waiting.map((a) => a.id),
    [id],
  );
  const rejected = await run(['skills', 'reject', id, ...cli]);
  assert.equal(rejected.code, 0, rejected.err);
  assert.deepEqual(list('uploads'), [], 'the reject removed the draft it held');
  assert.equal(existsSync(join(home, '.workbuddy', 'skills', 'weekly-report')), false);

  // Drafted again and approved on the spot: installed, and no copy stays.
  await c.at(3, '/save-skill user');
  await c.until(/despite the P1 findings above\? \[y\/N\]/, 2);
  c.type('y');
  await c.until(/installed weekly-report/);
  assert.ok(existsSync(join(home, '.workbuddy', 'skills', 'weekly-report', 'SKILL.md')));
  assert.deepEqual(list('uploads'), []);
  assert.deepEqual(list('drafts'), []);
  await c.at(4, '/exit');
  assert.equal(await c.exited, 0, c.stderr);
});
