// Protected paths in the workspace (.workbuddy, .git/hooks, .git/config, .mcp.json, …) under the real wall: a running
// command leaves no stub of a missing one on the host, and one it creates is moved aside (kept, never deleted) and
// reported as a blocked write, so a project skill or a git hook it plants never takes effect.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tmp.js';
import { cliArgs, run as knack } from '../../helpers/cli.js';
import { Wall } from '../../../main/core/contain/wall.js';
import { cwdProtect, wallConfig } from '../../../main/core/contain/profile.js';

const root = tempDir('knack-protect-');
const home = join(root, 'home');
mkdirSync(home, { recursive: true });
const dataDir = join(home, 'data');
const walls: Wall[] = [];
after(async () => {
  for (const w of walls) await w.close();
});

let n = 0;
async function workspace(files: Record<string, string> = {}): Promise<{ ws: string; wall: Wall }> {
  const ws = join(root, `ws${n++}`);
  mkdirSync(ws, { recursive: true });
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(ws, rel, '..'), { recursive: true });
    writeFileSync(join(ws, rel), text);
  }
  const wall = await Wall.open({ workspace: ws, home, dataDir }, 'required');
  walls.push(wall);
  assert.equal(wall.available, true, `the sandbox must be available here: ${wall.status().reason}`);
  return { ws, wall };
}

async function run(wall: Wall, ws: string, command: string, during?: () => void) {
  const p = await wall.spawn(command, { cwd: ws });
  let stderr = '';
  p.child.stderr!.on('data', (b: Buffer) => (stderr += b));
  p.child.stdout!.resume();
  const closed = new Promise<number | null>((r) => p.child.once('close', r));
  if (during) {
    // The command prints `go` to stderr once it has started; check the host while it sleeps.
    while (!stderr.includes('go') && p.child.exitCode === null) await new Promise((r) => setTimeout(r, 50));
    during();
  }
  const code = await closed;
  return { code, stderr, blocked: await p.finish(stderr) };
}

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, encoding: 'utf8' });

test('a running command leaves no stub of a missing protected path in the workspace, during or after', async () => {
  const { ws, wall } = await workspace({ 'src/a.txt': 'a\n' });
  const r = await run(wall, ws, 'echo go >&2; sleep 2', () => {
    assert.deepEqual(readdirSync(ws).sort(), ['src']);
  });
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(r.blocked, []);
  assert.deepEqual(readdirSync(ws).sort(), ['src']);
});

test('in a git workspace no stub appears in .git either, and the existing hooks stay unwritable', async () => {
  const { ws, wall } = await workspace({ 'a.txt': 'a\n' });
  git(ws, 'init', '-q');
  const before = readdirSync(join(ws, '.git')).sort();
  const r = await run(wall, ws, 'echo go >&2; sleep 2', () => {
    assert.deepEqual(readdirSync(ws).sort(), ['.git', 'a.txt']);
    assert.deepEqual(readdirSync(join(ws, '.git')).sort(), before);
  });
  assert.equal(r.code, 0, r.stderr);
  const w = await run(wall, ws, 'echo "touch pwned" > .git/hooks/pre-commit');
  assert.notEqual(w.code, 0);
  assert.equal(existsSync(join(ws, '.git/hooks/pre-commit')), false);
});

test('a project skill a command creates is moved aside, kept, reported, and never listed', async () => {
  const { ws, wall } = await workspace();
  const skill = '---\nname: planted\ndescription: planted by a command\n---\nDo as I say.\n';
  const r = await run(
    wall,
    ws,
    `mkdir -p .workbuddy/skills/planted && printf '%s' '${skill}' > .workbuddy/skills/planted/SKILL.md`,
  );
  assert.equal(r.code, 0, r.stderr);
  assert.equal(existsSync(join(ws, '.workbuddy')), false);
  const aside = readdirSync(ws).filter((f) => f.startsWith('.workbuddy.blocked-'));
  assert.equal(aside.length, 1, readdirSync(ws).join(' '));
  assert.equal(readFileSync(join(ws, aside[0]!, 'skills/planted/SKILL.md'), 'utf8'), skill);
  assert.ok(
    r.blocked.some((b) => b.kind === 'write' && b.target === join(ws, '.workbuddy') && b.message.includes(aside[0]!)),
    JSON.stringify(r.blocked),
  );
  const list = await knack(['skills', 'list', '--json', ...cliArgs({ ws, home, data: dataDir })]);
  assert.doesNotMatch(list.out, /planted/);
});

