// The hooks and settings of git repositories below the workspace (a nested repository, a submodule's git dir under
// .git/modules, one a command makes) under the real wall, through `knack tools call bash` with the gate's analysis
// switched off (a rule allowing every bash command): a write to one that exists fails; one a command creates is moved
// aside and said. Then the user's git on the host (commit, status) runs none of what was planted.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tmp.js';
import { git } from '../../helpers/git-repos.js';
import { cliArgs, run } from '../../helpers/cli.js';
import { blockedOf } from '../../../main/core/contain/blocked.js';

const root = tempDir('knack-nested-git-');
const home = join(root, 'home');
const ws = join(root, 'ws');
const upstream = join(root, 'upstream');
const canary = join(root, 'canary');
const common = cliArgs({ ws, home, data: join(home, 'data') });
const hook = `#!/bin/sh\\ntouch ${canary}-$(basename $0)\\n`;

async function bash(
  command: string,
): Promise<{ ok: boolean; out: string; blocked: { kind: string; target: string; message: string }[] }> {
  const r = await run(['tools', 'call', 'bash', '--args', JSON.stringify({ command }), '--json', ...common]);
  // The wall itself holds: a command refused because the sandbox is down proves nothing here.
  assert.doesNotMatch(r.out + r.err, /sandbox unavailable|sandbox is unavailable/, r.out + r.err);
  const res = JSON.parse(r.out) as {
    ok: boolean;
    content?: { exitCode: number };
    error?: { details?: { blocked?: { kind: string; target: string; message: string }[] } };
  };
  // ok: the command ended with 0, and nothing was blocked or moved aside.
  return { ok: res.ok && res.content?.exitCode === 0, out: r.out + r.err, blocked: res.error?.details?.blocked ?? [] };
}

/** What the user does next on the host, outside the wall: a commit and a status in the repository at `dir`. */
function hostGit(dir: string): void {
  git(dir, 'commit', '-q', '--allow-empty', '-m', 'host');
  git(dir, 'status', '--short');
}

const planted = (): string[] => readdirSync(root).filter((f) => f.startsWith('canary'));

before(async () => {
  mkdirSync(home, { recursive: true });
  mkdirSync(upstream);
  git(upstream, 'init', '-q');
  git(upstream, 'commit', '-q', '--allow-empty', '-m', 'up');
  mkdirSync(join(ws, 'sub', 'repo'), { recursive: true });
  git(ws, 'init', '-q');
  git(join(ws, 'sub', 'repo'), 'init', '-q');
  git(join(ws, 'sub', 'repo'), 'commit', '-q', '--allow-empty', '-m', 'nested');
  mkdirSync(join(ws, 'sub', 'nohooks'));
  git(join(ws, 'sub', 'nohooks'), 'init', '-q');
  rmSync(join(ws, 'sub', 'nohooks', '.git', 'hooks'), { recursive: true });
  git(ws, 'submodule', 'add', '-q', upstream, 'lib');
  git(ws, 'commit', '-q', '-m', 'with a submodule');
  assert.ok(existsSync(join(ws, '.git', 'modules', 'lib', 'hooks')));
  writeFileSync(join(ws, 'a.txt'), 'a\n');
  // The gate's analysis off: every bash command is allowed by the user's rule.
  assert.equal((await run(['policy', 'rules', 'add', 'allow', '--tool', 'bash', ...common])).code, 0);
});

const refused: [string, string, string][] = [
  [
    'a nested repository',
    `printf '${hook}' > sub/repo/.git/hooks/pre-commit && chmod +x sub/repo/.git/hooks/pre-commit`,
    'sub/repo/.git/hooks/pre-commit',
  ],
  ['a nested repository', `git -C sub/repo config core.fsmonitor 'touch ${canary}-fsmonitor; false'`, ''],
  [
    "a submodule's git dir",
    `printf '${hook}' > .git/modules/lib/hooks/pre-commit && chmod +x .git/modules/lib/hooks/pre-commit`,
    '.git/modules/lib/hooks/pre-commit',
  ],
  ["a submodule's git dir", `git -C lib config core.hooksPath ../../evil`, ''],
];

