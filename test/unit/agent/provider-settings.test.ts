import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tmp.js';
import { resolveProvider, writeProvidersFile, ProviderError, PRESETS } from '../../../main/core/agent/index.js';

const dataDir = (): string => join(tempDir(), 'data');

test('no provider and no key anywhere: nothing is configured (the offline inspector)', () => {
  const r = resolveProvider({}, { dataDir: dataDir(), env: {} });
  assert.equal(r.config, undefined);
});

test('a key in the environment picks its preset; the key never appears in the config', () => {
  const r = resolveProvider({}, { dataDir: dataDir(), env: { DASHSCOPE_API_KEY: 'sk-qwen-1234567890' } });
  assert.equal(r.config?.id, 'qwen');
  assert.equal(r.config?.baseURL, 'https://dashscope.aliyuncs.com/compatible-mode/v1');
  assert.equal(r.config?.keySource, 'env');
  assert.equal(r.apiKey, 'sk-qwen-1234567890');
  assert.ok(!JSON.stringify(r.config).includes('sk-qwen'));
});

test('aliases, --model and --base-url override the preset; local presets need no key', () => {
  const r = resolveProvider(
    { provider: 'kimi', model: 'moonshot-v1-8k' },
    { dataDir: dataDir(), env: { MOONSHOT_API_KEY: 'k-123456' } },
  );
  assert.equal(r.config?.id, 'moonshot');
  assert.equal(r.config?.model, 'moonshot-v1-8k');
  const o = resolveProvider(
    { provider: 'ollama', baseURL: 'http://127.0.0.1:9999/v1' },
    { dataDir: dataDir(), env: {} },
  );
  assert.equal(o.config?.baseURL, 'http://127.0.0.1:9999/v1');
  assert.equal(o.config?.keySource, 'none');
  assert.ok(PRESETS.length >= 10);
});

test('the key store (the app: safeStorage) wins over the environment and the file', () => {
  const dir = dataDir();
  writeProvidersFile(dir, { providers: { anthropic: { apiKey: 'from-file-123456' } } });
  const r = resolveProvider(
    { provider: 'anthropic' },
    {
      dataDir: dir,
      env: { ANTHROPIC_API_KEY: 'from-env-123456' },
      keyStore: { get: (id) => (id === 'anthropic' ? 'from-store-123456' : undefined) },
    },
  );
  assert.equal(r.apiKey, 'from-store-123456');
  assert.equal(r.config?.keySource, 'key-store');
  const f = resolveProvider({ provider: 'anthropic' }, { dataDir: dir, env: {} });
  assert.equal(f.apiKey, 'from-file-123456');
  chmodSync(join(dir, 'providers.json'), 0o640);
  assert.throws(
    () => resolveProvider({ provider: 'anthropic' }, { dataDir: dir, env: {} }),
    (e: unknown) =>
      e instanceof ProviderError &&
      e.kind === 'auth' &&
      /no API key for anthropic: set ANTHROPIC_API_KEY/.test(e.message),
  );
});

test('an unknown provider and a missing key are one clear line each', () => {
  assert.throws(
    () => resolveProvider({ provider: 'nope' }, { dataDir: dataDir(), env: {} }),
    /unknown provider "nope" \(known: anthropic, openai, deepseek/,
  );
  assert.throws(
    () => resolveProvider({ provider: 'deepseek' }, { dataDir: dataDir(), env: {} }),
    /no API key for deepseek: set DEEPSEEK_API_KEY/,
  );
});
