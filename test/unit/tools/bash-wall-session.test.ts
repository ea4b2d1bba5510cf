// The sandbox going down in the middle of a conversation changes nothing the model was told up front: every request
// carries the same tool definitions, byte for byte (the provider's prompt cache holds), and the model learns of the
// change from its results: the command that met the stopped sandbox says it did not run and why, the next one that
// it ran without the sandbox. A real wall, its proxy bridges really killed, a fake Anthropic server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { agentEnv } from '../../helpers/agent-env.js';
import { socatBridges } from '../../helpers/wall-run.js';
import type { AgentEvent } from '../../../main/core/agent/types.js';

const bashCall = (id: string, command: string) => ({ toolCalls: [{ id, name: 'bash', input: { command } }] });

test(
  'the sandbox stopping mid-session keeps the tool definitions byte-identical and tells the model in the result',
  {
    skip: process.platform !== 'linux',
  },
  async () => {
    const env = await agentEnv();
    const chat = env.agent.newSession();
    const asked: string[] = [];
    chat.on((e: AgentEvent) => {
      if (e.type === 'approval_requested') {
        asked.push(e.callId);
        setImmediate(() => chat.answer(e.approvalId, { kind: 'once' }));
      }
    });

    env.server.script(bashCall('b1', 'echo in > one.txt'), { text: 'ran it' });
    await chat.send('write one');
    assert.equal((await env.ws.wall()).available, true, (await env.ws.wall()).status().reason);
    assert.ok(existsSync(join(env.workspace, 'one.txt')));

    // The sandbox's network proxy dies: the wall finds out when the next command asks it to run.
    const killed = socatBridges();
    assert.notDeepEqual(killed, [], 'the open wall runs its proxy bridges');
    for (const pid of killed) process.kill(pid, 'SIGKILL');

    env.server.script(bashCall('b2', 'echo in > two.txt'), bashCall('b3', 'echo out > three.txt'), { text: 'done' });
    await chat.send('write two, then three');
    assert.equal((await env.ws.wall()).available, false);
    assert.equal(existsSync(join(env.workspace, 'two.txt')), false, 'allowed as contained, it did not run outside');
    assert.ok(existsSync(join(env.workspace, 'three.txt')), 'asked about, it ran without the sandbox');
    // The first command waited for the sandbox and ran inside unasked; the second was allowed as contained, the third
    // asked about with the sandbox down.
    assert.deepEqual(asked, ['b3']);

    const reqs = env.server.requests;
    assert.equal(reqs.length, 5);
    const tools = reqs.map((r) => JSON.stringify(r.body.tools));
    for (const [i, r] of reqs.entries()) {
      assert.ok(r.raw.includes(tools[i]!), `request ${i}: its tools as sent`);
      assert.equal(tools[i], tools[0], `request ${i} carries the first request's tool definitions`);
    }
    // What bash would tell the model now, with the sandbox down, is what it told it from the start.
    const box = await env.ws.toolbox();
    const sent = (reqs[0]!.body.tools as { name: string; description: string }[]).find((t) => t.name === 'bash');
    assert.equal(sent?.description, box.registry.get('bash')!.def.description);

    const resultOf = (i: number, id: string): { content: string; is_error?: boolean } => {
      const msgs = reqs[i]!.body.messages as { role: string; content: unknown }[];
      for (const m of msgs)
        for (const b of Array.isArray(m.content) ? (m.content as Record<string, unknown>[]) : [])
          if (b.type === 'tool_result' && b.tool_use_id === id) {
            const c = b.content;
            const text = typeof c === 'string' ? c : JSON.stringify(c);
            return { content: text, ...(b.is_error ? { is_error: true } : {}) };
          }
      assert.fail(`request ${i} has no result for ${id}`);
    };
    assert.match(resultOf(1, 'b1').content, /"sandboxed":true/);
    const two = resultOf(3, 'b2');
    assert.equal(two.is_error, true);
    assert.match(two.content, /not run: sandbox unavailable \(bubblewrap\): the sandbox network proxy stopped/);
    const three = resultOf(4, 'b3');
    assert.match(three.content, /"sandboxed":false/);
    assert.match(three.content, /ran WITHOUT the OS sandbox \(it is unavailable: the sandbox network proxy stopped/);
  },
);
