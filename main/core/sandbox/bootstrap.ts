// The code that prepares a fresh isolate before a skill script runs: strips globals, builds the `knack` API.
// It runs first in every context, captures the intrinsics it needs, and only ever exchanges strings with the host.

/**
 * Evaluated with `context.evalClosure(BOOTSTRAP, [sendLog, sendCap, limitsJson])`.
 * `sendLog(text)` (synchronous: a flood of calls is paced by the host) and `sendCap(id, op, payloadJson)`
 * (fire-and-forget) are host callbacks that take strings only.
 * Returns `{ run(ns, argsJson) → Promise<string>, deliver(id, ok, json) }`; the host keeps references to those two
 * functions, the script never sees them. `run` resolves to `"R" + resultJson` or `"E" + errorJson`.
 */
export const BOOTSTRAP_SOURCE = String.raw`
'use strict';
const sendLog = $0, sendCap = $1, L = JSON.parse($2);
const G = globalThis;
const parse = JSON.parse, stringify = JSON.stringify, apply = Reflect.apply;
const _Error = Error, _Promise = Promise, _String = String, _Object = Object, _isArray = Array.isArray;
const charCodeAt = String.prototype.charCodeAt, slice = String.prototype.slice, join = Array.prototype.join;
const create = Object.create, freeze = Object.freeze, defineProperty = Object.defineProperty;

// Nothing beyond the language itself: no WebAssembly (its memories live outside the heap limit),
// no shared memory or blocking waits, and no V8 console (it prints nowhere; knack.log is the way to log).
for (const name of ['WebAssembly', 'SharedArrayBuffer', 'Atomics', 'console']) {
  try { delete G[name]; } catch {}
}

let fatal = null;
let logBytes = 0, calls = 0, inflight = 0, nextId = 1;
const pending = create(null);

function utf8Length(s) {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = apply(charCodeAt, s, [i]);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff) { n += 4; i++; }
    else n += 3;
  }
  return n;
}

function limitError(code, message, details) {
  const e = new _Error(message);
  e.code = code;
  e.details = details;
  fatal = { code, message, details };
  return e;
}

function text(v) {
  if (typeof v === 'string') return v;
  try {
    const s = stringify(v);
    return s === undefined ? _String(v) : s;
  } catch {
    try { return _String(v); } catch { return '[unprintable]'; }
  }
}

function log(...parts) {
  if (fatal) throw limitError(fatal.code, fatal.message, fatal.details);
  const out = apply(join, parts.map(text), [' ']);
  // Every line costs at least one byte, so a flood of empty lines is capped too.
  const bytes = (out.length > L.maxLogBytes ? out.length : utf8Length(out)) + 1;
  if (logBytes + bytes > L.maxLogBytes) {
    // Let the host see the overflow too: it ends the run at once, even if the script catches this error.
    try { sendLog(out.length > L.maxLogBytes + 1 ? apply(slice, out, [0, L.maxLogBytes + 1]) : out); } catch {}
    throw limitError('limit.log', 'the script logged more than the ' + L.maxLogBytes + '-byte log limit (maxLogBytes)', { limit: L.maxLogBytes });
  }
  logBytes += bytes;
  sendLog(out);
}

function call(op, payload) {
  if (fatal) return _Promise.reject(limitError(fatal.code, fatal.message, fatal.details));
  // maxCapabilityCalls is counted by the host, which ends the run when it is passed.
  if (inflight >= L.maxPendingCalls) {
    return _Promise.reject(limitError('limit.pending_calls', 'the script had more than ' + L.maxPendingCalls + ' capability calls waiting at once (maxPendingCalls)', { limit: L.maxPendingCalls }));
  }
  let json;
  try { json = stringify(payload); } catch (e) {
    const err = new _Error(op + ': arguments must be JSON: ' + text(e && e.message));
    err.code = 'capability.bad_arguments';
    return _Promise.reject(err);
  }
  calls++;
  inflight++;
  const id = nextId++;
  return new _Promise((resolve, reject) => {
    pending[id] = { resolve, reject };
    sendCap(id, op, json);
  });
}

function opts(o) {
  return o && typeof o === 'object' && !_isArray(o) ? o : {};
}

const knack = freeze({
  log,
  readFile: (path, options) => { const o = opts(options); return call('readFile', { path, from: o.from, encoding: o.encoding }); },
  writeFile: (path, content, options) => { const o = opts(options); return call('writeFile', { path, content, from: o.from, encoding: o.encoding }); },
  listDir: (path, options) => { const o = opts(options); return call('listDir', { path: path === undefined ? '.' : path, from: o.from }); },
  callTool: (name, args) => call('callTool', { name, args: args === undefined ? {} : args }),
});

function deliver(id, ok, json) {
  const p = pending[id];
  if (!p) return;
  delete pending[id];
  inflight--;
  const value = parse(json);
  if (ok) { p.resolve(value); return; }
  const err = new _Error(value.message);
  err.code = value.code;
  if (value.details !== undefined) err.details = value.details;
  p.reject(err);
}

function cut(s, n) {
  return s.length > n ? apply(slice, s, [0, n]) + '…' : s;
}

function describe(e) {
  let message = 'the script threw a non-Error value', name = '', stack, code = 'script.error';
  try {
    if (e !== null && (typeof e === 'object' || typeof e === 'function')) {
      name = typeof e.name === 'string' ? e.name : '';
      if (typeof e.message === 'string') message = e.message;
      if (typeof e.stack === 'string') stack = cut(e.stack, 4000);
      if (typeof e.code === 'string' && /^(capability|script|tool|limit)\.[a-z_.]+$/.test(e.code)) code = e.code;
    } else {
      message = 'the script threw ' + cut(text(e), 500);
    }
  } catch { /* a hostile getter: keep the defaults */ }
  if (name === 'RangeError' && message === 'Maximum call stack size exceeded') {
    return { code: 'limit.stack', message: 'the script recursed too deeply (call stack limit)', details: { stack } };
  }
  if (name === 'RangeError' && /Array buffer allocation failed/.test(message)) {
    return { code: 'limit.memory', message: 'the script asked for more memory than the ' + L.memoryMb + ' MB limit (memoryMb)', details: { limit: L.memoryMb } };
  }
  return { code, message: cut(message, 2000), details: { name, stack } };
}

function envelope(tag, value) {
  return tag + stringify(value);
}

async function run(ns, argsJson) {
  try {
    const entry = typeof ns.default === 'function' ? ns.default : typeof ns.main === 'function' ? ns.main : undefined;
    if (!entry) {
      return envelope('E', { code: 'script.no_entry', message: 'the script exports no function: write "export default async function (args, knack) { … }" (or export "main")' });
    }
    const value = await entry(parse(argsJson), knack);
    if (fatal) return envelope('E', fatal);
    let out;
    try { out = stringify(value === undefined ? null : value); } catch (e) {
      return envelope('E', { code: 'script.result_not_json', message: 'the result is not JSON: ' + cut(text(e && e.message), 500) });
    }
    if (out === undefined) out = 'null';
    if (out.length > L.maxOutputBytes || utf8Length(out) > L.maxOutputBytes) {
      return envelope('E', { code: 'limit.output', message: 'the result is larger than the ' + L.maxOutputBytes + '-byte output limit (maxOutputBytes)', details: { limit: L.maxOutputBytes, chars: out.length } });
    }
    return 'R' + out;
  } catch (e) {
    if (fatal) return envelope('E', fatal);
    return envelope('E', describe(e));
  }
}

return { run, deliver };
`;
