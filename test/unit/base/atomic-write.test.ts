// writeFileAtomic: the old file or the new one, never part of either; no leftover temporaries; a mode that holds
// whatever the umask; writers in threads of one process never share a temporary file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildSync } from 'esbuild';
import { Worker } from 'node:worker_threads';
import { writeFileAtomic } from '../../../main/core/base/index.js';
import { tempDir } from '../../helpers/tmp.js';

test('a write replaces the file whole, creates its folder and leaves no temporary behind', () => {
  const dir = tempDir();
  const file = join(dir, 'nested', 'settings.json');
  writeFileAtomic(file, '{"a": 1}\n');
  writeFileAtomic(file, '{"b": 2}\n');
  assert.equal(readFileSync(file, 'utf8'), '{"b": 2}\n');
  assert.deepEqual(readdirSync(join(dir, 'nested')), ['settings.json']);
});

test('the mode asked for holds whatever the umask', () => {
  const file = join(tempDir(), 'providers.json');
  writeFileSync(file, 'old', { mode: 0o644 });
  writeFileAtomic(file, '{"keys": {}}', { mode: 0o600 });
  assert.equal(statSync(file).mode & 0o777, 0o600);
});

test('a write that cannot finish leaves the old file as it was and no temporary', () => {
  const dir = tempDir();
  const file = join(dir, 'target');
  mkdirSync(file); // a folder where the file should be: the rename fails
  assert.throws(() => writeFileAtomic(file, 'new'), /EISDIR|EPERM|ENOTEMPTY|EEXIST/);
  assert.deepEqual(readdirSync(dir), ['target']);
  assert.ok(statSync(file).isDirectory());
});

test('four threads of one process writing the same file at once never collide on a temporary name', async () => {
  const dir = tempDir();
  const file = join(dir, 'recent.json');
  // Worker threads do not get the test's TypeScript loader: the helper is bundled to plain JavaScript with esbuild.
  const bundle = join(tempDir(), 'atomic-write.mjs');
  buildSync({
    entryPoints: [join(import.meta.dirname, '..', '..', '..', 'main', 'core', 'base', 'atomic-write.ts')],
    outfile: bundle,
    bundle: true,
    format: 'esm',
    platform: 'node',
  });
  const helper = pathToFileURL(bundle).href;
  const code = `
    const { workerData, parentPort } = require('node:worker_threads');
    import(workerData.helper).then(({ writeFileAtomic }) => {
      const body = JSON.stringify({ writer: workerData.n, pad: 'x'.repeat(64 * 1024) });
      let errors = 0;
      for (let i = 0; i < 40; i++) { try { writeFileAtomic(workerData.file, body); } catch { errors++; } }
      parentPort.postMessage(errors);
    });`;
  const errors = await Promise.all(
    [0, 1, 2, 3].map(
      (n) =>
        new Promise<number>((resolve, reject) => {
          const w = new Worker(code, { eval: true, workerData: { file, n, helper } });
          w.once('message', resolve);
          w.once('error', reject);
        }),
    ),
  );
  assert.deepEqual(errors, [0, 0, 0, 0]);
  const last = JSON.parse(readFileSync(file, 'utf8')) as { writer: number; pad: string };
  assert.equal(last.pad.length, 64 * 1024, 'the file holds one whole write');
  assert.deepEqual(readdirSync(dir), ['recent.json']);
});