test("a .workbuddy the user makes while Knack's own start probe runs is kept (the probe writes nothing)", async () => {
  const { ws, wall } = await workspace();
  // The wall's start probe goes through this same private door (`own`); a slow one shows the window it leaves.
  const own = wall as unknown as {
    spawnInside(c: string, o: { cwd: string }, readOnly: boolean, own: boolean): ReturnType<Wall['spawn']>;
  };
  const p = await own.spawnInside('echo go >&2; sleep 1', { cwd: ws }, false, true);
  let stderr = '';
  p.child.stderr!.on('data', (b: Buffer) => (stderr += b));
  const closed = new Promise((r) => p.child.once('close', r));
  while (!stderr.includes('go') && p.child.exitCode === null) await new Promise((r) => setTimeout(r, 50));
  mkdirSync(join(ws, '.workbuddy'));
  writeFileSync(join(ws, '.workbuddy', 'settings.json'), '{"policy":{}}');
  await closed;
  assert.deepEqual(await p.finish(stderr), []);
  assert.equal(readFileSync(join(ws, '.workbuddy', 'settings.json'), 'utf8'), '{"policy":{}}');
  assert.deepEqual(
    readdirSync(ws).filter((f) => f.includes('.blocked-')),
    [],
  );
});

test('git init inside the wall keeps a working repository; a hook or a config it plants is moved aside', async () => {
  // Both directions: an ordinary `git init` + commit keeps its .git as git made it…
  const plain = await workspace({ 'a.txt': 'a\n' });
  const ok = await run(
    plain.wall,
    plain.ws,
    'git init -q && git -c user.name=t -c user.email=t@t add a.txt && git -c user.name=t -c user.email=t@t commit -qm one',
  );
  assert.equal(ok.code, 0, ok.stderr);
  assert.deepEqual(ok.blocked, []);
  assert.match(git(plain.ws, 'log', '--oneline'), /one/);
  assert.ok(existsSync(join(plain.ws, '.git/config')));
  // …and a planted hook and fsmonitor never run when the user's git runs on the host afterwards.
  const { ws, wall } = await workspace({ 'a.txt': 'a\n' });
  const canary = join(root, `canary-${n}`);
  const r = await run(
    wall,
    ws,
    `git init -q && printf '#!/bin/sh\\ntouch ${canary}-hook\\n' > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit && ` +
      `git config core.fsmonitor 'touch ${canary}-fsmonitor; false'`,
  );
  assert.equal(r.code, 0, r.stderr);
  const targets = r.blocked.map((b) => b.target).sort();
  assert.deepEqual(targets, [join(ws, '.git/config'), join(ws, '.git/hooks')], JSON.stringify(r.blocked));
  git(ws, 'add', 'a.txt');
  git(ws, 'commit', '-qm', 'host commit');
  git(ws, 'status');
  assert.equal(existsSync(`${canary}-hook`), false);
  assert.equal(existsSync(`${canary}-fsmonitor`), false);
  const kept = readdirSync(join(ws, '.git')).filter((f) => f.startsWith('hooks.blocked-'));
  assert.equal(kept.length, 1);
  assert.match(readFileSync(join(ws, '.git', kept[0]!, 'pre-commit'), 'utf8'), /-hook/);
});

test('a .git file pointing elsewhere (a foreign git dir with hooks) is moved aside', async () => {
  const { ws, wall } = await workspace();
  const r = await run(wall, ws, `printf 'gitdir: /tmp/elsewhere\\n' > .git`);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(existsSync(join(ws, '.git')), false);
  assert.ok(
    r.blocked.some((b) => b.target === join(ws, '.git')),
    JSON.stringify(r.blocked),
  );
});

test('an empty folder or file a command makes at a protected name is harmless and stays', async () => {
  const { ws, wall } = await workspace();
  const r = await run(wall, ws, 'mkdir .husky && : > .envrc');
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(r.blocked, []);
  assert.ok(existsSync(join(ws, '.husky')) && existsSync(join(ws, '.envrc')));
});

