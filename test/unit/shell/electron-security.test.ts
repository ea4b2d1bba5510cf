// The window's security decisions (Electron-free): CSP, navigation, external links, IPC senders, app:// paths,
// the key store's encryption at rest and the bilingual menu.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  allowNavigation,
  appFileFor,
  contentSecurityPolicy,
  externalLinkProblem,
  openableExternalUrl,
  senderProblem,
  serveContentSecurityPolicy,
} from '../../../main/electron/security.js';
import { menuLanguage, menuTemplate } from '../../../main/electron/menu.js';
import { safeKeyStore, type Cipher } from '../../../main/electron/key-store.js';
import { tempDir } from '../../helpers/tmp.js';

test('the CSP allows only the app itself: no inline or remote script, no eval, no framing, no connections in Electron', () => {
  const csp = contentSecurityPolicy();
  const d = Object.fromEntries(csp.split('; ').map((p) => [p.split(' ')[0], p.split(' ').slice(1).join(' ')]));
  assert.equal(d['default-src'], "'none'");
  assert.equal(d['script-src'], "'self'");
  assert.equal(d['connect-src'], "'none'");
  assert.equal(d['object-src'], "'none'");
  assert.equal(d['frame-ancestors'], "'none'");
  assert.equal(d['base-uri'], "'none'");
  assert.doesNotMatch(csp, /unsafe-eval|\*|https?:/);
  assert.match(serveContentSecurityPolicy(4321), /connect-src 'self' ws:\/\/127\.0\.0\.1:4321 ws:\/\/localhost:4321;/);
});

test('navigation stays inside app://knack; every other scheme, host or trick is refused', () => {
  assert.equal(allowNavigation('app://knack/index.html'), true);
  assert.equal(allowNavigation('app://knack/skills?x=1#y'), true);
  for (const url of [
    'file:///etc/passwd',
    'https://example.com',
    'http://127.0.0.1:1/',
    'javascript:alert(1)',
    'data:text/html,hi',
    'app://evil/index.html',
    'app://user:pw@knack/',
    'APP://knack.evil/',
    'about:blank',
    'not a url',
    'chrome://settings',
  ]) {
    assert.equal(allowNavigation(url), false, url);
  }
});

test('only plain https links to public host names open outside the app', () => {
  assert.equal(externalLinkProblem('https://docs.example.com/a?b=c'), undefined);
  const refused = {
    'http://example.com': /only https/,
    'file:///etc/passwd': /only https/,
    'smb://host/share': /only https/,
    'javascript:alert(1)': /only https/,
    'https://user:pw@example.com/': /credentials/,
    'https://192.168.1.1/': /IP address/,
    'https://[::1]/': /IP address/,
    'https://2130706433/': /public host|IP/,
    'https://router.local/': /local host/,
    'https://intranet/': /public host/,
    'https://localhost/': /public host/,
    [`https://example.com/${'a'.repeat(3000)}`]: /too long/,
  };
  for (const [url, why] of Object.entries(refused)) assert.match(externalLinkProblem(url) ?? 'ALLOWED', why, url);
  // What a new window's link becomes: the system browser for a checked https link, nothing for anything else.
  assert.equal(openableExternalUrl('https://example.com'), 'https://example.com/');
  assert.equal(openableExternalUrl('file:///x'), null);
});

test('IPC is answered only for the app window’s top frame on app://knack', () => {
  const app = new Set([7]);
  assert.equal(senderProblem({ url: 'app://knack/index.html', isMainFrame: true, webContentsId: 7 }, app), undefined);
  assert.match(senderProblem(null, app)!, /no sender frame/);
  assert.match(
    senderProblem({ url: 'app://knack/index.html', isMainFrame: false, webContentsId: 7 }, app)!,
    /subframe/,
  );
  assert.match(
    senderProblem({ url: 'app://knack/index.html', isMainFrame: true, webContentsId: 8 }, app)!,
    /not the app window/,
  );
  assert.match(
    senderProblem({ url: 'https://evil.example/', isMainFrame: true, webContentsId: 7 }, app)!,
    /not the app/,
  );
  assert.match(senderProblem({ url: 'file:///tmp/x.html', isMainFrame: true, webContentsId: 7 }, app)!, /not the app/);
});

