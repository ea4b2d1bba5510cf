// watchFiles: a settings file saved by rename, a folder that appears later, a folder removed and made again — each is
// heard; after close, nothing is. Every step waits for the callback (no timing).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tmp.js';
import { watchFiles } from '../../../main/core/config/watch.js';

test('watchFiles hears a file saved by rename, its folder appearing, and its folder removed and made again', { timeout: 60_000 }, async () => {
  const ws = tempDir();
  const file = join(ws, '.workbuddy', 'settings.json');
  const other = join(ws, 'notes.txt');
  // The watchers do not keep a process alive (persistent: false); the app's server does, here this timer.
  const alive = setInterval(() => {}, 1000);
  let heard: (files: string[]) => void = () => {};
  const calls: string[][] = [];
  const w = watchFiles([file], (files) => {
    calls.push(files);
    heard(files);
  }, { debounceMs: 20 });
  const next = (act: () => void) => new Promise<string[]>((resolve) => {
    heard = resolve;
    act();
  });
  try {
    assert.deepEqual(await next(() => {
      mkdirSync(join(ws, '.workbuddy'));
      writeFileSync(file, '{}');
    }), [file]);
    assert.deepEqual(await next(() => {
      writeFileSync(`${file}.tmp`, '{"a":1}');
      renameSync(`${file}.tmp`, file);
    }), [file]);
    assert.deepEqual(await next(() => rmSync(join(ws, '.workbuddy'), { recursive: true })), [file]);
    assert.deepEqual(await next(() => {
      mkdirSync(join(ws, '.workbuddy'));
      writeFileSync(file, '{"b":2}');
    }), [file]);
    // Files beside it are not its business: the next call is about the settings file, not notes.txt.
    assert.deepEqual(await next(() => {
      writeFileSync(other, 'x');
      writeFileSync(file, '{"c":3}');
    }), [file]);
  } finally {
    w.close();
  }
  const before = calls.length;
  writeFileSync(file, '{"after":"close"}');
  // Another watcher on the same folder hears the write: by then a closed one would have been called too.
  await new Promise<void>((resolve) => {
    const probe = watchFiles([file], () => {
      probe.close();
      resolve();
    }, { debounceMs: 20 });
    writeFileSync(file, '{"after":"close, again"}');
  });
  clearInterval(alive);
  assert.equal(calls.length, before);
});
