import { test } from 'node:test';
import assert from 'node:assert/strict';
import { globCovers, permissionDiff } from '../../../main/core/policy/diff.js';
import type { Permissions } from '../../../main/core/policy/permissions.js';

const perms = (p: Partial<Permissions>): Permissions => ({
  tools: [],
  commands: {},
  network: false,
  read: [],
  write: [],
  declared: 'permissions',
  ...p,
});

test('an update that quietly turns the network on or adds a tool, a command or a path is a widening', () => {
  const old = perms({ tools: ['read_file'], read: ['docs/**'] });
  assert.equal(permissionDiff(old, perms({ tools: ['read_file'], read: ['docs/**'], network: true })).widened, true);
  assert.equal(permissionDiff(old, perms({ tools: ['read_file', 'write_file'], read: ['docs/**'] })).widened, true);
  const w = permissionDiff(old, perms({ tools: ['read_file'], read: ['docs/**'], write: ['out/**'] }));
  assert.deepEqual(w.addedWrite, ['out/**']);
  assert.deepEqual(w.lines, ['+ write out/**']);
  const cmd = permissionDiff(
    perms({ tools: ['bash'], commands: { bash: [{ text: 'git status', exact: false }] } as Permissions['commands'] }),
    perms({
      tools: ['bash'],
      commands: {
        bash: [
          { text: 'git status', exact: false },
          { text: 'git push', exact: false },
        ],
      } as Permissions['commands'],
    }),
  );
  assert.equal(cmd.widened, true);
  assert.deepEqual(cmd.addedCommands, ['bash(git push:*)']);
});

test('narrowing or restating what was already allowed is not a widening', () => {
  const old = perms({ read: ['**'], write: ['reports/**'] });
  const d = permissionDiff(old, perms({ read: ['docs/**', 'src/*.ts'], write: ['reports/2026/**'] }));
  assert.equal(d.widened, false, d.lines.join(', '));
  assert.equal(permissionDiff(old, old).widened, false);
});

test('glob coverage is conservative and never crosses the workspace / skill folder bases', () => {
  assert.equal(globCovers('docs/**', 'docs/a/b.md'), true);
  assert.equal(globCovers('docs/**', 'docsx/a.md'), false, 'a sibling folder sharing a prefix is not covered');
  assert.equal(globCovers('**', 'skill:templates/**'), false);
  assert.equal(globCovers('skill:**', 'skill:templates/**'), true);
  assert.equal(globCovers('docs/*.md', 'docs/**'), false);
});
