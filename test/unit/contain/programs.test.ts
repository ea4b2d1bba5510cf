// The programs the sandbox needs on Linux are found by Knack on PATH (an executable file, as `which` finds it),
// without running a program: a missing one is the reason the wall is unavailable, named, and nothing runs (fail
// closed); a file that is not executable, or a folder of that name, is not it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tmp.js';
import { findOnPath, Wall, WallError } from '../../../main/core/contain/wall.js';

const skip = process.platform !== 'linux';

test('findOnPath takes the first executable file of the name, in PATH order', () => {
  const root = tempDir('knack-programs-');
  const [a, b, c] = ['a', 'b', 'c'].map((d) => join(root, d));
  for (const d of [a, b, c]) mkdirSync(d!);
  writeFileSync(join(a!, 'tool'), 'not executable');
  mkdirSync(join(b!, 'tool'));
  writeFileSync(join(c!, 'tool'), '#!/bin/sh\n');
  chmodSync(join(c!, 'tool'), 0o755);
  assert.equal(findOnPath('tool', [a, b, c].join(':')), join(c!, 'tool'));
  assert.equal(findOnPath('tool', [a, b].join(':')), undefined);
  assert.equal(findOnPath(join(c!, 'tool'), ''), join(c!, 'tool'));
  assert.equal(findOnPath('missing-program', [a, b, c].join(':')), undefined);
});

test('without socat on PATH the wall is unavailable, says so, and runs nothing', { skip }, async () => {
  const root = tempDir('knack-no-socat-');
  const bin = join(root, 'bin');
  const ws = join(root, 'ws');
  mkdirSync(bin);
  mkdirSync(ws);
  for (const p of ['bwrap', 'rg', 'true', 'bash']) {
    const real = findOnPath(p);
    if (real) symlinkSync(real, join(bin, p));
  }
  const saved = process.env.PATH;
  process.env.PATH = bin;
  let wall: Wall;
  try {
    wall = await Wall.open({ workspace: ws, home: join(root, 'home'), dataDir: join(root, 'data') }, 'required');
  } finally {
    process.env.PATH = saved;
  }
  try {
    const s = wall.status();
    assert.equal(s.available, false);
    assert.match(s.reason, /^socat not installed \(no executable file of that name in a folder on PATH\)$/);
    assert.match(s.hint, /apt install bubblewrap socat ripgrep/);
    await assert.rejects(wall.spawn('touch ran', { cwd: ws }), WallError);
  } finally {
    await wall.close();
  }
});
