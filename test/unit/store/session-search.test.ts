// Session search over the FTS5 index: a word from an old answer (its text in many deltas), a Chinese word, a title the
// user gave; what a user types is never FTS5 syntax; rename; delete leaves no message and no index row behind; the
// migration indexes conversations stored before it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Store } from '../../../main/core/store/index.js';
import { excerpt } from '../../../main/core/store/session-repo.js';
import { openDatabase } from '../../../main/core/store/db.js';
import { migrations } from '../../../main/core/store/migrations.js';
import { tempDir } from '../../helpers/tmp.js';

/** A conversation as the agent stores it: the user's message, then the reply in several text deltas. */
function converse(store: Store, id: string, user: string, answer: string[], at = 1): void {
  store.sessions.append(id, 'user_message', { type: 'user_message', text: user }, { at, touch: true });
  store.sessions.append(id, 'assistant_start', { type: 'assistant_start', step: 1, provider: 'p', model: 'm' }, { at });
  store.sessions.appendMany(
    id,
    answer.map((text) => ({ type: 'text_delta', data: { type: 'text_delta', text }, at })),
  );
  store.sessions.append(id, 'assistant_end', { type: 'assistant_end', stopReason: 'end_turn' }, { at });
}

const plain = (parts: { text: string }[]) => parts.map((p) => p.text).join('');
const marked = (parts: { text: string; hit: boolean }[]) => parts.filter((p) => p.hit).map((p) => p.text);

test('a word from an old answer finds its session, though the answer came in pieces that split the word', () => {
  const store = Store.openIn(tempDir());
  try {
    store.sessions.create({ id: 's-old', workspace: '/w', now: 1 });
    store.sessions.create({ id: 's-new', workspace: '/w', now: 2 });
    converse(store, 's-old', 'how do I ship it?', ['Use the blue', 'grn deploy', 'ment with a canary.'], 10);
    converse(store, 's-new', 'something else', ['Nothing about shipping here.'], 20);
    const hits = store.sessions.search('bluegreen', { workspace: '/w' });
    assert.equal(hits.length, 0, 'a word that is not there is not found');
    const found = store.sessions.search('Deployment', { workspace: '/w' });
    assert.deepEqual(
      found.map((h) => [h.session.id, h.in]),
      [['s-old', 'answer']],
    );
    assert.equal(plain(found[0]!.snippet), 'Use the bluegrn deployment with a canary.');
    assert.deepEqual(marked(found[0]!.snippet), ['deployment']);
    // Every word must be there; another workspace's sessions are not searched.
    assert.equal(store.sessions.search('deployment unicorn', { workspace: '/w' }).length, 0);
    assert.equal(store.sessions.search('deployment', { workspace: '/other' }).length, 0);
    assert.equal(store.sessions.search('ship', { workspace: '/w' }).length, 2, 'a message and an answer both count');
  } finally {
    store.close();
  }
});

test('Chinese words of two characters and of more are found, and a title the user gave', () => {
  const store = Store.openIn(tempDir());
  try {
    store.sessions.create({ id: 's-zh', workspace: '/w', now: 1 });
    converse(store, 's-zh', '帮我部署服务', ['好的，先检查', '配置文件。']);
    assert.deepEqual(
      store.sessions.search('部署').map((h) => [h.session.id, h.in]),
      [['s-zh', 'message']],
    );
    assert.deepEqual(marked(store.sessions.search('配置文件')[0]!.snippet), ['配置文件']);
    store.sessions.update('s-zh', { title: 'Release checklist' });
    const t = store.sessions.search('checklist');
    assert.deepEqual(
      t.map((h) => [h.session.id, h.in]),
      [['s-zh', 'title']],
    );
    assert.equal(store.sessions.get('s-zh')!.title, 'Release checklist', 'renamed');
  } finally {
    store.close();
  }
});

