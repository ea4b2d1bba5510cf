// The Settings page's key line says what the provider would use: one lookup (keySourceOf) for the page and for
// resolveProvider, so a key providers.json may not give (the file is readable by others) is "none" on the page too,
// a providers.json keyEnv is named, and serve mode's file key store hands out no key the provider would refuse.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { serviceEnv } from '../../helpers/service-env.js';
import { tempDir } from '../../helpers/tmp.js';
import {
  PRESETS,
  ProviderError,
  providersFilePath,
  resolveProvider,
  type KeyStore,
} from '../../../main/core/agent/index.js';
import { fileKeyStore } from '../../../main/core/service/chat.js';
import { english } from '../../../preload/words.js';

const env = { ANTHROPIC_API_KEY: 'sk-ant-test-0123456789', MY_OPENAI: 'sk-openai-from-custom-env' };

function memoryKeychain() {
  const mem = new Map<string, string>();
  return {
    kind: 'os-keychain' as const,
    get: (id: string) => mem.get(id),
    set: (id: string, k: string) => void mem.set(id, k),
    delete: (id: string) => void mem.delete(id),
  };
}

function writeProviders(dataDir: string, content: unknown, mode: number): string {
  const file = providersFilePath(dataDir);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(content));
  chmodSync(file, mode);
  return file;
}

/** What resolveProvider does with `id`: its key source, or 'none' when it refuses for want of a key. */
function used(id: string, dataDir: string, keyStore?: KeyStore): string {
  try {
    return (
      resolveProvider({ provider: id }, { dataDir, env, ...(keyStore ? { keyStore } : {}) }).config?.keySource ?? 'none'
    );
  } catch (e) {
    if (e instanceof ProviderError && e.kind === 'auth') return 'none';
    throw e;
  }
}

const readable =
  /providers\.json: readable by other users \(mode 644\); its API keys are ignored until you run chmod 600 on it/;

test(
  'with an OS keychain, the Settings page says for every preset the key source the provider uses: a mode-644 providers.json key is none, a providers.json keyEnv is named',
  { skip: process.platform === 'win32' },
  async (t) => {
    const keychain = memoryKeychain();
    const s = await serviceEnv(t, { extra: { env, keyStore: keychain } });
    writeProviders(
      s.paths.dataDir,
      { providers: { deepseek: { apiKey: 'sk-deepseek-in-file' }, openai: { keyEnv: 'MY_OPENAI' } } },
      0o644,
    );
    keychain.set('moonshot', 'sk-moonshot-in-keychain');
    const view = await s.call('settings.get', {});
    const p = (id: string) => view.presets.find((x) => x.id === id)!;
    assert.deepEqual([p('deepseek').keySource, p('deepseek').hasKey], ['none', false]);
    assert.deepEqual([p('openai').keySource, p('openai').keyEnv, p('openai').hasKey], ['env', 'MY_OPENAI', true]);
    assert.deepEqual([p('moonshot').keySource, p('moonshot').hasKey], ['key-store', true]);
    for (const preset of PRESETS) {
      const page = p(preset.id);
      if (!preset.keyOptional)
        assert.equal(
          page.keySource,
          used(preset.id, s.paths.dataDir, keychain),
          `${preset.id}: the page and the provider disagree`,
        );
    }
    // The mode warning, once (providers.json's own line and the agent's copy of it were both listed).
    assert.equal(view.warnings.filter((w) => readable.test(w)).length, 1, view.warnings.join('\n'));

    // chmod 600: the file's key is the provider's, and the page says so.
    chmodSync(providersFilePath(s.paths.dataDir), 0o600);
    const after = await s.call('settings.get', {});
    assert.equal(after.presets.find((x) => x.id === 'deepseek')!.keySource, 'file');
    assert.equal(used('deepseek', s.paths.dataDir, keychain), 'file');
    assert.equal(after.presets.find((x) => x.id === 'deepseek')!.keyEnv, undefined);
  },
);