test('app:// paths map into the renderer folder only; extension-less paths are the SPA', () => {
  assert.deepEqual(appFileFor('app://knack/assets/index-1.js'), { rel: 'assets/index-1.js' });
  assert.deepEqual(appFileFor('app://knack/'), { rel: 'index.html' });
  assert.deepEqual(appFileFor('app://knack/skills/git-commit'), { rel: 'index.html' });
  // The URL parser already folds %2e%2e segments at the root: what is left stays inside the folder.
  assert.deepEqual(appFileFor('app://knack/%2e%2e/%2e%2e/etc/secret.txt'), { rel: 'etc/secret.txt' });
  for (const url of [
    'app://knack/assets/..%2f..%2fpackage.json',
    'app://knack/a%5c..%5cb.js',
    'app://knack/a%00.js',
    'app://other/index.html',
    'app://knack/%E0%A4%A',
  ]) {
    assert.ok('problem' in appFileFor(url), url);
  }
});

test('the key store keeps keys encrypted at rest, readable only by the user, and never returns a foreign blob', () => {
  const dir = tempDir();
  // A reversible cipher standing in for the OS keychain: the test checks what lands on disk, not the OS's crypto.
  const cipher: Cipher = {
    isEncryptionAvailable: () => true,
    encryptString: (s) => Buffer.from(`enc:${Buffer.from(s).toString('hex')}`),
    decryptString: (b) => {
      const t = b.toString();
      if (!t.startsWith('enc:')) throw new Error('cannot decrypt');
      return Buffer.from(t.slice(4), 'hex').toString();
    },
  };
  const store = safeKeyStore(dir, cipher);
  store.set('anthropic', 'sk-ant-secret');
  const onDisk = readFileSync(join(dir, 'keys.json'), 'utf8');
  assert.doesNotMatch(onDisk, /sk-ant-secret/);
  if (process.platform !== 'win32') assert.equal(statSync(join(dir, 'keys.json')).mode & 0o077, 0);
  assert.equal(store.get('anthropic'), 'sk-ant-secret');
  assert.equal(store.get('openai'), undefined);
  const locked = safeKeyStore(dir, { ...cipher, isEncryptionAvailable: () => false });
  assert.equal(locked.get('anthropic'), undefined);
  assert.throws(() => locked.set('x', 'y'), /keychain is not available/);
  store.delete('anthropic');
  assert.equal(store.get('anthropic'), undefined);
});

test('menus come in English and Chinese and carry no reload or developer-tools items', () => {
  assert.equal(menuLanguage('zh-CN'), 'zh');
  assert.equal(menuLanguage('zh-Hant-TW'), 'zh');
  assert.equal(menuLanguage('en-US'), 'en');
  assert.equal(menuLanguage('de'), 'en');
  const zh = JSON.stringify(menuTemplate('zh', 'linux'));
  assert.match(zh, /打开工作区/);
  assert.match(JSON.stringify(menuTemplate('en', 'darwin')), /"role":"appMenu"/);
  for (const t of [menuTemplate('en', 'linux'), menuTemplate('zh', 'darwin')])
    assert.doesNotMatch(JSON.stringify(t), /reload"|toggleDevTools|forceReload/i);
});

test('the electron-security lint fails on an unsafe window, an unchecked IPC handler and a raw openExternal', async () => {
  const { ESLint } = await import('eslint');
  const root = join(import.meta.dirname, '..', '..', '..');
  const eslint = new ESLint({ cwd: root });
  const code = [
    "import { BrowserWindow, ipcMain, shell } from 'electron';",
    'export const w = new BrowserWindow({ webPreferences: { sandbox: false, contextIsolation: false, nodeIntegration: true, webSecurity: false } });',
    "ipcMain.handle('x', (_e, url: string) => shell.openExternal(url));",
    "void w.loadURL('file:///tmp/index.html');",
  ].join('\n');
  const [result] = await eslint.lintText(code, { filePath: join(root, 'main', 'electron', 'unsafe-example.ts') });
  const rules = new Set(result!.messages.filter((m) => m.severity === 2).map((m) => m.ruleId));
  for (const rule of [
    'no-sandbox-disabled',
    'no-context-isolation-disabled',
    'no-web-security-disabled',
    'require-ipc-sender-validation',
    'no-open-external-with-dynamic-url',
    'no-file-protocol-load-url',
    'require-factory',
  ]) {
    assert.ok(rules.has(`electron-security/${rule}`), `${rule} reported as an error (got ${[...rules].join(', ')})`);
  }
});
