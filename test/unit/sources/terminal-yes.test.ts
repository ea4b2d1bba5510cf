// The terminal's yes for a held skill, as a user gives it: `knack skills add`, `sync` and `update` run as real
// processes on a pseudo-terminal (util-linux `script`), and the answer is typed into it. "y" installs the P1 skill
// or the widening update; "n" and end of input (Ctrl-D) leave nothing installed. Piped stdin is not a terminal: the
// CLI does not ask and installs nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir, skillMd } from '../../helpers/tmp.js';
import { makeRepo } from '../../helpers/git-repos.js';
import { cliArgs, KNACK_BIN, run } from '../../helpers/cli.js';

const hasScript = spawnSync('script', ['--version'], { stdio: 'ignore' }).status === 0;
const skip = hasScript ? false : 'util-linux `script` (a pseudo-terminal) is not installed here';

const root = tempDir('knack-tty-');
const repos = join(root, 'repos');
const tmp = join(root, 'tmp');
mkdirSync(tmp, { recursive: true });
let n = 0;

const p1 = (name: string) =>
  skillMd({ name, description: `Fetches ${name}` }, '# Fetch\n\n```bash\ncurl -s https://api.example.com/data\n```\n');
const withNetwork = (name: string, network: boolean) =>
  skillMd(`name: ${name}\ndescription: Tidies ${name}\npermissions:\n  tools: [read_file]\n  network: ${network}`);

/** A fresh home, data folder and workspace; the user's tier and lock. */
function env() {
  const base = join(root, `env-${++n}`);
  const home = join(base, 'home');
  const ws = join(base, 'ws');
  mkdirSync(ws, { recursive: true });
  return {
    home,
    data: join(base, 'data'),
    ws,
    tier: join(home, '.workbuddy', 'skills'),
    lock: join(home, '.workbuddy', 'skills.lock.json'),
  };
}
type Env = ReturnType<typeof env>;

const QUESTION = '[y/N] ';
/** What is typed at the question: a line, or Ctrl-D (end of input on a terminal). */
type Answer = 'y' | 'n' | 'eof';

/**
 * Run `knack ARGS` on a pseudo-terminal and type `answer` at each yes/no question; the process's code and everything
 * the terminal showed (stdout and stderr together, as on a screen).
 */
function onTerminal(
  e: Env,
  args: string[],
  answer: Answer,
): Promise<{ code: number | null; screen: string; asked: number }> {
  const argv = [process.execPath, KNACK_BIN, ...args, ...cliArgs(e)];
  // Every word is a plain path or name made here; quoted for the shell `script -c` runs anyway.
  const cmd = argv.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const child = spawn('script', ['-q', '-e', '-f', '-c', cmd, '/dev/null'], {
    env: { ...process.env, TMPDIR: tmp, TERM: 'dumb' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let screen = '';
  let asked = 0;
  child.stdout.on('data', (b: Buffer) => {
    screen += b.toString('utf8');
    const questions = screen.split(QUESTION).length - 1;
    while (asked < questions) {
      asked++;
      child.stdin.write(answer === 'eof' ? '\x04' : `${answer}\r`);
    }
  });
  child.stderr.on('data', (b: Buffer) => void (screen += b.toString('utf8')));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      child.stdin.destroy();
      resolve({ code, screen, asked });
    });
  });
}

/** `knack ARGS` with stdin a pipe holding "y": not a terminal. */
function piped(e: Env, args: string[]) {
  return spawnSync(process.execPath, [KNACK_BIN, ...args, ...cliArgs(e)], {
    input: 'y\ny\n',
    encoding: 'utf8',
    env: { ...process.env, TMPDIR: tmp },
  });
}

const lockNames = (e: Env) =>
  existsSync(e.lock) ? Object.keys(JSON.parse(readFileSync(e.lock, 'utf8')).skills as object) : [];
const staged = (e: Env) => (existsSync(join(e.data, 'fetched')) ? readdirSync(join(e.data, 'fetched')) : []);

const risky = makeRepo(repos, 'risky', { 'SKILL.md': p1('getter') });

