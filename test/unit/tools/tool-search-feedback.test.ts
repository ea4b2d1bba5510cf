import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ToolSearchIndex } from '../../../main/core/tools/tool-search.js';
import { RankedIndex } from '../../../main/core/search/index.js';
import type { SearchableTool } from '../../../main/core/tools/search-doc.js';

const tool = (name: string, description: string): SearchableTool => ({
  name,
  summary: description,
  description,
  inputSchema: { type: 'object', properties: {} },
});

// Three speech-to-text tools and one phone-number tool. "phone" is the only request word two of them share.
const TOOLS = [
  tool('speech_to_text', 'Speech recognition: transcribe a recording of speech into text.'),
  tool('interview_transcriber', 'Speech recognition for interviews: transcribe spoken interviews into text.'),
  tool('call_transcriber', 'Speech recognition for phone calls: transcribe what was said.'),
  tool('phone_lookup', 'Look up who owns a phone number.'),
  tool('send_invoice', 'Email an invoice to a customer.'),
];

// Feedback from the two best hits, the name bonus off: on five tools the mechanism itself is what is tested
// (the default settings are chosen on the fixtures' thousands of tools, see tools.bench.ts).
function index(feedback: boolean): ToolSearchIndex {
  const i = new ToolSearchIndex({ nameBonus: 0, feedback: feedback ? { docs: 2, terms: 10, weight: 0.25 } : false });
  i.addAll(TOOLS);
  return i;
}

test('feedback lifts a tool that describes the same task as the best matches above one that only shares a word', () => {
  const q = 'turn a phone interview recording into text';
  const without = index(false)
    .search(q, 5)
    .tools.map((t) => t.name);
  const withFb = index(true)
    .search(q, 5)
    .tools.map((t) => t.name);
  // Without feedback the phone-number tool (name and description say "phone") outranks the phone-call transcriber.
  assert.ok(without.indexOf('phone_lookup') < without.indexOf('call_transcriber'), without.join(' '));
  // The top hits are about speech recognition and transcription: feedback carries those words to the call transcriber.
  assert.ok(withFb.indexOf('call_transcriber') < withFb.indexOf('phone_lookup'), withFb.join(' '));
  assert.deepEqual(withFb.slice(0, 2).sort(), ['interview_transcriber', 'speech_to_text']);
});

test('feedback only re-ranks tools the request matched: nothing that shares no word with it is pulled in', () => {
  for (const q of ['phone number', 'transcribe an interview', 'invoice']) {
    const a = index(true)
      .search(q, 10)
      .tools.map((t) => t.name)
      .sort();
    const b = index(false)
      .search(q, 10)
      .tools.map((t) => t.name)
      .sort();
    assert.deepEqual(a, b, q);
  }
  assert.ok(
    !index(true)
      .search('transcribe an interview', 10)
      .tools.some((t) => t.name === 'send_invoice'),
  );
});

test('exact names and select: lists are answered the same with feedback on', () => {
  const i = index(true);
  assert.deepEqual(
    i.search('PHONE_LOOKUP').tools.map((t) => t.name),
    ['phone_lookup'],
  );
  const sel = i.search('select:send_invoice,nope');
  assert.deepEqual([sel.mode, sel.tools.map((t) => t.name), sel.missing], ['select', ['send_invoice'], ['nope']]);
});

test('without feedback a ranked request gives the plain search ranking; removed tools are gone from both', () => {
  const ix = new RankedIndex({ fields: { name: { weight: 2, b: 0.5 }, description: { weight: 1, b: 0.75 } } });
  const ranked = (q: string) => {
    const c = ix.rankRequest(q, 10, false);
    return Array.from(c.docs.subarray(0, c.n), (d, i) => ({ id: ix.dataOf(d) as string, score: c.scores[i]! }));
  };
  for (const t of TOOLS) ix.add(t.name, { name: t.name.replace(/_/g, ' '), description: t.description }, t.name);
  for (const q of ['speech recognition', 'phone interview text', 'email invoice customer'])
    assert.deepEqual(ranked(q), ix.search(q, 10), q);
  ix.remove('speech_to_text');
  assert.ok(!ix.search('speech recognition', 10).some((h) => h.id === 'speech_to_text'));
  assert.ok(!ranked('speech recognition').some((h) => h.id === 'speech_to_text'));
});
