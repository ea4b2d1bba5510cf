// `git checkout X` discards the uncommitted changes of X when X is a path and not a branch (git resolves it so), and
// the sandbox does not stop it (it stays in the workspace): with the sandbox up, the gate asks about it as it asks
// about `git checkout -- X`, while a plain branch switch runs without a question. A real git repository: git itself
// shows what each line does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tmp.js';
import { DEFAULT_SETTINGS, type Settings } from '../../../main/core/config/settings.js';
import { ceilingFrom, type WallView } from '../../../main/core/policy/ceiling.js';
import { createGate } from '../../../main/core/policy/gate.js';
import { accessForArgs } from '../../../main/core/policy/tool-table.js';

const up: WallView = { mode: 'auto', available: true, reason: '' };

function repo(): string {
  const dir = tempDir('knack-checkout-');
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: dir, stdio: 'pipe' });
  git('init', '-q', '-b', 'main');
  mkdirSync(join(dir, 'src'));
  writeFileSync(join(dir, 'notes.txt'), 'committed\n');
  writeFileSync(join(dir, 'src', 'app.ts'), 'committed\n');
  writeFileSync(join(dir, 'both'), 'committed\n');
  git('add', '.');
  git('commit', '-q', '-m', 'one');
  git('branch', 'feature');
  git('branch', 'both');
  // Work not committed yet: what a checkout of these paths throws away.
  writeFileSync(join(dir, 'notes.txt'), 'uncommitted\n');
  writeFileSync(join(dir, 'src', 'app.ts'), 'uncommitted\n');
  return dir;
}

function gateOver(ws: string) {
  const settings: Settings = structuredClone(DEFAULT_SETTINGS);
  return createGate({
    ceiling: { ...ceilingFrom(settings, ws, []), wall: () => up },
    rules: () => [],
    skill: () => undefined,
  });
}
const verdict = (ws: string, command: string) => {
  const args = { command };
  const d = gateOver(ws).authorize(
    { tool: 'bash', args, access: accessForArgs('bash', args) },
    { kind: 'agent', activeSkills: [] },
  );
  return { verdict: d.verdict, reason: d.reason };
};

test('git checkout of an existing path without -- asks; a branch switch does not', () => {
  const ws = repo();
  for (const c of [
    'git checkout notes.txt',
    'git checkout src',
    'git checkout src/app.ts',
    'git checkout ./notes.txt',
    'git checkout both',
    'git checkout feature notes.txt',
    'git checkout main -- src',
    'git checkout .',
    'git checkout -- .',
    'git checkout -p',
    'git checkout --patch notes.txt',
    'git checkout --ours notes.txt',
    'git -C src checkout app.ts',
    'cd src && git checkout app.ts',
    'git switch --discard-changes feature',
    'git switch -f feature',
  ]) {
    const d = verdict(ws, c);
    assert.equal(d.verdict, 'ask', `${c}: ${d.reason}`);
    assert.match(d.reason, /protects the machine, not your uncommitted work/, c);
  }
  for (const c of [
    'git checkout feature',
    'git checkout -b topic',
    'git checkout -',
    'git switch feature',
    'git checkout missing.txt',
  ])
    assert.equal(verdict(ws, c).verdict, 'allow', c);
});

test('git itself reads `git checkout PATH` as discarding that path’s changes, and `git checkout BRANCH` as a switch', () => {
  const ws = repo();
  execFileSync('git', ['checkout', 'notes.txt'], { cwd: ws, stdio: 'pipe' });
  assert.equal(readFileSync(join(ws, 'notes.txt'), 'utf8'), 'committed\n', 'the uncommitted change is gone');
  execFileSync('git', ['checkout', 'feature'], { cwd: ws, stdio: 'pipe' });
  assert.equal(readFileSync(join(ws, 'src', 'app.ts'), 'utf8'), 'uncommitted\n', 'a switch kept the change');
});
