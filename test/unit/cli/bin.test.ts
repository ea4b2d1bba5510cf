import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
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

test('npm start without an Electron binary says why and shows the catalog instead of failing', () => {
  const home = tempDir();
  const ws = tempDir();
  const r = spawnSync(process.execPath, [join(root, 'bin', 'start.js')], {
    cwd: ws,
    env: { ...process.env, KNACK_HOME: home },
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /Electron is not installed|desktop build is not present/);
  assert.match(r.stdout, /git-commit/, 'the built-in skills are listed');
});
