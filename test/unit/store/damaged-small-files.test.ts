// The small JSON files beside the database are never written over when damaged: the desktop app's encrypted key
// file (keys.json) and the list of recent workspaces are moved aside, kept as they were, before a new one is written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tmp.js';
import { safeKeyStore } from '../../../main/electron/key-store.js';
import { addRecent, listRecent } from '../../../main/core/service/recent.js';

// A stand-in for Electron's safeStorage: reversible, so what is stored can be read back.
const cipher = {
  isEncryptionAvailable: () => true,
  encryptString: (plain: string) => Buffer.from([...plain].reverse().join('')),
  decryptString: (b: Buffer) => [...b.toString()].reverse().join(''),
};

function asideOf(dir: string, name: string): string[] {
  return readdirSync(dir).filter((f) => f.startsWith(`${name}.damaged-`));
}

test('a damaged keys.json is moved aside, not written over, when a key is saved', () => {
  const dir = tempDir();
  const file = join(dir, 'keys.json');
  // One stored key, then a hand edit that broke the JSON (a trailing comma).
  const damaged = `{\n  "anthropic": "${cipher.encryptString('sk-ant-kept').toString('base64')}",\n}\n`;
  writeFileSync(file, damaged);
  const keys = safeKeyStore(dir, cipher);
  assert.equal(keys.get('anthropic'), undefined);
  keys.set('deepseek', 'sk-deepseek-new');
  assert.equal(keys.get('deepseek'), 'sk-deepseek-new');
  const aside = asideOf(dir, 'keys.json');
  assert.equal(aside.length, 1);
  assert.equal(readFileSync(join(dir, aside[0]!), 'utf8'), damaged);
});

test('removing a key from a damaged keys.json moves it aside', () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'keys.json'), '[1, 2');
  safeKeyStore(dir, cipher).delete('anthropic');
  assert.deepEqual(asideOf(dir, 'keys.json').length, 1);
  assert.deepEqual(readdirSync(dir).includes('keys.json'), false);
});

test('a keys.json that reads well is kept: saving a second key keeps the first', () => {
  const dir = tempDir();
  const keys = safeKeyStore(dir, cipher);
  keys.set('anthropic', 'sk-ant-1');
  keys.set('openai', 'sk-openai-2');
  assert.equal(keys.get('anthropic'), 'sk-ant-1');
  assert.equal(asideOf(dir, 'keys.json').length, 0);
});

test('a damaged list of recent workspaces is moved aside and a new one started', () => {
  const dir = tempDir();
  const file = join(dir, 'recent-workspaces.json');
  writeFileSync(file, '[{"path": "/home/me/a", "openedAt": 1}');
  assert.deepEqual(listRecent(dir), []);
  addRecent(dir, '/home/me/b', 2);
  assert.deepEqual(
    listRecent(dir).map((e) => e.path),
    ['/home/me/b'],
  );
  const aside = asideOf(dir, 'recent-workspaces.json');
  assert.equal(aside.length, 1);
  assert.equal(readFileSync(join(dir, aside[0]!), 'utf8'), '[{"path": "/home/me/a", "openedAt": 1}');
});