test('clearing the stored key of a provider whose providers.json keyEnv is set leaves it with a key, as the page says', async (t) => {
  const keychain = memoryKeychain();
  const s = await serviceEnv(t, { extra: { env, keyStore: keychain } });
  writeProviders(s.paths.dataDir, { providers: { openai: { keyEnv: 'MY_OPENAI' } } }, 0o600);
  await s.call('settings.setKey', { preset: 'openai', key: 'sk-openai-stored-0123' });
  assert.deepEqual(await s.call('settings.clearKey', { preset: 'openai' }), { hasKey: true });
  assert.equal((await s.call('settings.get', {})).presets.find((x) => x.id === 'openai')!.keySource, 'env');
  assert.deepEqual(await s.call('settings.clearKey', { preset: 'deepseek' }), { hasKey: false });
});

test(
  'the file key store (serve mode) gives no key from a providers.json others can read; after chmod 600 it does',
  { skip: process.platform === 'win32' },
  () => {
    const dataDir = join(tempDir(), 'data');
    const file = writeProviders(dataDir, { providers: { deepseek: { apiKey: 'sk-deepseek-in-file' } } }, 0o644);
    const store = fileKeyStore(dataDir);
    assert.equal(store.get('deepseek'), undefined);
    assert.throws(
      () => resolveProvider({ provider: 'deepseek' }, { dataDir, env: {}, keyStore: store }),
      (e: unknown) => e instanceof ProviderError && e.kind === 'auth' && /no API key for deepseek/.test(e.message),
    );
    chmodSync(file, 0o600);
    assert.equal(store.get('deepseek'), 'sk-deepseek-in-file');
    const r = resolveProvider({ provider: 'deepseek' }, { dataDir, env: {}, keyStore: store });
    assert.deepEqual([r.config?.keySource, r.apiKey], ['key-store', 'sk-deepseek-in-file']);
  },
);

test(
  'serve mode with a world-readable providers.json: the page says no key and why, once, and no provider is made with that key',
  { skip: process.platform === 'win32' },
  async (t) => {
    const s = await serviceEnv(t, { extra: { env: {}, provider: { provider: 'deepseek' } } });
    writeProviders(s.paths.dataDir, { providers: { deepseek: { apiKey: 'sk-deepseek-in-file' } } }, 0o644);
    // The provider is resolved again on the next use (a reload of the open folder).
    await s.service.openWorkspace(s.ws, { reload: true });
    const view = await s.call('settings.get', {});
    assert.equal(view.keyStorage, 'file');
    assert.deepEqual([view.presets.find((x) => x.id === 'deepseek')!.keySource, view.provider], ['none', null]);
    assert.equal(view.warnings.filter((w) => readable.test(w)).length, 1, view.warnings.join('\n'));
    // Why no provider is made, as words the window says in its language (the CLI's English below).
    assert.equal(view.providerProblem?.code, 'provider.noKey');
    assert.match(english(view.providerProblem!), /^no API key for deepseek: set DEEPSEEK_API_KEY/);
  },
);

test('a providers.json that is not valid JSON is never overwritten by storing or clearing a key or choosing a provider: a clear error names the file', async (t) => {
  const s = await serviceEnv(t);
  const file = providersFilePath(s.paths.dataDir);
  mkdirSync(dirname(file), { recursive: true });
  const broken = '{ "providers": { "my-proxy": { "baseURL": "https://llm.example.com/v1", "apiKey": "sk-mine" }, } }\n';
  writeFileSync(file, broken, { mode: 0o600 });
  for (const [m, input] of [
    ['settings.setKey', { preset: 'deepseek', key: 'sk-deepseek-new-0123' }],
    ['settings.clearKey', { preset: 'deepseek' }],
    ['settings.setProvider', { preset: 'deepseek', model: 'deepseek-chat' }],
  ] as const) {
    await assert.rejects(
      s.call(m, input as never),
      (e: Error) => e.message.includes(file) && /invalid JSON/.test(e.message),
      m,
    );
    assert.equal(readFileSync(file, 'utf8'), broken, `${m} overwrote the file`);
  }
});
