// watchFiles: a settings file saved by rename, a folder that appears later, a folder removed and made again — each is
// heard; after close, nothing is. Every step waits for the watcher to be ready or for the callback (no timing).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tmp.js';
import { watchFiles } from '../../../main/core/config/watch.js';

test(
  'watchFiles hears a file saved by rename, its folder appearing, and its folder removed and made again',
  { timeout: 60_000 },
  async (t) => {
    const ws = tempDir();
    const file = join(ws, '.workbuddy', 'settings.json');
    const other = join(ws, 'notes.txt');
    // The watchers do not keep a process alive (persistent: false); the app's server does, here this timer.
    const alive = setInterval(() => {}, 1000);
    t.after(() => clearInterval(alive));
    let heard: (files: string[]) => void = () => {};
    const calls: string[][] = [];
    const w = watchFiles(
      [file],
      (files) => {
        calls.push(files);
        heard(files);
      },
      { debounceMs: 20 },
    );
    await w.ready;
    const next = (act: () => void) =>
      new Promise<string[]>((resolve) => {
        heard = resolve;
        act();
      });
    try {
      assert.deepEqual(
        await next(() => {
          mkdirSync(join(ws, '.workbuddy'));
          writeFileSync(file, '{}');
        }),
        [file],
      );
      assert.deepEqual(
        await next(() => {
          writeFileSync(`${file}.tmp`, '{"a":1}');
          renameSync(`${file}.tmp`, file);
        }),
        [file],
      );
      assert.deepEqual(await next(() => rmSync(join(ws, '.workbuddy'), { recursive: true })), [file]);
      assert.deepEqual(
        await next(() => {
          mkdirSync(join(ws, '.workbuddy'));
          writeFileSync(file, '{"b":2}');
        }),
        [file],
      );
      // Files beside it are not its business: the next call is about the settings file, not notes.txt.
      assert.deepEqual(
        await next(() => {
          writeFileSync(other, 'x');
          writeFileSync(file, '{"c":3}');
        }),
        [file],
      );
    } finally {
      w.close();
    }
    const before = calls.length;
    writeFileSync(file, '{"after":"close"}');
    // Another watcher on the same folder hears the write: by then a closed one would have been called too.
    await new Promise<void>((resolve) => {
      const probe = watchFiles(
        [file],
        () => {
          probe.close();
          resolve();
        },
        { debounceMs: 20 },
      );
      void probe.ready.then(() => writeFileSync(file, '{"after":"close, again"}'));
    });
    assert.equal(calls.length, before);
  },
);

test(
  'watchFiles hears a settings file that is a symlink edited through its target, and a settings folder that is a symlink',
  { timeout: 60_000, skip: process.platform === 'win32' && 'symlinks need rights on Windows' },
  async () => {
    const root = tempDir();
    // Dotfiles kept elsewhere and linked in (stow): data/settings.json → dotfiles/knack.json.
    mkdirSync(join(root, 'dotfiles'));
    mkdirSync(join(root, 'data'));
    const target = join(root, 'dotfiles', 'knack.json');
    writeFileSync(target, '{}');
    const linked = join(root, 'data', 'settings.json');
    symlinkSync(target, linked);
    // A workspace whose .workbuddy is a link to a shared folder.
    mkdirSync(join(root, 'shared'));
    mkdirSync(join(root, 'ws'));
    symlinkSync(join(root, 'shared'), join(root, 'ws', '.workbuddy'));
    const wsFile = join(root, 'ws', '.workbuddy', 'settings.json');
    const alive = setInterval(() => {}, 1000);
    let heard: (files: string[]) => void = () => {};
    const w = watchFiles([linked, wsFile], (files) => heard(files), { debounceMs: 20 });
    await w.ready;
    const next = (act: () => void) =>
      new Promise<string[]>((resolve) => {
        heard = resolve;
        act();
      });
    try {
      // Saved by rename in the target's folder, as an editor opened on the target does.
      assert.deepEqual(
        await next(() => {
          writeFileSync(`${target}.tmp`, '{"policy":{}}');
          renameSync(`${target}.tmp`, target);
        }),
        [linked],
      );
      assert.deepEqual(await next(() => writeFileSync(join(root, 'shared', 'settings.json'), '{}')), [wsFile]);
    } finally {
      w.close();
      clearInterval(alive);
    }
  },
);
