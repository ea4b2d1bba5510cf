// The model picker through the contract, with the real agent and the fake providers' model lists: the provider's own
// list (GET /v1/models), the preset's when it lists none; a switch applies from the next turn, is recorded in the
// session (its row, each reply's model), holds after the conversation is closed and reopened, and is refused mid-turn.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serviceEnv } from '../../helpers/service-env.js';
import { startFakeOpenAI } from '../../helpers/fake-openai.js';
import { providerModels } from '../../../main/core/agent/providers/models.js';

test('the picker lists the provider’s models, else the preset’s, the model in use first', async (t) => {
  const s = await serviceEnv(t);
  s.server.setModels(['other-model', 'fake-model', 'fake-model-large']);
  const listed = await s.call('chat.models', {});
  assert.deepEqual(listed, {
    provider: 'anthropic',
    current: 'fake-model',
    models: ['fake-model', 'other-model', 'fake-model-large'],
    source: 'provider',
  });
  assert.equal(s.server.modelListings(), 1);

  s.server.setModels(undefined);
  const fallback = await s.call('chat.models', {});
  assert.equal(fallback.source, 'preset');
  assert.deepEqual(fallback.models, ['fake-model', 'claude-sonnet-4-5', 'claude-opus-4-1', 'claude-haiku-4-5']);
  assert.match(fallback.error ?? '', /404|not.found|no route/i);
  assert.doesNotMatch(fallback.error ?? '', /sk-ant-test/);
});

test('a switch applies from the next turn, is recorded in the session and holds when it is reopened', async (t) => {
  const s = await serviceEnv(t, { extra: { liveSessions: 1 } });
  s.server.script({ text: 'first answer' });
  let ended = s.next('chat.turnEnd');
  const { sessionId } = await s.call('chat.send', { text: 'hello' });
  await ended;
  assert.equal(s.server.requests.at(-1)!.body.model, 'fake-model');

  const switched = await s.call('chat.setModel', { sessionId, model: 'fake-model-large' });
  assert.equal(switched.session.model, 'fake-model-large');
  assert.equal(s.of('session.updated').at(-1)!.session.model, 'fake-model-large');
  assert.equal((await s.call('chat.models', { sessionId })).current, 'fake-model-large');

  s.server.script({ text: 'second answer' });
  ended = s.next('chat.turnEnd');
  await s.call('chat.send', { sessionId, text: 'again' });
  await ended;
  assert.equal(s.server.requests.at(-1)!.body.model, 'fake-model-large', 'the next request names the new model');

  // Another conversation closes this one in memory (one live at most); reopened, it goes on with its model.
  s.server.script({ text: 'elsewhere' });
  ended = s.next('chat.turnEnd');
  const other = await s.call('chat.send', { text: 'another conversation' });
  await ended;
  assert.equal(s.server.requests.at(-1)!.body.model, 'fake-model', 'a new conversation takes the default');
  assert.notEqual(other.sessionId, sessionId);
  s.server.script({ text: 'third answer' });
  ended = s.next('chat.turnEnd');
  await s.call('chat.send', { sessionId, text: 'and again' });
  await ended;
  assert.equal(s.server.requests.at(-1)!.body.model, 'fake-model-large');
  const row = (await s.call('sessions.list', {})).sessions.find((x) => x.id === sessionId)!;
  assert.equal(row.model, 'fake-model-large');
  const md = await s.call('sessions.export', { id: sessionId, format: 'json' });
  const models = (JSON.parse(md.content) as { events: { type: string; model?: string }[] }).events
    .filter((e) => e.type === 'assistant_start')
    .map((e) => e.model);
  assert.deepEqual(models, ['fake-model', 'fake-model-large', 'fake-model-large'], 'each reply names its model');
});

test('a new conversation can start on the model picked; a switch mid-turn and a malformed id are refused', async (t) => {
  const s = await serviceEnv(t);
  s.server.script({ text: 'picked', chunkDelayMs: 50 }, { text: 'held', hang: true });
  let ended = s.next('chat.turnEnd');
  const { sessionId } = await s.call('chat.send', { text: 'hi', model: 'fake-model-large' });
  await ended;
  assert.equal(s.server.requests.at(-1)!.body.model, 'fake-model-large');

  const streaming = s.server.streaming(2);
  ended = s.next('chat.turnEnd');
  await s.call('chat.send', { sessionId, text: 'keep going' });
  await streaming;
  await assert.rejects(s.call('chat.setModel', { sessionId, model: 'fake-model' }), /conflict/);
  await s.call('chat.stop', { sessionId });
  await ended;
  await assert.rejects(s.call('chat.setModel', { sessionId, model: 'x"; rm -rf /' }), /invalid_input/);
  await assert.rejects(s.call('chat.setModel', { sessionId, model: '' }), /invalid_input/);
});

test('an OpenAI-compatible server’s model list is read with the SDK', async (t) => {
  const server = await startFakeOpenAI();
  t.after(() => server.close());
  server.setModels(['gpt-fake', 'gpt-fake-mini']);
  const ids = await providerModels(
    {
      id: 'openai',
      kind: 'openai',
      model: 'gpt-fake',
      baseURL: server.url,
      contextWindow: 1000,
      keySource: 'option',
      keyHint: 'OPENAI_API_KEY',
      sendMaxTokens: false,
    },
    'sk-test',
  );
  assert.deepEqual(ids, ['gpt-fake', 'gpt-fake-mini']);
});
