// The CLI run inside the workspace (its working folder one that commands may write) reuses one command line, as the
// window does: `knack chat --once`, started as a real process in the workspace, runs two bash commands and the sandbox
// runtime builds its bubblewrap line once (counted by the runtime's own debug log, SRT_DEBUG, one line per build). Both
// commands still run inside the wall, with the gate's analysis off: a write outside fails, loopback gets no connection,
// and no stub of the runtime's is left in the workspace.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../../helpers/tmp.js';
import { loopbackListener } from '../../helpers/wall-run.js';
import { run } from '../../helpers/cli.js';
import { startFakeAnthropic, type FakeServer } from '../../helpers/fake-anthropic.js';

const repo = fileURLToPath(new URL('../../..', import.meta.url));
const root = tempDir('knack-cli-line-');
const home = join(root, 'home');
const ws = join(root, 'ws');
const canary = join(root, 'canary.txt');
mkdirSync(home, { recursive: true });
mkdirSync(join(ws, '.git', 'hooks'), { recursive: true });
writeFileSync(canary, 'untouched\n');
const own = ['--home', home, '--data-dir', join(home, 'data')];

let listener: Awaited<ReturnType<typeof loopbackListener>>;
let port = 0;
let model: FakeServer;

before(async () => {
  listener = await loopbackListener();
  port = listener.port;
  model = await startFakeAnthropic();
  // The gate's analysis off: every bash command is allowed by the user's rule.
  const added = await run(['policy', 'rules', 'add', 'allow', '--tool', 'bash', '--workspace', ws, ...own]);
  assert.equal(added.code, 0, added.err);
});
after(async () => {
  listener.close();
  await model.close();
});

/** `knack ARGS` as its own process, in `cwd`; what it printed and its exit code. */
function knack(args: string[], cwd: string): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, [join(repo, 'bin', 'knack.js'), ...args], {
    cwd,
    env: { ...process.env, SRT_DEBUG: '1', KNACK_CLI_FROM_SOURCE: '1', ANTHROPIC_API_KEY: 'sk-ant-test-abcdefghijk' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (b: Buffer) => (out += b));
  child.stderr.on('data', (b: Buffer) => (err += b));
  return new Promise((done) => child.once('close', (code) => done({ code, out, err })));
}

test('knack chat run inside the workspace builds the command line once for two commands, both inside the wall', async () => {
  model.script(
    {
      toolCalls: [
        { id: 'write', name: 'bash', input: { command: `echo one > one.txt; echo owned > ${canary}` } },
        { id: 'net', name: 'bash', input: { command: `echo two > two.txt; curl -sS -m 5 http://127.0.0.1:${port}/` } },
      ],
    },
    { text: 'done' },
  );
  const r = await knack(
    ['chat', '--once', 'tidy up', '--provider', 'anthropic', '--base-url', model.url, '--json', ...own],
    ws,
  );
  const all = `${r.out}\n${r.err}`;
  assert.equal(r.code, 0, all);
  // Both ran (each wrote in the workspace) and neither got out.
  assert.equal(readFileSync(join(ws, 'one.txt'), 'utf8'), 'one\n', all);
  assert.equal(readFileSync(join(ws, 'two.txt'), 'utf8'), 'two\n', all);
  assert.equal(readFileSync(canary, 'utf8'), 'untouched\n', all);
  assert.equal(listener.hits(), 0, all);
  const results = JSON.stringify(model.requests[1]?.body.messages ?? []);
  assert.match(results, /write: [^"]*canary\.txt/, results);
  assert.match(results, new RegExp(`network: 127\\.0\\.0\\.1:${port}`), results);
  // One line built by the runtime for the probe and both commands.
  const built = r.err.match(/Wrapped command with bwrap/g) ?? [];
  assert.equal(built.length, 1, all);
  // The runtime's stubs (.bashrc, .vscode, …) were never mounted, so none is left behind.
  assert.deepEqual(readdirSync(ws).sort(), ['.git', 'one.txt', 'two.txt']);
});
