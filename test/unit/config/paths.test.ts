// KNACK_HOME names Knack's own folder (default ~/.knack), like CARGO_HOME or CODEX_HOME; the user tier stays under the
// user's home. The old reading (KNACK_HOME as a home folder) holds for one release, with a warning, so nothing is lost.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { resolvePaths, userSkillDirs } from '../../../main/core/config/paths.js';
import { tempDir } from '../../helpers/tmp.js';

/** process.env.HOME set to `home` while `fn` runs (os.homedir() reads it). */
function withHome<T>(home: string, fn: () => T): T {
  const saved = process.env.HOME;
  process.env.HOME = home;
  try {
    return fn();
  } finally {
    if (saved === undefined) delete process.env.HOME;
    else process.env.HOME = saved;
  }
}

test('KNACK_HOME is where the database lives, and the user tier stays under the real home', () => {
  const knack = join(tempDir(), '.knack');
  const paths = resolvePaths({}, { KNACK_HOME: knack });
  assert.equal(paths.dataDir, knack, 'the database goes to $KNACK_HOME/knack.db, not $KNACK_HOME/.knack/knack.db');
  assert.equal(paths.home, homedir());
  assert.equal(userSkillDirs(paths.home).workbuddy, join(homedir(), '.workbuddy', 'skills'));
});

test('without KNACK_HOME, Knack keeps its things in ~/.knack', () => {
  const home = tempDir();
  const paths = withHome(home, () => resolvePaths({}, {}));
  assert.equal(paths.home, home);
  assert.equal(paths.dataDir, join(home, '.knack'));
  // --home moves the user tier and the default folder with it.
  const other = tempDir();
  assert.equal(resolvePaths({ home: other }, {}).dataDir, join(other, '.knack'));
});

test('KNACK_DATA_DIR and --data-dir still name the data folder', () => {
  const knack = tempDir();
  const data = tempDir();
  assert.equal(resolvePaths({}, { KNACK_HOME: knack, KNACK_DATA_DIR: data }).dataDir, data);
  assert.equal(resolvePaths({ dataDir: data }, { KNACK_HOME: knack }).dataDir, data);
});

test('an install from before ~/.knack keeps its database where it is until ~/.knack exists', () => {
  const home = tempDir();
  const xdg = join(tempDir(), 'share');
  mkdirSync(join(xdg, 'knack'), { recursive: true });
  writeFileSync(join(xdg, 'knack', 'knack.db'), '');
  const env = { XDG_DATA_HOME: xdg };
  if (process.platform === 'linux')
    assert.equal(withHome(home, () => resolvePaths({}, env)).dataDir, join(xdg, 'knack'));
  mkdirSync(join(home, '.knack'));
  assert.equal(withHome(home, () => resolvePaths({}, env)).dataDir, join(home, '.knack'));
});

test('KNACK_HOME set to a folder laid out the old way is read the old way, with a warning naming the fix', async () => {
  const old = tempDir();
  mkdirSync(join(old, '.workbuddy', 'skills'), { recursive: true });
  mkdirSync(join(old, '.knack'));
  const warnings: Error[] = [];
  const listen = (w: Error): void => void warnings.push(w);
  process.on('warning', listen);
  try {
    const paths = resolvePaths({}, { KNACK_HOME: old });
    assert.equal(paths.home, old, 'user skills stay in $KNACK_HOME/.workbuddy/skills');
    assert.equal(paths.dataDir, join(old, '.knack'), 'the database stays in $KNACK_HOME/.knack');
    // process.emitWarning delivers on a later tick.
    await new Promise((r) => setImmediate(r));
  } finally {
    process.off('warning', listen);
  }
  const w = warnings.find((x) => (x as { code?: string }).code === 'KNACK_HOME_LEGACY');
  assert.ok(w, 'a KNACK_HOME_LEGACY warning');
  assert.ok(w.message.includes(`set KNACK_HOME=${join(old, '.knack')}`), w.message);
});
