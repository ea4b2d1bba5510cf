// `skills lint PATH` on paths that are neither a SKILL.md nor a folder: one clear finding naming the path.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tmp.js';
import { lintPaths } from '../../../main/core/skills/catalog/lint.js';

test('lint on a SKILL.md that is a named pipe says it is not a regular file (not a confusing folder error)', () => {
  const dir = join(tempDir(), 'piped');
  mkdirSync(dir);
  const fifo = join(dir, 'SKILL.md');
  execFileSync('mkfifo', [fifo]);
  for (const p of [fifo, dir]) {
    const r = lintPaths([p]);
    assert.equal(r.errors, 1, JSON.stringify(r));
    assert.equal(r.warnings, 0, JSON.stringify(r));
    const all = [...r.diagnostics, ...r.skills.flatMap((s) => s.diagnostics)];
    assert.match(all[0]?.message ?? '', /not a regular file/);
    assert.equal(all[0]?.file, fifo);
  }
});
