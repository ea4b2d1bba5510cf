// `knack serve` as a user runs it: prints the tokenised 127.0.0.1 URL, serves it, and exits cleanly (code 0) on
// SIGINT and SIGTERM with the port closed behind it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { join } from 'node:path';
import { tempDir, writeTree } from '../../helpers/tmp.js';
import { cliArgs, KNACK_BIN } from '../../helpers/cli.js';

async function serveAndStop(signal: 'SIGINT' | 'SIGTERM') {
  const root = tempDir();
  writeTree(root, { 'renderer/index.html': '<!doctype html><title>served</title>', 'repo/README.md': 'x' });
  const child = spawn(
    process.execPath,
    [
      KNACK_BIN,
      'serve',
      '--port',
      '0',
      ...cliArgs({ ws: join(root, 'repo'), home: join(root, 'home'), data: join(root, 'data') }),
      '--renderer',
      join(root, 'renderer'),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /Knack is running at (\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`exited early (${code}): ${out}${err}`)));
  });
  assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{43}$/);
  const first = await fetch(url, { redirect: 'manual' });
  assert.equal(first.status, 303);
  const port = Number(new URL(url).port);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill(signal);
  assert.equal(await exited, 0, err);
  assert.match(err, new RegExp(`${signal}, shutting down`));
  const state = await new Promise<string>((resolve) => {
    const s = connect({ host: '127.0.0.1', port });
    s.once('connect', () => {
      s.destroy();
      resolve('open');
    });
    s.once('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
  });
  assert.equal(state, 'ECONNREFUSED');
}

// A shutdown that never ends fails here instead of holding the run (a guard, not a timing assertion).
const guard = { timeout: 60_000 };
test('knack serve prints its URL and shuts down cleanly on SIGINT', guard, () => serveAndStop('SIGINT'));
test('knack serve shuts down cleanly on SIGTERM', guard, () => serveAndStop('SIGTERM'));
