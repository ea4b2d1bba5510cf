import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { chmodSync, statSync, writeFileSync } from 'node:fs';
import { main } from '../../../main/cli/index.js';
import { capture, cliArgs, cliEnv, KNACK_BIN } from '../../helpers/cli.js';
import { tempDir, writeTree } from '../../helpers/tmp.js';
import { startFakeAnthropic } from '../../helpers/fake-anthropic.js';
import { startFakeOpenAI } from '../../helpers/fake-openai.js';
import type { FakeServer } from '../../helpers/fake-provider.js';
import { writeProvidersFile } from '../../../main/core/agent/index.js';

const servers: FakeServer[] = [];
after(async () => void (await Promise.all(servers.map((s) => s.close()))));

async function server(kind: 'anthropic' | 'openai'): Promise<FakeServer> {
  const s = kind === 'anthropic' ? await startFakeAnthropic() : await startFakeOpenAI();
  servers.push(s);
  return s;
}

function setup() {
  const home = tempDir('knack-chat-home-');
  const ws = tempDir('knack-chat-ws-');
  return { home, ws, common: cliArgs({ ws, home, data: join(home, 'data') }) };
}

/** Run the real bin in a child (its own environment). */
function bin(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [KNACK_BIN, ...args], {
      env: cliEnv(env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    p.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    p.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

test('knack chat --once answers one message through the provider named on the command line and exits 0', async () => {
  const s = await server('anthropic');
  s.script({ text: 'Hello from the model.' });
  const { common } = setup();
  const r = await bin(['chat', '--once', 'hi', '--provider', 'anthropic', '--base-url', s.url, ...common], {
    ANTHROPIC_API_KEY: 'sk-ant-test-1234567890',
  });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /Hello from the model\./);
  assert.match(r.stderr, /anthropic \/ claude/);
});

test('knack chat --once with a refused key exits non-zero with one error line and never prints the key', async () => {
  const s = await server('openai');
  s.script({ status: 401 });
  const { common } = setup();
  const key = 'sk-live-should-never-appear-123456';
  const r = await bin(['chat', '--once', 'hi', '--provider', 'deepseek', '--base-url', s.url, ...common], {
    DEEPSEEK_API_KEY: key,
  });
  assert.equal(r.code, 1);
  assert.match(r.stderr, /error: deepseek refused the API key \(401\): check DEEPSEEK_API_KEY/);
  assert.ok(!r.stderr.includes(key) && !r.stdout.includes(key));
});

test('knack chat --json prints every event as one JSON line; --yes allows an ask once', async () => {
  const s = await server('anthropic');
  s.script(
    { toolCalls: [{ id: 'w', name: 'write_file', input: { path: 'x.txt', content: '1' } }] },
    { text: 'wrote it' },
  );
  const { common, ws } = setup();
  const c = capture();
  writeTree(ws, {});
  process.env.ANTHROPIC_API_KEY = 'sk-ant-test-abcdefghijk';
  let code: number;
  try {
    code = await main(
      ['chat', '--once', 'write x', '--provider', 'anthropic', '--base-url', s.url, '--yes', '--json', ...common],
      c.io,
    );
  } finally {
    delete process.env.ANTHROPIC_API_KEY;
  }
  assert.equal(code, 0, c.err.join('\n'));
  const events = c.out.map((l) => JSON.parse(l) as { type: string; answer?: string });
  assert.ok(events.some((e) => e.type === 'approval_answered' && e.answer === 'once'));
  assert.equal(events.at(-1)!.type, 'turn_end');
  assert.equal(statSync(join(ws, 'x.txt')).size, 1);
});

test('knack chat --once --offline is the offline inspector: matched skills and prompt sections with token counts', async () => {
  const { common, ws } = setup();
  const r = await bin(['chat', '--once', '帮我提交代码', '--offline', ...common], {});
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /\[offline inspector\]/);
  assert.match(r.stdout, /matched: git-commit/);
  assert.match(r.stdout, /loaded skills: git-commit \(trigger/);
  assert.match(
    r.stdout,
    /prompt: \d+ tokens of \d+ — system \d+, project instructions 0, catalog \d+, skills \d+, tools \d+/,
  );
  // The folder's AGENTS.md is a section of its own.
  writeFileSync(join(ws, 'AGENTS.md'), 'Run the linter before every commit. '.repeat(20));
  const withRules = await bin(['chat', '--once', '帮我提交代码', '--offline', ...common], {});
  assert.equal(withRules.code, 0, withRules.stderr);
  const n = Number(/project instructions (\d+),/.exec(withRules.stdout)?.[1]);
  assert.ok(n > 100, withRules.stdout);
});

test('a provider from providers.json (0600) with its own base URL and key is used; a world-readable file has its keys ignored', async () => {
  const s = await server('openai');
  s.script({ text: 'from my proxy' });
  const { common, home } = setup();
  const dataDir = join(home, 'data');
  writeProvidersFile(dataDir, {
    default: 'my-proxy',
    providers: {
      'my-proxy': { kind: 'openai', baseURL: s.url, model: 'proxy-model', apiKey: 'sk-file-key-123456789' },
    },
  });
  assert.equal(statSync(join(dataDir, 'providers.json')).mode & 0o777, 0o600);
  const c = capture();
  assert.equal(await main(['chat', '--once', 'hi', ...common], c.io), 0, c.err.join('\n'));
  assert.match(c.out.join(''), /from my proxy/);
  assert.equal(s.requests.at(-1)!.headers.authorization, 'Bearer sk-file-key-123456789');
  assert.equal(s.requests.at(-1)!.body.model, 'proxy-model');
  chmodSync(join(dataDir, 'providers.json'), 0o644);
  s.script({ text: 'again' });
  const c2 = capture();
  assert.equal(await main(['chat', '--once', 'hi', ...common], c2.io), 0, c2.err.join('\n'));
  assert.match(c2.err.join('\n'), /readable by other users .* chmod 600/);
  assert.notEqual(s.requests.at(-1)!.headers.authorization, 'Bearer sk-file-key-123456789');
});

test('knack sessions list, show, export --format md|json and delete work on a recorded chat', async () => {
  const s = await server('anthropic');
  s.script({ text: 'An answer worth keeping.' });
  const { common } = setup();
  const key = 'sk-ant-export-secret-999999';
  process.env.ANTHROPIC_API_KEY = key;
  try {
    assert.equal(
      await main(
        ['chat', '--once', 'keep this', '--provider', 'anthropic', '--base-url', s.url, ...common],
        capture().io,
      ),
      0,
    );
  } finally {
    delete process.env.ANTHROPIC_API_KEY;
  }
  const l = capture();
  assert.equal(await main(['sessions', 'list', '--json', ...common], l.io), 0);
  const rows = JSON.parse(l.out.join('')) as { id: string; title: string }[];
  assert.equal(rows.length, 1);
  assert.equal(rows[0]!.title, 'keep this');
  const md = capture();
  assert.equal(await main(['sessions', 'export', rows[0]!.id.slice(0, 8), '--format', 'md', ...common], md.io), 0);
  assert.match(md.out.join('\n'), /## User\n\nkeep this[\s\S]*An answer worth keeping\./);
  const js = capture();
  assert.equal(await main(['sessions', 'export', rows[0]!.id, '--format', 'json', ...common], js.io), 0);
  const dump = js.out.join('');
  assert.ok(JSON.parse(dump).events.length > 3);
  assert.ok(!dump.includes(key) && !md.out.join('').includes(key), 'the key is in no export');
  const d = capture();
  assert.equal(await main(['sessions', 'delete', rows[0]!.id, ...common], d.io), 0);
  const l2 = capture();
  await main(['sessions', 'list', '--json', ...common], l2.io);
  assert.deepEqual(JSON.parse(l2.out.join('')), []);
  const bad = capture();
  assert.equal(await main(['sessions', 'show', 'nope-nope', ...common], bad.io), 2);
  assert.match(bad.err.join(''), /no session "nope-nope"/);
});

test("knack chat's deny line names the rule and its scope (and the skill and paths when the decision has them), escaped like the approval prompt", async () => {
  const s = await server('anthropic');
  const { common } = setup();
  const dir = 'sec\u202eret';
  const added = capture();
  assert.equal(
    await main(['policy', 'rules', 'add', 'deny', '--tool', 'write_file', '--path', `${dir}/**`, ...common], added.io),
    0,
    added.err.join('\n'),
  );
  s.script(
    { toolCalls: [{ id: 'w1', name: 'write_file', input: { path: `${dir}/k.txt`, content: 'x' } }] },
    { text: 'could not write it' },
  );
  const c = capture();
  process.env.ANTHROPIC_API_KEY = 'sk-ant-deny-line-0123456789';
  try {
    assert.equal(
      await main(['chat', '--once', 'write the key', '--provider', 'anthropic', '--base-url', s.url, ...common], c.io),
      0,
      c.err.join('\n'),
    );
  } finally {
    delete process.env.ANTHROPIC_API_KEY;
  }
  const err = c.err.join('\n');
  const at = err.indexOf('✗ denied:');
  assert.ok(at >= 0, err);
  // (A denial carries no checked paths: the gate records them for what it lets through or asks about.)
  const shown = err.slice(at).split('\n').slice(0, 3);
  assert.match(shown[0]!, /✗ denied: .*sec\\u\{202e\}ret/, err);
  assert.match(shown[1]!, /^ {4}rule: deny write_file path sec\\u\{202e\}ret\/\*\* in /, err);
  assert.match(shown[2]!, /^ {4}scope: workspace /, err);
  assert.ok(!err.includes('\u202e'), 'no raw bidi override reaches the terminal');
});