for (const [where, command, file] of refused) {
  test(`a command cannot change the hooks or settings of ${where}: ${command.slice(0, 40)}…`, async () => {
    const r = await bash(command);
    assert.equal(r.ok, false, r.out);
    if (file) assert.equal(existsSync(join(ws, file)), false, r.out);
    // Said as what the wall blocked, not only as the program's failure: a hook read-only, a config busy.
    assert.ok(
      r.blocked.some((b) =>
        file ? b.kind === 'write' && b.target === join(ws, file) : b.kind === 'write' && /is protected/.test(b.message),
      ),
      r.out,
    );
    assert.doesNotMatch(git(join(ws, 'sub', 'repo'), 'config', '--list', '--local'), /fsmonitor/);
    assert.doesNotMatch(git(join(ws, 'lib'), 'config', '--list', '--local'), /hookspath/i);
  });
}

const swept: [string, string, string[]][] = [
  [
    'hooks in a nested repository that had none',
    `mkdir sub/nohooks/.git/hooks && printf '${hook}' > sub/nohooks/.git/hooks/pre-commit && chmod +x sub/nohooks/.git/hooks/pre-commit`,
    ['sub/nohooks/.git/hooks'],
  ],
  [
    'a new nested repository',
    `git init -q fresh && printf '${hook}' > fresh/.git/hooks/pre-commit && chmod +x fresh/.git/hooks/pre-commit && ` +
      `git -C fresh config core.fsmonitor 'touch ${canary}-fsmonitor; false'`,
    ['fresh/.git/hooks', 'fresh/.git/config'],
  ],
  [
    'a git dir a .git file points at',
    `git init -q --separate-git-dir=gitdir other && printf '${hook}' > gitdir/hooks/pre-commit && chmod +x gitdir/hooks/pre-commit`,
    ['gitdir/hooks'],
  ],
  [
    "a new submodule's git dir under .git/modules",
    `git init -q --separate-git-dir=.git/modules/planted planted && git -C planted config core.hooksPath ../evil`,
    ['.git/modules/planted/config'],
  ],
];

for (const [what, command, targets] of swept) {
  test(`${what}, made by a command, is moved aside and said`, async () => {
    const r = await bash(command);
    assert.equal(r.ok, false, r.out);
    for (const t of targets) {
      assert.equal(existsSync(join(ws, t)), false, `${t}: ${r.out}`);
      assert.ok(
        r.blocked.some((b) => b.target === join(ws, t) && /moved aside to /.test(b.message)),
        `${t} not said: ${r.out}`,
      );
      const dir = join(ws, t, '..');
      assert.equal(readdirSync(dir).filter((f) => f.startsWith(`${t.split('/').pop()}.blocked-`)).length, 1);
    }
  });
}

test('ordinary git in nested repositories still works inside the wall: commit, clone', async () => {
  const r = await bash(
    `git -C sub/repo -c user.name=t -c user.email=t@t commit -q --allow-empty -m inside && ` +
      `git clone -q sub/repo cloned && git -C cloned log --oneline`,
  );
  assert.equal(r.ok, true, r.out);
  assert.deepEqual(r.blocked, []);
  assert.match(git(join(ws, 'sub', 'repo'), 'log', '--oneline'), /inside/);
  assert.ok(existsSync(join(ws, 'cloned', '.git', 'config')));
});

test("afterwards the user's git on the host runs nothing a command planted", () => {
  for (const dir of ['sub/repo', 'sub/nohooks', 'lib', 'fresh', 'other', 'planted', 'cloned', '.'])
    if (existsSync(join(ws, dir))) hostGit(join(ws, dir));
  assert.deepEqual(planted(), []);
});

test('a write refused as busy names the protected path, or the words printed when several fit', () => {
  const protect = ['/w/.git/config', '/w/sub/.git/config', '/w/.git/modules/lib/config', '/w/.workbuddy'];
  const of = (stderr: string) =>
    blockedOf({ violations: [], stderr, cwd: '/w', denyRead: [], protect }).map((b) => b.target);
  assert.deepEqual(of('error: could not write config file .git/config: Device or resource busy'), ['.git/config']);
  assert.deepEqual(of('error: could not write config file /w/.git/modules/lib/config: Device or resource busy'), [
    '/w/.git/modules/lib/config',
  ]);
  assert.deepEqual(of("mv: cannot move '.workbuddy' to 'kept': Device or resource busy"), ['/w/.workbuddy']);
  // Not a path, and a busy path that is no protected one: nothing.
  assert.deepEqual(of('error: could not write config file config: Device or resource busy'), []);
  assert.deepEqual(of("umount: '/mnt/x': Device or resource busy"), []);
});
