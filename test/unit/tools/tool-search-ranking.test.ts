import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ToolSearchIndex } from '../../../main/core/tools/tool-search.js';
import type { SearchableTool } from '../../../main/core/tools/search-doc.js';

const tool = (name: string, description: string, properties: Record<string, unknown> = {}): SearchableTool => ({
  name,
  summary: description,
  description,
  inputSchema: { type: 'object', properties },
});

const rank = (i: ToolSearchIndex, q: string) => i.search(q, 10).tools.map((t) => t.name);

test('coordination: a tool that answers every word of the request beats one that repeats a single rare word', () => {
  const tools = [
    tool('weather_alerts', 'Weather alerts: severe weather warnings, weather watches and weather advisories.'),
    tool('city_forecast', 'Weather forecast for a city on a date.'),
    tool('tide_tables', 'Tide tables for a harbour.'),
  ];
  const on = new ToolSearchIndex({ feedback: false, nameBonus: 0 });
  const off = new ToolSearchIndex({ feedback: false, nameBonus: 0, coverage: 0 });
  on.addAll(tools);
  off.addAll(tools);
  const q = 'weather forecast for the city';
  assert.equal(rank(on, q)[0], 'city_forecast');
  // Same documents, same words: only coordination differs (the plain sum still finds both).
  assert.deepEqual(rank(on, q).sort(), rank(off, q).sort());
});

test('a date in the request finds the tool that takes a date, whatever its digits', () => {
  const tools = [
    tool('weather_current', 'Current weather conditions for a city.'),
    tool('weather_on_day', 'Weather for a city on a particular date.', {
      date: { type: 'string', description: 'the date' },
    }),
  ];
  const i = new ToolSearchIndex({ feedback: false });
  i.addAll(tools);
  for (const q of [
    'weather in Fremont on March 1st 2023',
    'weather in Fremont, 2023-03-01',
    'weather in Fremont tomorrow',
  ]) {
    assert.equal(rank(i, q)[0], 'weather_on_day', q);
  }
  assert.equal(rank(i, 'current weather in Fremont')[0], 'weather_current');
  const off = new ToolSearchIndex({ feedback: false, normalize: false });
  off.addAll(tools);
  assert.equal(rank(off, 'weather in Fremont, 2023-03-01')[0], 'weather_current');
});

test('the name bonus prefers the tool whose whole name the request says', () => {
  const tools = [
    tool('send_message', 'Deliver a text to a chat.'),
    tool('chat_relay', 'Relay: send a message to a chat room.'),
    tool('tide_tables', 'Tide tables for a harbour.'),
    tool('moon_phase', 'Phase of the moon on a date.'),
  ];
  const on = new ToolSearchIndex({ feedback: false, coverage: 0 });
  const off = new ToolSearchIndex({ feedback: false, coverage: 0, nameBonus: 0 });
  on.addAll(tools);
  off.addAll(tools);
  const q = 'send a message in the chat';
  assert.equal(rank(off, q)[0], 'chat_relay');
  assert.equal(rank(on, q)[0], 'send_message');
});
