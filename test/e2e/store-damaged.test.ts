// A damaged knack.db seen from the window, in Debian's Chromium through serve mode: the file is set aside whole, the
// server's log names it in one line, and a banner with its path stays over every view, in English and in Chinese,
// until its button acknowledges it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { journey, skip } from './journey.js';

const GARBLED = 'a sync tool wrote this over the database\n'.repeat(200);

const app = journey({
  name: 'damaged',
  model: false,
  prepare: ({ dataDir }) => {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(join(dataDir, 'knack.db'), GARBLED);
  },
  ready: (a) => a.until(async () => (await a.page.title()).startsWith('damaged-project — ')),
});
const { dataDir } = app;

const banner = () => app.page.locator('.store-banner');

test(
  'a garbled knack.db: set aside whole, named in the log, and a banner with its path in both languages',
  { skip },
  async () => {
    await app.until(async () => (await banner().count()) === 1);
    const text = await banner().innerText();
    const moved = /set aside whole as (\S+knack\.db\.damaged-\d{8}T\d{6}Z)/.exec(text)?.[1];
    assert.ok(moved, text);
    assert.match(text, /every tool call asks/);
    assert.equal(readFileSync(moved, 'utf8'), GARBLED, 'the damaged file is kept byte for byte');
    assert.ok(existsSync(join(dataDir, 'knack.db')), 'a new database took its place');
    // One line in the server's log names it.
    assert.equal(
      app.served
        .stderr()
        .split('\n')
        .filter((l) => l.includes(moved)).length,
      1,
      app.served.stderr(),
    );
    // Another view: the banner stays.
    await app.page.getByRole('button', { name: 'Settings', exact: true }).click();
    assert.equal(await banner().count(), 1);
    // In Chinese, with the same path.
    await app.page.getByRole('button', { name: 'Switch language to 中文' }).click();
    await app.until(async () => (await banner().innerText()).includes('数据库已损坏'));
    assert.ok((await banner().innerText()).includes(moved));
    // Its button acknowledges it (no command line): the banner goes, the engine agrees, the file set aside stays.
    await banner().getByRole('button', { name: '已知晓，使用新的数据库' }).click();
    await app.until(async () => (await banner().count()) === 0);
    const r = await app.knack(['store', 'status', '--json']);
    assert.deepEqual((JSON.parse(r.out) as { damage: unknown[] }).damage, [], r.err);
    assert.equal(readFileSync(moved, 'utf8'), GARBLED, 'the damaged file stays where it is');
    await app.page.reload();
    await app.until(async () => (await app.page.title()).startsWith('damaged-project — '));
    assert.equal(await banner().count(), 0, 'acknowledged for good, not only in this window');
  },
);
