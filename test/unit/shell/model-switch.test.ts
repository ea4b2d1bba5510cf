// The model picker through the contract, with the real agent and the fake providers' model lists: the provider's own
// list (GET /v1/models), the preset's when it lists none; a switch applies from the next turn, is recorded in the
// session (its row, each reply's model), holds after the conversation is closed and reopened, and is refused mid-turn.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serviceEnv } from '../../helpers/service-env.js';
import { startFakeOpenAI } from '../../helpers/fake-openai.js';
import { providerModels } from '../../../main/core/agent/providers/models.js';
import { writeProvidersFile } from '../../../main/core/agent/index.js';

test('the picker lists the provider’s models, else the preset’s, the model in use first', async (t) => {
  const s = await serviceEnv(t);
  s.server.setModels(['other-model', 'fake-model', 'fake-model-large']);
  const listed = await s.call('chat.models', {});
  assert.deepEqual(listed, {
    provider: 'anthropic',
    current: 'fake-model',
    models: ['fake-model', 'other-model', 'fake-model-large'],
    source: 'provider',
    groups: [
      {
        provider: 'anthropic',
        label: 'Anthropic',
        models: ['fake-model', 'other-model', 'fake-model-large'],
        // None of them is named as a model that reads images (a Claude's name would be).
        noImages: ['fake-model', 'other-model', 'fake-model-large'],
        source: 'provider',
      },
    ],
  });
  assert.equal(s.server.modelListings(), 1);

  s.server.setModels(undefined);
  const fallback = await s.call('chat.models', {});
  assert.equal(fallback.source, 'preset');
  assert.deepEqual(fallback.models, ['fake-model', 'claude-sonnet-5-5', 'claude-opus-5-5', 'claude-haiku-5-5']);
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

test('the picker lists every configured provider’s models; a model of another provider answers the next turn', async (t) => {
  const s = await serviceEnv(t, { extra: { liveSessions: 1 } });
  const other = await startFakeOpenAI();
  t.after(() => other.close());
  s.server.setModels(['fake-model', 'fake-model-large']);
  other.setModels(['gpt-fake', 'gpt-fake-mini']);
  // A user's own OpenAI-compatible provider, and a preset with no key anywhere (not offered).
  writeProvidersFile(s.paths.dataDir, {
    providers: { local: { kind: 'openai', baseURL: other.url, model: 'gpt-fake', apiKey: 'sk-local-test-4567' } },
  });
  const listed = await s.call('chat.models', {});
  assert.deepEqual(
    listed.groups.map((g) => [g.provider, g.label, g.models, g.source]),
    [
      ['anthropic', 'Anthropic', ['fake-model', 'fake-model-large'], 'provider'],
      ['local', 'local', ['gpt-fake', 'gpt-fake-mini'], 'provider'],
    ],
  );
  assert.equal(other.modelListings(), 1, 'the other provider’s list came over its own wire format');

  s.server.script({ text: 'from anthropic' });
  let ended = s.next('chat.turnEnd');
  const { sessionId } = await s.call('chat.send', { text: 'hello' });
  await ended;
  const switched = await s.call('chat.setModel', { sessionId, model: 'gpt-fake-mini', provider: 'local' });
  assert.deepEqual([switched.session.provider, switched.session.model], ['local', 'gpt-fake-mini']);
  const now = await s.call('chat.models', { sessionId });
  assert.deepEqual([now.provider, now.current, now.groups[0]!.provider], ['local', 'gpt-fake-mini', 'local']);

  other.script({ text: 'from the local server' });
  ended = s.next('chat.turnEnd');
  await s.call('chat.send', { sessionId, text: 'again' });
  await ended;
  const asked = other.requests.at(-1)!;
  assert.equal(asked.body.model, 'gpt-fake-mini', 'the next request goes to the other provider, naming the model');
  assert.equal(asked.headers.authorization, 'Bearer sk-local-test-4567', 'with that provider’s own key');
  const history = JSON.stringify(asked.body.messages);
  assert.match(history, /hello/);
  assert.match(history, /from anthropic/, 'the conversation so far goes with it');

  // A new conversation closes this one (one live at most); reopened, it goes on with the provider picked.
  s.server.script({ text: 'elsewhere' });
  ended = s.next('chat.turnEnd');
  await s.call('chat.send', { text: 'another conversation' });
  await ended;
  other.script({ text: 'still local' });
  ended = s.next('chat.turnEnd');
  await s.call('chat.send', { sessionId, text: 'and again' });
  await ended;
  assert.equal(other.requests.length, 2);
  assert.equal(other.requests.at(-1)!.body.model, 'gpt-fake-mini');

  // A new conversation can start on the other provider; an unknown provider is refused, naming what is configured.
  other.script({ text: 'first on local' });
  ended = s.next('chat.turnEnd');
  const fresh = await s.call('chat.send', { text: 'start here', model: 'gpt-fake', provider: 'local' });
  await ended;
  assert.equal(other.requests.at(-1)!.body.model, 'gpt-fake');
  await assert.rejects(
    s.call('chat.setModel', { sessionId: fresh.sessionId, model: 'x', provider: 'nope' }),
    /unavailable: "nope" is not a configured provider \(configured: anthropic, local\)/,
  );
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

test('a switch to a model that reads no images says how many images of the conversation it will not see', async (t) => {
  const s = await serviceEnv(t);
  const dot = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
  s.server.script({ text: 'A red dot.' });
  const ended = s.next('chat.turnEnd');
  const { sessionId } = await s.call('chat.send', {
    text: 'what is this?',
    model: 'claude-fake-vision',
    attachments: [{ kind: 'image', name: 'dot.png', mime: 'image/png', size: 70, data: dot }],
  });
  await ended;
  assert.equal(s.server.requests.at(-1)!.images.length, 1);
  // The picker says which models read no images: the window's file chips say so before Send.
  s.server.setModels(['fake-model', 'claude-fake-vision']);
  const listed = await s.call('chat.models', { sessionId });
  assert.deepEqual([listed.current, listed.groups[0]!.noImages], ['claude-fake-vision', ['fake-model']]);
  const blind = await s.call('chat.setModel', { sessionId, model: 'fake-model' });
  assert.equal(blind.imagesUnseen, 1, 'fake-model reads no images: the one sent goes to it as a note');
  const seeing = await s.call('chat.setModel', { sessionId, model: 'claude-fake-vision' });
  assert.equal(seeing.imagesUnseen, undefined, 'a model that reads images sees them all');
});
