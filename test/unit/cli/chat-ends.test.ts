// `knack chat` never ends a turn silently: `--once` exits non-zero with a line saying how the turn ended (interrupted,
// timed out, failed), a message with no model set up says so, and `--yes` answers an approval asked again after a crash.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { tempDir, writeTree } from '../../helpers/tmp.js';
import { startFakeAnthropic } from '../../helpers/fake-anthropic.js';
import { startFakeOpenAI } from '../../helpers/fake-openai.js';
import type { FakeServer } from '../../helpers/fake-provider.js';
import { cliArgs, cliEnv, KNACK_BIN } from '../../helpers/cli.js';

const root = join(import.meta.dirname, '..', '..', '..');
const servers: FakeServer[] = [];
after(async () => void (await Promise.all(servers.map((s) => s.close()))));

async function server(kind: 'anthropic' | 'openai'): Promise<FakeServer> {
  const s = kind === 'anthropic' ? await startFakeAnthropic() : await startFakeOpenAI();
  servers.push(s);
  return s;
}

function setup(settings?: unknown) {
  const home = tempDir('knack-chat-home-');
  const ws = tempDir('knack-chat-ws-');
  const dataDir = join(home, 'data');
  if (settings) writeTree(dataDir, { 'settings.json': JSON.stringify(settings) });
  return { home, ws, dataDir, common: cliArgs({ ws, home, data: dataDir }) };
}

/** Run the real bin in a child (its own environment; stdin closed). */
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

const KEYS = {
  anthropic: { ANTHROPIC_API_KEY: 'sk-ant-test-1234567890' },
  openai: { OPENAI_API_KEY: 'sk-test-1234567890' },
};
const words = (n: number): string[] => Array.from({ length: n }, (_, i) => `w${i} `);
const lastLine = (s: string): string => s.trimEnd().split('\n').at(-1)!;

for (const kind of ['anthropic', 'openai'] as const) {
  test(`${kind}: knack chat --once exits 1 on a connection dropped mid-answer, saying it was interrupted, the text kept`, async () => {
    const s = await server(kind);
    s.script({ chunks: words(399), dropAfterChunks: true, chunkDelayMs: 1 });
    const { common } = setup();
    const r = await bin(
      ['chat', '--once', 'tell me 600 words', '--provider', kind, '--base-url', s.url, ...common],
      KEYS[kind],
    );
    assert.equal(r.code, 1, r.stderr);
    assert.ok(r.stdout.includes(words(399).join('')));
    assert.match(r.stderr, /\(interrupted\)/);
    assert.match(r.stderr, new RegExp(`error: the connection to ${kind} was lost before the answer was complete`));
    assert.equal(
      lastLine(r.stderr),
      'knack chat: the answer was interrupted (the connection was lost before it was complete)',
    );
  });

  test(`${kind}: a stream stalled past agent.stallSeconds ends knack chat --once as timed out (exit 1)`, async () => {
    const s = await server(kind);
    s.script({ chunks: ['first ', 'words '], hang: true });
    const { common } = setup({ agent: { stallSeconds: 0.3 } });
    const r = await bin(['chat', '--once', 'hi', '--provider', kind, '--base-url', s.url, ...common], KEYS[kind]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, new RegExp(`error: ${kind} sent nothing for 0.3 s: the answer timed out`));
    assert.equal(lastLine(r.stderr), 'knack chat: the answer timed out (the model sent nothing for too long)');
  });
}

test('knack chat --once exits 1 on a provider failure, the provider reason said once; --json says it on the last line', async () => {
  const s = await server('anthropic');
  s.script({ status: 400, errorMessage: 'the model server broke' });
  const { common } = setup();
  const r = await bin(
    ['chat', '--once', 'hi', '--provider', 'anthropic', '--base-url', s.url, ...common],
    KEYS.anthropic,
  );
  assert.equal(r.code, 1);
  assert.equal(r.stderr.match(/the model server broke/g)?.length, 1, r.stderr);
  assert.equal(lastLine(r.stderr), 'knack chat: the answer failed');
  s.script({ status: 400, errorMessage: 'the model server broke' });
  const j = await bin(
    ['chat', '--once', 'hi', '--json', '--provider', 'anthropic', '--base-url', s.url, ...common],
    KEYS.anthropic,
  );
  assert.equal(j.code, 1);
  assert.match(
    lastLine(j.stderr),
    /^knack chat: the answer failed: anthropic rejected the request: the model server broke$/,
  );
});

test('with no model set up, knack chat --once says "No model is set up" and exits 2; --offline is the inspector alone (0)', async () => {
  const { common } = setup();
  const r = await bin(['chat', '--once', 'hi', ...common], {});
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /No model is set up/);
  assert.match(lastLine(r.stderr), /^knack chat: No model is set up, so the message was not answered/);
  const o = await bin(['chat', '--once', 'hi', '--offline', ...common], {});
  assert.equal(o.code, 0, o.stderr);
});

test('a provider without its key is "No model is set up" with what to set, at once', async () => {
  const { common } = setup();
  const r = await bin(['chat', '--once', 'hi', '--provider', 'deepseek', ...common], {});
  assert.equal(r.code, 2);
  assert.match(r.stderr, /No model is set up: .*DEEPSEEK_API_KEY/);
});

test('after a crash while an approval waited, knack chat --session ID --yes answers the re-asked approval once', async () => {
  const s = await server('anthropic');
  s.script({
    text: 'Writing it.',
    toolCalls: [{ id: 'w1', name: 'write_file', input: { path: 'out.txt', content: 'saved' } }],
  });
  const { home, ws, dataDir, common } = setup();
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(root, 'test', 'helpers', 'chat-child.ts'),
      home,
      dataDir,
      ws,
      s.url,
      'write out.txt',
      'approval_requested',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let id = '';
  await new Promise<void>((resolve, reject) => {
    child.on('exit', (code) => reject(new Error(`child exited early (${code})`)));
    createInterface({ input: child.stdout }).on('line', (l) => {
      if (l.startsWith('SESSION ')) id = l.slice(8);
      if (l === 'EVENT approval_requested') {
        child.removeAllListeners('exit');
        child.kill('SIGKILL');
        resolve();
      }
    });
  });
  s.script({ text: 'Written.' });
  const r = await bin(
    ['chat', '--session', id, '--yes', '--provider', 'anthropic', '--base-url', s.url, ...common],
    KEYS.anthropic,
  );
  assert.equal(r.code, 0, r.stderr);
  assert.doesNotMatch(r.stderr, /no terminal to ask/);
  assert.match(r.stderr, /asked again after a restart: allowed once by --yes/);
  assert.match(r.stdout, /Written\./);
  assert.equal(readFileSync(join(ws, 'out.txt'), 'utf8'), 'saved');
});
