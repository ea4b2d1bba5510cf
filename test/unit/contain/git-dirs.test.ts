// The watched git dirs (git-dirs.ts) against the walk they replace (gitDirsBelow), after each change a command or the
// user could make: nested repositories made deep at once, moved, removed and made again, a folder moved over another
// of the same name, a `.git` swapped for a file that points elsewhere, a submodule's git dir under `modules/`, and
// node_modules left out. Read right after each change, with no wait: the mark makes every change made before the read
// count.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tmp.js';
import { git } from '../../helpers/git-repos.js';
import { GitDirWatch } from '../../../main/core/contain/git-dirs.js';
import { gitDirsBelow } from '../../../main/core/contain/protect.js';

const root = tempDir('knack-git-dirs-');
const ws = join(root, 'ws');
const tmp = join(root, 'tmp');
mkdirSync(ws);
const watches: GitDirWatch[] = [];
after(() => {
  for (const w of watches) w.close();
});

const steps: [string, () => void][] = [
  [
    'a repository made deep at once',
    () => (mkdirSync(join(ws, 'a/b/c'), { recursive: true }), git(join(ws, 'a/b/c'), 'init', '-q')),
  ],
  ['a bare `.git` folder made by hand', () => mkdirSync(join(ws, 'd/.git/hooks'), { recursive: true })],
  ['a folder moved with its repository', () => renameSync(join(ws, 'a'), join(ws, 'moved'))],
  [
    'a repository inside the moved folder',
    () => (mkdirSync(join(ws, 'moved/b/e')), git(join(ws, 'moved/b/e'), 'init', '-q')),
  ],
  ['a `.git` removed', () => rmSync(join(ws, 'd/.git'), { recursive: true })],
  [
    'a `.git` file pointing at a git dir elsewhere in the workspace',
    () => (
      mkdirSync(join(ws, 'store/x/hooks'), { recursive: true }),
      writeFileSync(join(ws, 'store/x/HEAD'), 'ref: refs/heads/main\n'),
      writeFileSync(join(ws, 'd/.git'), 'gitdir: ../store/x\n')
    ),
  ],
  [
    'a submodule git dir under modules/',
    () => mkdirSync(join(ws, 'moved/b/c/.git/modules/lib/hooks'), { recursive: true }),
  ],
  [
    'a repository in node_modules (never walked)',
    () => (mkdirSync(join(ws, 'node_modules/p'), { recursive: true }), git(join(ws, 'node_modules/p'), 'init', '-q')),
  ],
  ['node_modules renamed to a walked name', () => renameSync(join(ws, 'node_modules'), join(ws, 'nm'))],
  [
    'a folder removed and made again at once, with a repository',
    () => (
      rmSync(join(ws, 'nm'), { recursive: true }),
      mkdirSync(join(ws, 'nm/q'), { recursive: true }),
      git(join(ws, 'nm/q'), 'init', '-q')
    ),
  ],
  ['an empty folder', () => mkdirSync(join(ws, 'e'))],
  [
    'a folder with a repository moved over the empty one (the same path, another folder)',
    () => (
      mkdirSync(join(ws, 'f/r'), { recursive: true }),
      git(join(ws, 'f/r'), 'init', '-q'),
      renameSync(join(ws, 'f'), join(ws, 'e'))
    ),
  ],
  [
    'a repository in the temporary folder, made after the walk',
    () => (mkdirSync(join(tmp, 'r'), { recursive: true }), git(join(tmp, 'r'), 'init', '-q')),
  ],
];

test('the watched git dirs are the walked ones after every change, read at once', async () => {
  const watch = new GitDirWatch([ws, tmp]);
  watches.push(watch);
  watch.start();
  assert.deepEqual(await watch.current(), gitDirsBelow([ws, tmp]));
  for (const [what, change] of steps) {
    change();
    assert.deepEqual(await watch.current(), gitDirsBelow([ws, tmp]), what);
  }
  assert.ok((await watch.current()).size >= 5);
});
