// Which folder `knack serve` (and `npm start` in the browser) opens at start: the one asked for with --workspace, else
// the current folder, but never Knack's own folder by itself: run there, it opens none and says so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir, writeTree } from '../../helpers/tmp.js';
import { startFolder } from '../../../main/cli/serve.js';
import { repoRoot } from '../../../main/core/config/index.js';
import { cliEnv, KNACK_BIN } from '../../helpers/cli.js';

test("startFolder: Knack's own folder and the folders inside it only when asked; any other current folder", () => {
  const other = tempDir();
  assert.equal(startFolder(false, repoRoot), undefined);
  assert.equal(startFolder(false, join(repoRoot, 'main', 'cli')), undefined);
  assert.equal(startFolder(true, repoRoot), repoRoot);
  assert.equal(startFolder(false, other), other);
  // A sibling whose name starts like the repository's is not inside it.
  assert.equal(startFolder(false, `${repoRoot}-fork`, repoRoot), `${repoRoot}-fork`);
});

/** Serve from `cwd` with `args` until it prints its address; what it said and which folders it recorded as opened. */
async function serveFrom(cwd: string, args: string[]): Promise<{ err: string; opened: string[] }> {
  const root = tempDir();
  writeTree(root, { 'renderer/index.html': '<!doctype html><title>served</title>' });
  const dataDir = join(root, 'data');
  const child = spawn(
    process.execPath,
    [
      KNACK_BIN,
      'serve',
      '--port',
      '0',
      '--home',
      join(root, 'home'),
      '--data-dir',
      dataDir,
      '--renderer',
      join(root, 'renderer'),
      ...args,
    ],
    { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: cliEnv() },
  );
  let out = '';
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (/Knack is running at/.test(out)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`exited early (${code}): ${out}${err}`)));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  await exited;
  const recent = join(dataDir, 'recent-workspaces.json');
  const opened = existsSync(recent)
    ? (JSON.parse(readFileSync(recent, 'utf8')) as { path: string }[]).map((e) => e.path)
    : [];
  return { err, opened };
}

test("serve run in Knack's own folder with no --workspace opens no folder and says why", async () => {
  const r = await serveFrom(repoRoot, []);
  assert.deepEqual(r.opened, []);
  assert.match(r.err, /not opening Knack's own folder \(.*\) as the workspace; choose one in the window/);
});

test("serve run elsewhere opens the current folder; --workspace opens the one asked for, even Knack's own", async () => {
  const project = tempDir();
  const elsewhere = await serveFrom(project, []);
  assert.equal(elsewhere.opened.length, 1);
  assert.ok(elsewhere.opened[0]!.endsWith(project.split('/').pop()!));
  const asked = await serveFrom(project, ['--workspace', repoRoot]);
  assert.deepEqual(asked.opened, [repoRoot]);
  assert.doesNotMatch(asked.err, /not opening/);
});
