// A protected path that did not exist when a long command started (`.workbuddy`) is swept after it; what Knack itself
// wrote there meanwhile (a project skill installed, a settings file saved) stays, under the real wall, while what the
// command planted beside or inside it is moved aside. What the user made by hand cannot be told from the command's:
// it is moved aside too, and the message says how to get it back.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { wallFolders } from '../../helpers/wall-run.js';
import { writeTree } from '../../helpers/tmp.js';
import { cliArgs, run as knack } from '../../helpers/cli.js';
import { Wall } from '../../../main/core/contain/wall.js';
import { writeFileAtomic } from '../../../main/core/base/index.js';
import { openWorkspace } from '../../../main/core/workspace.js';
import { resolvePaths } from '../../../main/core/config/paths.js';

const { root, home, ws } = wallFolders('knack-own-writes-');
const data = join(home, 'data');
const walls: Wall[] = [];
after(async () => {
  for (const w of walls) await w.close();
});

async function wall(workspace = ws): Promise<Wall> {
  mkdirSync(workspace, { recursive: true });
  const w = await Wall.open({ workspace, home, dataDir: data }, 'required');
  walls.push(w);
  assert.equal(w.available, true, `the sandbox must be available here: ${w.status().reason}`);
  return w;
}

/**
 * Start `command` in the wall; it waits (inside) until `file` exists, so what the test does meanwhile happens while
 * it runs, with no timing. Returns what the wall blocked once it has ended.
 */
async function whileRunning(w: Wall, file: string, then: string, during: () => Promise<void> | void) {
  const command = `i=0; while [ ! -e ${file} ] && [ $i -lt 1200 ]; do sleep 0.1; i=$((i+1)); done; ${then}`;
  const p = await w.spawn(command, { cwd: w.place.workspace });
  let stderr = '';
  p.child.stderr!.on('data', (b: Buffer) => (stderr += b));
  p.child.stdout!.resume();
  const closed = new Promise<number | null>((r) => p.child.once('close', r));
  await during();
  const code = await closed;
  return { code, stderr, blocked: await p.finish(stderr) };
}

const aside = (dir: string, name: string): string[] => readdirSync(dir).filter((f) => f.startsWith(`${name}.blocked-`));

test('a project skill Knack installs while a command runs stays; what the command plants beside it is moved aside', async () => {
  const w = await wall();
  assert.equal(existsSync(join(ws, '.workbuddy')), false);
  writeTree(root, { 'src/tidy/SKILL.md': '---\nname: tidy\ndescription: Tidies the desk.\n---\nTidy up.\n' });
  const r = await whileRunning(
    w,
    '.workbuddy/skills/tidy/SKILL.md',
    'mkdir -p .workbuddy/skills/planted && echo "---" > .workbuddy/skills/planted/SKILL.md && ' +
      'echo evil > .workbuddy/skills/tidy/evil.sh',
    async () => {
      const installed = await knack([
        'skills',
        'install',
        join(root, 'src/tidy'),
        '--scope',
        'project',
        '--yes',
        ...cliArgs({ ws, home, data }),
      ]);
      assert.equal(installed.code, 0, installed.out + installed.err);
    },
  );
  assert.equal(r.code, 0, r.stderr);
  const skills = join(ws, '.workbuddy', 'skills');
  assert.equal(
    readFileSync(join(skills, 'tidy', 'SKILL.md'), 'utf8'),
    readFileSync(join(root, 'src/tidy/SKILL.md'), 'utf8'),
  );
  assert.deepEqual(aside(ws, '.workbuddy'), []);
  assert.equal(existsSync(join(skills, 'planted')), false);
  assert.equal(aside(skills, 'planted').length, 1);
  assert.equal(existsSync(join(skills, 'tidy', 'evil.sh')), false);
  assert.equal(aside(join(skills, 'tidy'), 'evil.sh').length, 1);
  assert.deepEqual(r.blocked.map((b) => b.target).sort(), [join(skills, 'planted'), join(skills, 'tidy', 'evil.sh')]);
  const list = await knack(['skills', 'list', '--json', ...cliArgs({ ws, home, data })]);
  assert.match(list.out, /"tidy"/);
  assert.doesNotMatch(list.out, /planted/);
});