test('add: a P1 skill is installed after "y" typed at the terminal, and recorded in the lock', { skip }, async () => {
  const e = env();
  const r = await onTerminal(e, ['skills', 'add', risky.url], 'y');
  assert.equal(r.asked, 1, r.screen);
  assert.match(r.screen, /getter: P1 — needs your approval/);
  assert.match(r.screen, /Install getter despite the P1 findings above\? \[y\/N\]/);
  assert.equal(r.code, 0, r.screen);
  assert.ok(existsSync(join(e.tier, 'getter', 'SKILL.md')));
  assert.deepEqual(lockNames(e), ['getter']);
  assert.deepEqual(staged(e), []);
});

for (const answer of ['n', 'eof'] as const) {
  test(
    `add: after ${answer === 'n' ? '"n"' : 'Ctrl-D'} at the terminal the P1 skill is not installed`,
    { skip },
    async () => {
      const e = env();
      const r = await onTerminal(e, ['skills', 'add', risky.url], answer);
      assert.equal(r.asked, 1, r.screen);
      assert.equal(r.code, 1, r.screen);
      assert.match(r.screen, /held for approval/);
      assert.doesNotMatch(r.screen, /Aborted/, 'end of input is a no, not an error');
      assert.ok(!existsSync(join(e.tier, 'getter')));
      assert.deepEqual(lockNames(e), []);
    },
  );
}

test('add with stdin piped (not a terminal): nothing is asked and the P1 skill is held', { skip }, () => {
  const e = env();
  const r = piped(e, ['skills', 'add', risky.url]);
  assert.equal(r.status, 1, r.stderr);
  assert.doesNotMatch(r.stdout + r.stderr, /\[y\/N\]/);
  assert.match(r.stderr, /held for approval/);
  assert.ok(!existsSync(join(e.tier, 'getter')));
});

test(
  'sync from a lock naming a P1 skill in a fresh home: "n" installs nothing, "y" installs it',
  { skip },
  async () => {
    const first = env();
    // The lock to sync from: made in-process (the terminal's yes to `add` is the first test's).
    assert.equal((await run(['skills', 'add', risky.url, ...cliArgs(first)], true)).code, 0);
    const lockText = readFileSync(first.lock, 'utf8');
    for (const answer of ['n', 'y'] as const) {
      const fresh = env();
      mkdirSync(join(fresh.home, '.workbuddy'), { recursive: true });
      writeFileSync(fresh.lock, lockText);
      const r = await onTerminal(fresh, ['skills', 'sync'], answer);
      assert.equal(r.asked, 1, r.screen);
      assert.equal(existsSync(join(fresh.tier, 'getter', 'SKILL.md')), answer === 'y', r.screen);
      assert.equal(r.code, answer === 'y' ? 0 : 1, r.screen);
      assert.equal(readFileSync(fresh.lock, 'utf8'), lockText, 'sync never rewrites the lock it installs from');
    }
  },
);

test(
  'update that widens permissions: "n" and Ctrl-D keep the installed version, "y" installs it',
  { skip },
  async () => {
    const e = env();
    const repo = makeRepo(repos, 'tidy', { 'SKILL.md': withNetwork('tidy', false) });
    // Installed in-process: only the update is typed at the terminal.
    const added = await run(['skills', 'add', repo.url, ...cliArgs(e)], false);
    assert.equal(added.code, 0, `a clean skill asks nothing: ${added.err}`);
    const widening = repo.commit({ 'SKILL.md': withNetwork('tidy', true) });
    for (const answer of ['n', 'eof'] as const) {
      const r = await onTerminal(e, ['skills', 'update'], answer);
      assert.equal(r.asked, 1, r.screen);
      assert.match(r.screen, /network/);
      assert.doesNotMatch(r.screen, /Aborted/, 'end of input is a no, not an error');
      assert.match(r.screen, /held for approval/);
      assert.equal(r.code, 1, r.screen);
      assert.match(readFileSync(join(e.tier, 'tidy', 'SKILL.md'), 'utf8'), /network: false/);
    }
    const yes = await onTerminal(e, ['skills', 'update'], 'y');
    assert.equal(yes.asked, 1, yes.screen);
    assert.equal(yes.code, 0, yes.screen);
    assert.match(readFileSync(join(e.tier, 'tidy', 'SKILL.md'), 'utf8'), /network: true/);
    assert.equal(JSON.parse(readFileSync(e.lock, 'utf8')).skills.tidy.commit, widening);
  },
);
