// The contract at the boundary: inputs and outputs validated both ways, errors always {code, message, details},
// events checked before they leave main, and the typed client refusing what the contract does not allow.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { METHOD_NAMES, events, methods, type MethodName } from '../../../preload/contract.js';
import { say } from '../../../preload/words.js';
import { KnackError, createClient, type Transport } from '../../../preload/client.js';
import { EventHub, ServiceError, dispatch, type Handlers } from '../../../main/core/service/dispatch.js';

/** Handlers for the named methods only; any other method answers something outside the contract. */
function handlers(some: Partial<Handlers>): Handlers {
  const all = {} as Record<MethodName, unknown>;
  for (const name of METHOD_NAMES) all[name] = some[name] ?? (() => ({ not: 'in the contract' }));
  return all as Handlers;
}

const quiet = () => {};

test('every method declares an input and an output schema, and every name reads area.verb', () => {
  for (const name of METHOD_NAMES) {
    assert.match(name, /^[a-z]+\.[a-zA-Z]+$/, name);
    assert.ok(methods[name].input instanceof z.ZodType, `${name} input`);
    assert.ok(methods[name].output instanceof z.ZodType, `${name} output`);
  }
  for (const [name, schema] of Object.entries(events)) assert.ok(schema instanceof z.ZodType, name);
});

test('an unknown method name is refused with unknown_method, including names from Object.prototype', async () => {
  const h = handlers({});
  for (const name of ['nope', 'constructor', '__proto__', 'toString', 42]) {
    const r = await dispatch(h, name, {}, quiet);
    assert.equal(r.ok, false);
    assert.equal(!r.ok && r.error.code, 'unknown_method');
  }
});

test('input that breaks the schema never reaches the handler and the error names the field', async () => {
  let called = false;
  const h = handlers({
    'skills.setEnabled': () => {
      called = true;
      throw new Error('unreachable');
    },
  });
  const r = await dispatch(h, 'skills.setEnabled', { name: 'x', enabled: 'yes' }, quiet);
  assert.equal(called, false);
  assert.ok(!r.ok);
  assert.equal(r.error.code, 'invalid_input');
  assert.match(r.error.message, /enabled/);
  const extra = await dispatch(h, 'skills.setEnabled', { name: 'x', enabled: true, admin: true }, quiet);
  assert.ok(!extra.ok && extra.error.code === 'invalid_input', 'unknown keys are refused');
});

test('a handler that answers outside the contract yields invalid_output, not the stray value', async () => {
  const logged: string[] = [];
  const r = await dispatch(handlers({}), 'rules.list', {}, (m) => logged.push(m));
  assert.ok(!r.ok);
  assert.equal(r.error.code, 'invalid_output');
  assert.deepEqual(logged, ['rules.list']);
  assert.doesNotMatch(JSON.stringify(r), /not/);
});

test('a ServiceError keeps its code and details; an unexpected throw is internal without a stack', async () => {
  const h = handlers({
    'skills.show': ({ name }) => {
      throw new ServiceError('not_found', say('trust.notFound', { name }), { name });
    },
    'rules.remove': () => {
      throw new TypeError('boom');
    },
  });
  const a = await dispatch(h, 'skills.show', { name: 'ghost' }, quiet);
  assert.deepEqual(a, {
    ok: false,
    error: {
      code: 'not_found',
      message: 'no skill named "ghost" in this workspace',
      details: { name: 'ghost' },
      words: { code: 'trust.notFound', params: { name: 'ghost' } },
    },
  });
  const b = await dispatch(h, 'rules.remove', { id: 'r1' }, quiet);
  assert.ok(!b.ok);
  assert.equal(b.error.code, 'internal');
  assert.doesNotMatch(b.error.message, /at .*\.ts/);
});

test('defaults are filled in before the handler runs', async () => {
  let seen: unknown;
  const h = handlers({
    'skills.trustAll': (args) => {
      seen = args;
      return {
        trusted: [],
        refused: [],
        summary: 'nothing to trust',
        groups: [],
        widest: { tools: [], anyCommand: [], network: false, read: [], write: [], undeclared: 0 },
      };
    },
  });
  const r = await dispatch(h, 'skills.trustAll', {}, quiet);
  assert.ok(r.ok);
  assert.deepEqual(seen, { dryRun: false });
});

function direct(h: Handlers, hub = new EventHub(quiet)): Transport {
  return { call: (m, i) => dispatch(h, m, i, quiet), subscribe: (l) => hub.on(l) };
}

test('the typed client returns validated values and throws KnackError with the contract code', async () => {
  const h = handlers({
    'rules.list': () => ({
      rules: [
        {
          id: 'a1',
          effect: 'allow',
          tool: 'bash',
          command: 'git status',
          createdAt: 1,
          description: 'allow bash `git status`',
        },
      ],
    }),
    'rules.remove': ({ id }) => {
      throw new ServiceError('not_found', say('rules.none', { id }));
    },
  });
  const client = createClient(direct(h), { onContractViolation: quiet });
  const { rules } = await client.call('rules.list', {});
  assert.equal(rules[0]?.command, 'git status');
  await assert.rejects(
    client.call('rules.remove', { id: 'zz' }),
    (e: unknown) => e instanceof KnackError && e.code === 'not_found',
  );
});

test('the client refuses bad input locally and a transport answer outside the contract', async () => {
  let sent = 0;
  const lying: Transport = {
    call: async () => {
      sent++;
      return { ok: true, value: { rules: 'all of them' } };
    },
    subscribe: () => () => {},
  };
  const violations: string[] = [];
  const client = createClient(lying, { onContractViolation: (w) => violations.push(w) });
  await assert.rejects(
    client.call('rules.remove', { id: '' }),
    (e: unknown) => e instanceof KnackError && e.code === 'invalid_input',
  );
  assert.equal(sent, 0);
  await assert.rejects(
    client.call('rules.list', {}),
    (e: unknown) => e instanceof KnackError && e.code === 'invalid_output',
  );
  assert.equal(violations.length, 1);
});

test('events are validated at the source: a malformed one is dropped and reported, a good one delivered typed', async () => {
  const problems: string[] = [];
  const hub = new EventHub((p) => problems.push(p));
  const client = createClient(direct(handlers({}), hub), { onContractViolation: quiet });
  const got: string[] = [];
  const off = client.on('chat.delta', (p) => got.push(p.text));
  hub.emit('chat.delta', { sessionId: 's', turnId: 't', kind: 'text', text: 'hel' });
  // @ts-expect-error — deliberately outside the contract
  hub.emit('chat.delta', { sessionId: 's', text: 42 });
  off();
  hub.emit('chat.delta', { sessionId: 's', turnId: 't', kind: 'text', text: 'after off' });
  assert.deepEqual(got, ['hel']);
  assert.equal(problems.length, 1);
  assert.match(problems[0]!, /chat\.delta/);
});

test('the client drops an event from the transport that does not match its schema', async () => {
  let push: (n: string, p: unknown) => void = () => {};
  const t: Transport = {
    call: async () => ({ ok: true, value: {} }),
    subscribe: (l) => {
      push = l;
      return () => {};
    },
  };
  const violations: string[] = [];
  const client = createClient(t, { onContractViolation: (w) => violations.push(w) });
  const got: unknown[] = [];
  client.on('session.deleted', (p) => got.push(p));
  push('session.deleted', { id: 7 });
  push('made.up', {});
  push('session.deleted', { id: 's1' });
  assert.deepEqual(got, [{ id: 's1' }]);
  assert.equal(violations.length, 2);
});
