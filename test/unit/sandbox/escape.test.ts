import { test } from 'node:test';
import assert from 'node:assert/strict';
import { echoClient, run } from './setup.js';

const client = echoClient();

async function value(source: string, args: unknown = {}): Promise<unknown> {
  const r = await run(client, source, args);
  assert.ok(r.ok, JSON.stringify(r));
  return r.ok ? r.value : undefined;
}

test('the Function constructor reaches no Node: this.constructor.constructor("return process")() fails', async () => {
  const v = await value(`export default function () {
    const out = {};
    try { out.viaThis = typeof (function () { return this; })?.constructor?.constructor('return process')(); } catch (e) { out.viaThis = e.name; }
    try { out.viaArgs = typeof arguments.constructor.constructor('return process')(); } catch (e) { out.viaArgs = e.name; }
    try { out.viaKnack = typeof arguments[1].log.constructor('return typeof process')(); } catch (e) { out.viaKnack = e.name; }
    try { out.require = typeof Function('return require')(); } catch (e) { out.require = e.name; }
    return out;
  }`);
  assert.deepEqual(v, {
    viaThis: 'ReferenceError',
    viaArgs: 'ReferenceError',
    viaKnack: 'string',
    require: 'ReferenceError',
  });
  // viaKnack is "string" because it evaluates `typeof process` inside the isolate: prove it is "undefined".
  assert.equal(await value('export default (a, k) => k.log.constructor("return typeof process")()'), 'undefined');
});

test('import() and static imports are refused with a clear error', async () => {
  const dyn = await run(client, 'export default async () => { const fs = await import("node:fs"); return typeof fs; }');
  assert.equal(!dyn.ok && dyn.error.code, 'script.import');
  const stat = await run(client, 'import fs from "node:fs"; export default () => typeof fs');
  assert.equal(!stat.ok && stat.error.code, 'script.import');
  if (!stat.ok) assert.match(stat.error.message, /node:fs/);
});

test('globalThis holds only the language: no require, process, fetch, timers, console, Buffer, WebAssembly', async () => {
  const names = (await value(`export default () => {
    const seen = new Set();
    for (let o = globalThis; o; o = Object.getPrototypeOf(o)) for (const k of Reflect.ownKeys(o)) seen.add(String(k));
    return [...seen];
  }`)) as string[];
  for (const forbidden of [
    'require',
    'process',
    'fetch',
    'setTimeout',
    'setInterval',
    'setImmediate',
    'queueMicrotask',
    'console',
    'Buffer',
    'WebAssembly',
    'SharedArrayBuffer',
    'Atomics',
    'XMLHttpRequest',
    'WebSocket',
    'module',
    'exports',
    '__dirname',
    'global',
    'ivm',
    '_ivm',
  ]) {
    assert.ok(!names.includes(forbidden), `${forbidden} must not be a global`);
  }
  assert.ok(names.includes('JSON') && names.includes('Math') && names.includes('Promise'));
  assert.deepEqual(
    await value(
      'export default () => [typeof require, typeof process, typeof fetch, typeof setTimeout, typeof console]',
    ),
    ['undefined', 'undefined', 'undefined', 'undefined', 'undefined'],
  );
});

test('the knack API object is frozen and exposes only its documented functions', async () => {
  const v = await value(`export default (a, knack) => {
    let changed = true;
    try { knack.readFile = () => 'x'; } catch { /* strict mode */ }
    changed = knack.readFile.toString().includes("'x'");
    return { keys: Object.keys(knack).sort(), frozen: Object.isFrozen(knack), changed };
  }`);
  assert.deepEqual(v, { keys: ['callTool', 'listDir', 'log', 'readFile', 'writeFile'], frozen: true, changed: false });
});

test('prototype pollution through arguments stays inside the isolate and never reaches the host', async () => {
  const args = JSON.parse('{"__proto__": {"polluted": "yes"}, "constructor": {"prototype": {"polluted2": "yes"}}}');
  const v = await value(
    `export default (args) => {
    Object.prototype.pollutedInside = 'yes';
    return { own: Object.keys(args), inherited: ({}).polluted ?? null };
  }`,
    args,
  );
  assert.deepEqual(v, { own: ['__proto__', 'constructor'], inherited: null });
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.equal(({} as Record<string, unknown>).pollutedInside, undefined);
  assert.equal(({} as Record<string, unknown>).polluted2, undefined);
});

test('prototype pollution through capability payloads reaches the main process only as plain data', async () => {
  const r = await run(
    client,
    `export default async (a, knack) => knack.callTool('x', JSON.parse('{"__proto__": {"polluted": "yes"}}'))`,
  );
  assert.ok(r.ok, JSON.stringify(r));
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});

test('each run gets a fresh isolate: globals set by one run are gone in the next', async () => {
  await value('export default () => { globalThis.leak = 42; Object.prototype.leak2 = 1; return 1; }');
  assert.deepEqual(await value('export default () => [typeof leak, ({}).leak2 ?? null]'), ['undefined', null]);
});

test('results cross as JSON only: functions and symbols become null, cycles are an error', async () => {
  assert.equal(await value('export default () => () => 1'), null);
  const r = await run(client, 'export default () => { const a = {}; a.self = a; return a; }');
  assert.equal(!r.ok && r.error.code, 'script.result_not_json');
});