test('what a user types is searched as text, never read as FTS5 query syntax or LIKE wildcards', () => {
  const store = Store.openIn(tempDir());
  try {
    store.sessions.create({ id: 's1', workspace: '/w', now: 1 });
    converse(store, 's1', 'the "quoted" NEAR(word) 100% done_ok', ['fine']);
    for (const q of ['"quoted"', 'NEAR(word)', '100%', 'done_ok', 'body:quoted', '*', 'AND OR NOT', '"', '%', '_']) {
      assert.doesNotThrow(() => store.sessions.search(q), q);
    }
    assert.equal(store.sessions.search('NEAR(word)').length, 1);
    assert.equal(store.sessions.search('100%').length, 1);
    assert.equal(store.sessions.search('%').length, 1, 'a % is a percent sign');
    assert.equal(store.sessions.search('0%d').length, 0, 'not a wildcard');
    assert.equal(store.sessions.search('e_o').length, 1, '"done_ok" holds e_o');
    assert.equal(store.sessions.search('x_x').length, 0, 'an underscore is not a wildcard');
  } finally {
    store.close();
  }
});

test('deleting a session deletes its messages and its rows of the search index', () => {
  const store = Store.openIn(tempDir());
  try {
    store.sessions.create({ id: 'gone', workspace: '/w', now: 1 });
    store.sessions.create({ id: 'kept', workspace: '/w', now: 1 });
    converse(store, 'gone', 'remember the walrus', ['The walrus was Paul.']);
    converse(store, 'kept', 'remember the walrus too', ['Still here.']);
    assert.equal(store.sessions.searchRows('gone'), 2);
    assert.equal(store.sessions.delete('gone'), true);
    assert.equal(store.sessions.get('gone'), undefined);
    assert.equal(store.sessions.events('gone').length, 0);
    assert.equal(store.sessions.searchRows('gone'), 0);
    assert.deepEqual(
      store.sessions.search('walrus').map((h) => h.session.id),
      ['kept'],
    );
    assert.equal(store.sessions.searchRows('kept'), 2);
  } finally {
    store.close();
  }
});

test('the migration indexes the conversations stored before it', () => {
  const file = join(tempDir(), 'old.db');
  const old = openDatabase(
    file,
    migrations.filter((m) => m.version < 7),
  );
  old.prepare("INSERT INTO chat_sessions (id, workspace, created_at, updated_at) VALUES ('s', '/w', 1, 1)").run();
  const ins = old.prepare('INSERT INTO chat_events (session_id, type, data_json, at) VALUES (?, ?, ?, 1)');
  ins.run('s', 'user_message', JSON.stringify({ type: 'user_message', text: 'old question' }));
  ins.run('s', 'assistant_start', JSON.stringify({ type: 'assistant_start', step: 1 }));
  ins.run('s', 'text_delta', JSON.stringify({ type: 'text_delta', text: 'an archived ' }));
  ins.run('s', 'text_delta', JSON.stringify({ type: 'text_delta', text: 'answer about zebras' }));
  ins.run('s', 'assistant_end', JSON.stringify({ type: 'assistant_end', stopReason: 'end_turn' }));
  ins.run('s', 'text_delta', '{not json');
  old.close();
  const store = Store.open(file);
  try {
    assert.equal(store.version, migrations.at(-1)!.version);
    assert.deepEqual(
      store.sessions.search('zebras').map((h) => [h.session.id, h.in, plain(h.snippet)]),
      [['s', 'answer', 'an archived answer about zebras']],
    );
    assert.equal(store.sessions.search('old question').length, 1);
  } finally {
    store.close();
  }
  const raw = new Database(file, { readonly: true });
  assert.equal((raw.prepare('SELECT COUNT(*) AS n FROM chat_search').get() as { n: number }).n, 2);
  raw.close();
});

test('an excerpt is cut around the first match and marks every match', () => {
  const long = 'x'.repeat(200) + ' the Needle and the needle ' + 'y'.repeat(200);
  const parts = excerpt(long, ['needle']);
  assert.equal(parts[0]!.text.startsWith('…'), true);
  assert.equal(parts[parts.length - 1]!.text.endsWith('…'), true);
  assert.deepEqual(marked(parts), ['Needle', 'needle']);
  assert.ok(plain(parts).length < 200);
});
