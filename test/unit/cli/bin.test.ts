import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
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
  const child = spawn(process.execPath, [join(root, 'bin', 'start.js')], {
    cwd: ws,
    env: { ...process.env, KNACK_HOME: home },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
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
  assert.match(
    out,
    /^Knack: the Electron binary is not installed on this machine, so Knack opens in your browser instead \(serve mode\)\.$/m,
  );
  assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/\?token=/);
  assert.equal((await fetch(url, { redirect: 'manual' })).status, 303);
  child.kill('SIGINT');
  assert.equal(await exited, 0, err);
});

test('knack runs the built bundle only while it is newer than every source it is built from, else the TypeScript sources', () => {
  // A checkout of its own: the real bin/ files, stub sources and a stub bundle that say which one ran.
  const dir = tempDir();
  // Times (s) from a base after now: the folders this test makes (their mtime is now) are older than every file.
  const T = Math.ceil(Date.now() / 1000) + 100_000;
  const at = (rel: string, t: number): void => utimesSync(join(dir, rel), T + t, T + t);
  const put = (rel: string, text: string, mtime?: number): void => {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
    if (mtime !== undefined) at(rel, mtime);
  };
  mkdirSync(join(dir, 'bin'));
  for (const f of ['knack.js', 'cli-entry.js', 'newest.js']) copyFileSync(join(root, 'bin', f), join(dir, 'bin', f));
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  put('package.json', JSON.stringify({ type: 'module' }), 1000);
  const stub = (who: string): string =>
    `export async function main() { console.log(${JSON.stringify(who)}); return 0; }\n`;
  put('main/cli/index.ts', stub('from source'), 1000);
  put('preload/contract.ts', 'export {};\n', 1000);
  const BUNDLE = ['cli.js', 'host.js'];
  for (const f of BUNDLE) put(`dist/main/electron/${f}`, f === 'cli.js' ? stub('from bundle') : '', 2000);
  /** `npm run build` again at time t: every bundle file is newer. */
  const rebuilt = (t: number): void => {
    for (const f of BUNDLE) at(`dist/main/electron/${f}`, t);
  };
  const knack = (env: Record<string, string> = {}): string => {
    const r = spawnSync(process.execPath, [join(dir, 'bin', 'knack.js'), 'help'], {
      cwd: dir,
      env: { ...process.env, KNACK_CLI_FROM_SOURCE: '', ...env },
      encoding: 'utf8',
    });
    assert.equal(r.status, 0, r.stderr);
    return r.stdout.trim();
  };
  assert.equal(knack(), 'from bundle');
  assert.equal(knack({ KNACK_CLI_FROM_SOURCE: '1' }), 'from source');
  // A source edited after the build (here a nested one): the bundle is stale and is not run.
  put('main/cli/index.ts', stub('from source'), 3000);
  assert.equal(knack(), 'from source');
  put('dist/main/electron/cli.js', stub('from bundle'), 4000);
  assert.equal(knack(), 'from source', 'the host beside it is older than the sources: the bundle is incomplete');
  at('dist/main/electron/host.js', 4000);
  assert.equal(knack(), 'from bundle');
  // A change at time t after the build makes the bundle stale (the sources run) until it is built again.
  const staleUntilRebuilt = (t: number, change: () => void, why: string): void => {
    change();
    assert.equal(knack(), 'from source', why);
    rebuilt(t + 1000);
    assert.equal(knack(), 'from bundle');
  };
  staleUntilRebuilt(
    5000,
    () => put('preload/contract.ts', 'export {};\n', 5000),
    'the IPC contract is part of the bundle',
  );
  // A source file deleted after the build: its folder changed, so the bundle (which still holds it) is stale.
  staleUntilRebuilt(
    7000,
    () => {
      put('main/cli/old-command.ts', 'export {};\n', 1000);
      rmSync(join(dir, 'main/cli/old-command.ts'));
      at('main/cli', 7000);
    },
    'a source deleted after the build',
  );
  // The build settings: a changed build script or TypeScript setting makes a different bundle.
  staleUntilRebuilt(
    9000,
    () => put('scripts/build.mjs', '// build\n', 9000),
    'the build script changed after the build',
  );
  staleUntilRebuilt(
    11000,
    () => put('tsconfig.base.json', '{}\n', 11000),
    'a TypeScript setting changed after the build',
  );
  rmSync(join(dir, 'dist/main/electron/host.js'));
  assert.equal(knack(), 'from source', 'a file the bundle starts by path is missing');
});
