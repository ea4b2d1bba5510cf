import { test } from 'node:test';
import assert from 'node:assert/strict';
import { requestTerms, valueHints, isNumberish, REQUEST_FILLERS } from '../../../main/core/search/query.js';
import { terms } from '../../../main/core/search/tokenize.js';

const asObject = (q: string, opts = {}) =>
  Object.fromEntries(requestTerms(q, terms, opts).map((t) => [t.term, t.weight]));

test('how people ask is dropped: greetings, politeness and request phrasing leave only what they ask for', () => {
  assert.deepEqual(Object.keys(asObject("Hi! Could you please tell me, I'd like to know the weather forecast")), [
    'weather',
    'forecast',
  ]);
  assert.deepEqual(Object.keys(asObject('can you kindly show me open pull requests')), [
    'show',
    'open',
    'pull',
    'request',
  ]);
  // Off: every word counts.
  assert.ok('tell' in asObject('tell me the weather', { dropFillers: false }));
});

test('a filler never swallows a content word that stems the same ("currently" is not "current")', () => {
  for (const content of ['current', 'interest', 'look', 'quick', 'actual']) {
    assert.ok(!REQUEST_FILLERS.has(terms(content)[0]!), content);
  }
  assert.ok('current' in asObject('what is the current time in Sydney'));
});

test('numbers, dates and IDs are dropped; the kind of value stays as a type word', () => {
  const t = asObject('Find the forecast for Alameda on April 25th 2023 at 9:30 pm, order 12345XYZ');
  for (const gone of ['2023', '25th', '12345xyz', '9', '30']) assert.ok(!(gone in t), gone);
  assert.equal(t.date, 0.5);
  assert.equal(t.time, 0.5);
  assert.deepEqual(valueHints('open https://example.com/a?b=1 and mail bob@example.org'), ['url', 'email']);
  assert.deepEqual(valueHints('when was the Treaty of Lisbon signed'), ['date']);
  assert.deepEqual(valueHints('sort these numbers'), []);
  assert.ok(isNumberish('2023') && isNumberish('11th') && isNumberish('0x1f') && isNumberish('a1b2c3'));
  assert.ok(!isNumberish('mp3') && !isNumberish('s3') && !isNumberish('k8s'));
  // Off: numbers are words like any other.
  assert.ok('2023' in asObject('report for 2023', { dropNumbers: false }));
});

test('quoted values, URLs and paths count less than the words around them, unless also said plainly', () => {
  const t = asObject("create a todo 'buy milk' and read /tmp/notes.txt");
  assert.equal(t.todo, 1);
  assert.equal(t.milk, 0.5);
  assert.equal(t.note, 0.5);
  // An apostrophe inside a word opens no quote.
  assert.equal(asObject("the user's invoice and the team's report").report, 1);
  // The same word said plainly keeps full weight.
  assert.equal(asObject("search 'invoice' invoices").invoic, 1);
});

test('a request made only of fillers or numbers still searches for what it says', () => {
  assert.deepEqual(
    requestTerms('12345', terms).map((t) => t.term),
    ['12345'],
  );
  assert.ok(requestTerms('hello', terms).length > 0);
});
