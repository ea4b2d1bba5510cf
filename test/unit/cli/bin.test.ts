import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tmp.js';

const root = join(import.meta.dirname, '..', '..', '..');

function run(cmd: string, env: Record<string, string>) {
  return spawnSync('bash', ['-c', cmd], { cwd: root, env: { ...process.env, ...env }, encoding: 'utf8' });
}

test('knack output piped into head ends quietly instead of crashing with EPIPE', () => {
  const home = tempDir();
  const r = run('node bin/knack.js help | head -1; echo "status=${PIPESTATUS[0]}"', { KNACK_HOME: home });
  assert.match(r.stdout, /^usage: knack/);
  assert.match(r.stdout, /status=0/);
  assert.doesNotMatch(r.stderr, /EPIPE|Error/);
});

test('an unknown command is one clear line and exit code 2', () => {
  const r = run('node bin/knack.js frobnicate', { KNACK_HOME: tempDir() });
  assert.equal(r.status, 2);
  assert.equal(r.stderr.trim(), 'knack: unknown command "frobnicate" (try: knack help)');
});

test('npm start without an Electron binary says why in one line, serves the app on 127.0.0.1 and stops cleanly on Ctrl+C', async () => {
  const home = tempDir();
  const ws = tempDir();
  const child = spawn(process.execPath, [join(root, 'bin', 'start.js')], { cwd: ws, env: { ...process.env, KNACK_HOME: home }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /Knack is running at (\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    void exited.then((code) => reject(new Error(`npm start exited early (${code}): ${out}${err}`)));
  });
  assert.match(out, /^Knack: the Electron binary is not installed on this machine, so Knack opens in your browser instead \(serve mode\)\.$/m);
  assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/\?token=/);
  assert.equal((await fetch(url, { redirect: 'manual' })).status, 303);
  child.kill('SIGINT');
  assert.equal(await exited, 0, err);
});
