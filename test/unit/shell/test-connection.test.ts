// Test connection (settings.testProvider): one real one-token request through the official SDK to the configured base
// URL. A right key answers ok; a wrong one gives the provider's own 401 words (Anthropic's and OpenAI's real bodies),
// never the key; a server that is not there, or no provider at all, is a failure that says so. And sandbox.status
// gives the workspace's wall as `knack sandbox status --json` does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { callerOf, serviceEnv } from '../../helpers/service-env.js';
import { startFakeOpenAI } from '../../helpers/fake-openai.js';
import { tempDir } from '../../helpers/tmp.js';
import { resolvePaths } from '../../../main/core/config/paths.js';
import { KnackService } from '../../../main/core/service/index.js';
import { ConnectionCheck, SandboxStatus } from '../../../preload/contract.js';

const KEY = 'sk-ant-test-0123456789';

test('a right key: ok, after one request of one token with that key to the configured base URL', async (t) => {
  const env = await serviceEnv(t);
  env.server.requireKey(KEY);
  const r = ConnectionCheck.parse(await env.call('settings.testProvider', {}));
  assert.deepEqual(r, { ok: true, provider: 'anthropic', model: 'fake-model', baseUrl: env.server.url });
  assert.equal(env.server.requests.length, 1);
  const req = env.server.requests[0]!;
  assert.equal(req.body.max_tokens, 1);
  assert.equal(req.body.model, 'fake-model');
  assert.ok(req.headers['x-api-key'] === KEY || req.headers.authorization === `Bearer ${KEY}`);
});

test("a wrong Anthropic key: auth, 401 and Anthropic's own words; the key is nowhere in the answer", async (t) => {
  const env = await serviceEnv(t);
  env.server.requireKey('sk-ant-the-right-one-000000');
  const r = await env.call('settings.testProvider', {});
  assert.equal(r.ok, false);
  assert.equal(r.kind, 'auth');
  assert.equal(r.status, 401);
  assert.equal(r.said, 'invalid x-api-key');
  assert.match(r.message ?? '', /anthropic refused the API key \(401\)/);
  assert.ok(!JSON.stringify(r).includes(KEY));
  // No retry: the one failure is the answer.
  assert.equal(env.server.requests.length, 1);
});

test("a wrong OpenAI-compatible key: OpenAI's own words, with only the provider's masked key in them", async (t) => {
  const server = await startFakeOpenAI();
  const key = 'sk-wrong-key-abcdefghijklmnop1234';
  const env = await serviceEnv(t, {
    extra: { provider: { provider: 'openai', model: 'gpt-fake', baseURL: server.url }, env: { OPENAI_API_KEY: key } },
  });
  t.after(() => server.close());
  server.requireKey('sk-the-right-one-000000000000');
  const r = await env.call('settings.testProvider', {});
  assert.equal(r.ok, false);
  assert.equal(r.kind, 'auth');
  assert.equal(r.status, 401);
  assert.match(r.said ?? '', /^Incorrect API key provided: sk-\*+1234\./);
  assert.ok(!JSON.stringify(r).includes(key));
  // A compatible server (not api.openai.com) gets max_tokens.
  assert.equal(server.requests[0]!.body.max_tokens, 1);
});

test('a base URL where nothing listens: a network failure naming the provider and the address', async (t) => {
  const gone = await startFakeOpenAI();
  const url = gone.url;
  await gone.close();
  const env = await serviceEnv(t, {
    extra: {
      provider: { provider: 'openai', model: 'gpt-fake', baseURL: url },
      env: { OPENAI_API_KEY: 'sk-x-123456' },
    },
  });
  const r = await env.call('settings.testProvider', {});
  assert.equal(r.ok, false);
  assert.equal(r.kind, 'network');
  assert.match(r.message ?? '', new RegExp(`cannot reach openai at ${url.replace(/[.]/g, '\\.')}`));
  // Nothing answered, so nothing is shown as the provider's words ("OpenAI says: Connection error.").
  assert.equal(r.said, undefined);
});

test('no provider set up, or a preset without its key: a failure that says what is missing, no request made', async (t) => {
  const root = tempDir();
  const paths = resolvePaths({
    home: join(root, 'home'),
    dataDir: join(root, 'data'),
    builtinSkillsDir: join(root, 'x'),
  });
  const service = new KnackService({ paths, transport: 'serve', version: 't', log: () => {}, env: {} });
  t.after(() => service.close());
  const call = callerOf(service);
  const none = await call('settings.testProvider', {});
  assert.equal(none.ok, false);
  assert.equal(none.kind, 'config');
  assert.match(none.message ?? '', /No model is set up/);
  mkdirSync(join(root, 'ws'));
  await service.openWorkspace(join(root, 'ws'));
  await call('settings.setProvider', { preset: 'deepseek' });
  const noKey = await call('settings.testProvider', {});
  assert.equal(noKey.ok, false);
  assert.equal(noKey.kind, 'auth');
  assert.match(noKey.message ?? '', /no API key for deepseek/);
});

test('sandbox.status: the wall as `knack sandbox status --json` gives it, with the mode from settings', async (t) => {
  const env = await serviceEnv(t);
  const s = SandboxStatus.parse(await env.call('sandbox.status', {}));
  assert.deepEqual(s, { available: true, backend: 'bubblewrap', reason: '', hint: '', mode: 'auto' });

  const root = tempDir();
  const dataDir = join(root, 'data');
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ sandbox: { mode: 'off' } }));
  mkdirSync(join(root, 'ws'));
  const paths = resolvePaths({ home: join(root, 'home'), dataDir, builtinSkillsDir: join(root, 'x') });
  const service = new KnackService({ paths, transport: 'serve', version: 't', log: () => {}, env: {} });
  t.after(() => service.close());
  const call = callerOf(service);
  await assert.rejects(call('sandbox.status', {}), /no_workspace/);
  await service.openWorkspace(join(root, 'ws'));
  const off = await call('sandbox.status', {});
  assert.equal(off.mode, 'off');
  assert.equal(off.available, false);
});