test('project settings Knack saves while a command runs stay; a change the command makes to them is moved aside', async () => {
  const w = await wall();
  const settings = join(ws, '.workbuddy', 'settings.json');
  const r = await whileRunning(w, '.workbuddy/settings.json', 'echo go', () =>
    writeFileAtomic(settings, '{"policy":{}}\n'),
  );
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(r.blocked, []);
  assert.equal(readFileSync(settings, 'utf8'), '{"policy":{}}\n');

  // A change the command makes to Knack's file once it is written: that file is moved aside, Knack's kept beside it.
  const again = join(root, 'again');
  const w2 = await wall(again);
  const saved = join(again, '.workbuddy', 'settings.json');
  const r2 = await whileRunning(
    w2,
    '.workbuddy/settings.json',
    `echo '{"policy":{"ceiling":{"network":true}}}' > ${saved}`,
    () => writeFileAtomic(saved, '{"policy":{}}\n'),
  );
  assert.equal(r2.code, 0, r2.stderr);
  assert.equal(existsSync(saved), false);
  const moved = aside(join(again, '.workbuddy'), 'settings.json');
  assert.equal(moved.length, 1, JSON.stringify(r2.blocked));
  assert.match(readFileSync(join(again, '.workbuddy', moved[0]!), 'utf8'), /network/);
  assert.deepEqual(
    r2.blocked.map((b) => b.target),
    [saved],
  );
});

test('what the user makes by hand while a command runs is moved aside, and the message says how to get it back', async () => {
  const user = join(root, 'user');
  const w = await wall(user);
  const r = await whileRunning(w, '.workbuddy/settings.json', 'true', () => {
    mkdirSync(join(user, '.workbuddy'));
    writeFileSync(join(user, '.workbuddy', 'settings.json'), '{"policy":{}}\n');
  });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(existsSync(join(user, '.workbuddy')), false);
  assert.equal(r.blocked.length, 1, JSON.stringify(r.blocked));
  const message = r.blocked[0]!.message;
  assert.match(message, /moved aside to \.workbuddy\.blocked-/);
  assert.match(message, /If you made it yourself, move it back once no command runs/);
  const mv = /mv '[^']+' '[^']+'/.exec(message);
  assert.ok(mv, message);
  execSync(mv[0], { cwd: user });
  assert.equal(readFileSync(join(user, '.workbuddy', 'settings.json'), 'utf8'), '{"policy":{}}\n');
});

test(
  'in an open workspace, the skill Knack installed during a command is listed once the command ends',
  { timeout: 120_000 },
  async () => {
    const dir = join(root, 'opened');
    mkdirSync(dir);
    const opened = await openWorkspace({ paths: resolvePaths({ home, dataDir: data }), workspace: dir, audit: false });
    try {
      const w = await opened.wall();
      assert.equal(w.available, true, w.status().reason);
      const names = () => opened.catalog.entries().map((e) => e.manifest.name);
      writeTree(root, { 'src2/neat/SKILL.md': '---\nname: neat\ndescription: Keeps things neat.\n---\nBe neat.\n' });
      let listed!: Promise<void>;
      const r = await whileRunning(w, '.workbuddy/skills/neat/SKILL.md', 'true', async () => {
        const installed = await knack([
          'skills',
          'install',
          join(root, 'src2/neat'),
          '--scope',
          'project',
          '--yes',
          ...cliArgs({ ws: dir, home, data }),
        ]);
        assert.equal(installed.code, 0, installed.out + installed.err);
        // While the command runs, what is below .workbuddy may be its work: not listed yet.
        await opened.catalog.refresh();
        assert.ok(!names().includes('neat'), JSON.stringify(names()));
        listed = new Promise((done) => opened.catalog.on('change', () => names().includes('neat') && done()));
      });
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(r.blocked, []);
      // Nothing on disk changes when the command ends; the wall says the path is settled and the catalog reads it.
      // Bounded, so a missing refresh fails here rather than hanging the file (the wall's proxy keeps it alive).
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        listed,
        new Promise((_, fail) => {
          timer = setTimeout(() => fail(new Error('the catalog was not read again once the command ended')), 30_000);
        }),
      ]).finally(() => clearTimeout(timer));
      assert.ok(names().includes('neat'));
    } finally {
      await opened.close();
    }
  },
);
