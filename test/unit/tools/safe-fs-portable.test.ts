// The portable "where is the open file really" check (issue 8, remaining gap 4): without /proc/self/fd (macOS,
// Windows) an opened descriptor must be the same file (device + inode) as the checked real path, which must still
// be real (no symlink on the way). Forced on Linux here so the fallback path is what runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  realpathSync,
  renameSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tmp.js';
import {
  fdCheck,
  openReal,
  PathChangedError,
  readAll,
  useFdCheck,
  verifyOpened,
  writeReal,
} from '../../../main/core/tools/safe-fs.js';

function withCheck(mode: 'proc' | 'stat', fn: () => void): void {
  const before = useFdCheck(mode);
  try {
    fn();
  } finally {
    useFdCheck(before);
  }
}

function world() {
  const root = realpathSync(tempDir());
  mkdirSync(join(root, 'ws', 'dir'), { recursive: true });
  mkdirSync(join(root, 'outside'));
  writeFileSync(join(root, 'ws', 'dir', 'f.txt'), 'inside');
  writeFileSync(join(root, 'outside', 'f.txt'), 'outside secret');
  return { ws: join(root, 'ws'), outside: join(root, 'outside') };
}

test('the stat fallback refuses a descriptor whose file was replaced at the checked path (another inode there now)', () => {
  withCheck('stat', () => {
    const { ws } = world();
    const real = join(ws, 'dir', 'f.txt');
    const fd = openSync(real, 'r');
    try {
      writeFileSync(join(ws, 'dir', 'other.txt'), 'swapped in');
      renameSync(join(ws, 'dir', 'other.txt'), real);
      assert.throws(
        () => verifyOpened(fd, real, 'the opened file'),
        (e: unknown) =>
          e instanceof PathChangedError && /not the file that was checked|really/.test((e as Error).message),
      );
    } finally {
      closeSync(fd);
    }
  });
});

test('the stat fallback refuses a folder handle when the checked folder is now a symlink to the outside', () => {
  withCheck('stat', () => {
    const { ws, outside } = world();
    const dir = join(ws, 'dir');
    const dfd = openSync(dir, 'r');
    try {
      renameSync(dir, join(ws, 'dir.old'));
      symlinkSync(outside, dir);
      assert.throws(() => verifyOpened(dfd, dir, 'the folder'), PathChangedError);
    } finally {
      closeSync(dfd);
    }
    // A write through the swapped folder is refused before anything is written outside.
    assert.throws(() => writeReal(join(dir, 'f.txt'), 'pwned'), PathChangedError);
    assert.equal(readFileSync(join(outside, 'f.txt'), 'utf8'), 'outside secret');
    assert.throws(() => openReal(join(dir, 'f.txt')), PathChangedError);
  });
});

test('the stat fallback refuses a file reached through a folder on the way that became a symlink', () => {
  withCheck('stat', () => {
    const { ws, outside } = world();
    const real = join(ws, 'dir', 'f.txt');
    renameSync(join(ws, 'dir'), join(ws, 'dir.old'));
    symlinkSync(outside, join(ws, 'dir'));
    // O_NOFOLLOW guards only the last name; the (dev, ino) + real path comparison catches the folder on the way.
    assert.throws(() => openReal(real), PathChangedError);
  });
});

test('the stat fallback lets an unchanged file and folder through: reads and atomic writes work as with /proc', () => {
  for (const mode of existsSync('/proc/self/fd') ? (['stat', 'proc'] as const) : (['stat'] as const)) {
    withCheck(mode, () => {
      const { ws } = world();
      const real = join(ws, 'dir', 'f.txt');
      const f = openReal(real);
      try {
        assert.equal(readAll(f).toString('utf8'), 'inside');
      } finally {
        f.close();
      }
      assert.deepEqual(writeReal(real, 'changed'), { created: false });
      assert.deepEqual(writeReal(join(ws, 'dir', 'new.txt'), 'new'), { created: true });
      assert.equal(readFileSync(real, 'utf8'), 'changed');
      assert.equal(fdCheck(), mode);
    });
  }
});