test("Knack started inside the workspace: the runtime's own stubs (.bashrc, .vscode, …) are gone once it ends", async () => {
  const { ws, wall } = await workspace({ 'a.txt': 'a\n' });
  const cwd = process.cwd();
  process.chdir(ws);
  try {
    const r = await run(wall, ws, 'true');
    assert.equal(r.code, 0, r.stderr);
  } finally {
    process.chdir(cwd);
  }
  assert.deepEqual(readdirSync(ws).sort(), ['a.txt']);
});

test('Knack started in a subfolder of the workspace: shell and editor settings a command writes there are moved aside', async () => {
  const { ws, wall } = await workspace({ 'sub/a.txt': 'a\n', 'sub/.profile': 'kept\n' });
  const sub = join(ws, 'sub');
  const cwd = process.cwd();
  process.chdir(sub);
  try {
    const r = await run(
      wall,
      sub,
      'echo evil >> .profile; echo evil > .bashrc; mkdir .vscode && echo {} > .vscode/tasks.json',
    );
    const blocked = r.blocked.map((b) => b.target);
    assert.ok(
      blocked.includes(join(sub, '.bashrc')) && blocked.includes(join(sub, '.vscode')),
      JSON.stringify(r.blocked),
    );
  } finally {
    process.chdir(cwd);
  }
  assert.equal(readFileSync(join(sub, '.profile'), 'utf8'), 'kept\n');
  assert.equal(existsSync(join(sub, '.bashrc')), false);
  assert.equal(existsSync(join(sub, '.vscode')), false);
  assert.equal(readdirSync(sub).filter((f) => /^\.(bashrc|vscode)\.blocked-/.test(f)).length, 2);
});

test('Knack started outside the workspace (the window, from /): editor folders and shell start-up files are protected there too', async () => {
  const { ws, wall } = await workspace({ '.vscode/settings.json': '{}\n', '.profile': 'kept\n' });
  const cwd = process.cwd();
  process.chdir(root);
  try {
    // A task VS Code runs as the folder opens, an interpreter it starts, a run configuration, a login script.
    const r = await run(
      wall,
      ws,
      [
        `echo '{"python.defaultInterpreterPath":"/tmp/P"}' > .vscode/settings.json`,
        'mv .vscode .vscode-old && mkdir .vscode && echo {} > .vscode/tasks.json',
        'mkdir .idea && echo x > .idea/workspace.xml',
        'echo evil >> .profile; echo evil > .bashrc',
      ].join('; '),
    );
    const blocked = r.blocked.map((b) => b.target);
    for (const name of ['.idea', '.bashrc'])
      assert.ok(blocked.includes(join(ws, name)), `${name}: ${JSON.stringify(r.blocked)}`);
  } finally {
    process.chdir(cwd);
  }
  assert.equal(readFileSync(join(ws, '.vscode/settings.json'), 'utf8'), '{}\n');
  assert.equal(existsSync(join(ws, '.vscode/tasks.json')), false);
  assert.equal(existsSync(join(ws, '.vscode-old')), false);
  assert.equal(readFileSync(join(ws, '.profile'), 'utf8'), 'kept\n');
  for (const name of ['.idea', '.bashrc']) assert.equal(existsSync(join(ws, name)), false, name);
});

test("the runtime's nested scan is off wherever Knack runs; inside a write root Knack protects the runtime's names", () => {
  const place = { workspace: '/w/app', home: '/h', dataDir: '/h/data' };
  assert.deepEqual(wallConfig(place).ripgrep, { command: 'true' });
  const inside = cwdProtect('/w/app/sub', ['/w/app']);
  for (const name of ['.bashrc', '.gitconfig', '.vscode', '.idea', '.claude/commands', '.git/hooks', '.git/config'])
    assert.ok(inside.protect.includes(`/w/app/sub/${name}`), name);
  assert.deepEqual(inside.follow, ['/w/app/sub/.git']);
  assert.deepEqual(cwdProtect('/', ['/w/app']), { protect: [], follow: [] });
  assert.deepEqual(cwdProtect('/w', ['/w/app']), { protect: [], follow: [] });
});
