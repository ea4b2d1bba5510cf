// The gate and bash's handler agree on where a command runs, for every state of the wall and every sandbox mode,
// through the executor as the agent calls a tool: a command asked about runs when the user says yes (on the host, and
// the question says it runs WITHOUT the sandbox); one that cannot run whatever the answer is refused without a
// question; one that runs inside is not asked about. While the sandbox is still starting the decision waits for it
// (bounded): real walls, one of them held back, and real commands.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tmp.js';
import { DEFAULT_SETTINGS, type Settings } from '../../../main/core/config/settings.js';
import { Wall, WallError, wallSeen } from '../../../main/core/contain/index.js';
import { ceilingFrom } from '../../../main/core/policy/ceiling.js';
import { createGate } from '../../../main/core/policy/gate.js';
import { createBashTool } from '../../../main/core/tools/builtin/bash.js';
import { ToolExecutor } from '../../../main/core/tools/executor.js';
import { ToolRegistry } from '../../../main/core/tools/registry.js';
import type { ApprovalRequest } from '../../../main/core/tools/approval.js';

type Mode = 'off' | 'auto' | 'required';
/** Where a command ended: inside the wall unasked, on the host after a question, or refused unasked. */
type Outcome = 'inside' | 'host, asked' | 'refused';

/** Each command's file, unique across the tests' agents. */
let n = 0;
const linux = { skip: process.platform !== 'linux' };

function place() {
  const home = tempDir('knack-gate-wall-');
  const ws = join(home, 'ws');
  mkdirSync(ws, { recursive: true });
  return { home, ws, place: { workspace: ws, home, dataDir: join(home, '.knack') } };
}

/**
 * An executor over bash and a gate told the wall as a workspace tells it (contain's wallSeen over the wall bash got),
 * with an approver that says yes (or `answer`) and records each question.
 */
function agentOver(
  ws: string,
  mode: Mode,
  wall: Promise<Wall> | undefined,
  opts: { workspaceClosed?: boolean; readyWithinMs?: number; answer?: 'once' | 'deny' } = {},
) {
  let opened: Wall | undefined;
  wall?.then(
    (w) => void (opened = w),
    () => undefined,
  );
  const settings: Settings = structuredClone(DEFAULT_SETTINGS);
  const ceiling = {
    ...ceilingFrom(settings, ws, []),
    ...(wall ? { wall: () => wallSeen(opened, mode, opts.workspaceClosed) } : {}),
  };
  const gate = createGate({ ceiling, rules: () => [], skill: () => undefined });
  const registry = new ToolRegistry();
  registry.registerAll([createBashTool(wall, opts.readyWithinMs ? { readyWithinMs: opts.readyWithinMs } : {})]);
  const asked: ApprovalRequest[] = [];
  const ex = new ToolExecutor({
    registry,
    gate,
    approver: async (r) => (asked.push(r), opts.answer ?? 'once'),
  });
  const run = async (args: { sandbox?: boolean } = {}): Promise<{ outcome: Outcome; asked: ApprovalRequest[] }> => {
    const file = `ran-${++n}`;
    const before = asked.length;
    const r = await ex.execute(
      'bash',
      { command: `touch ${file}`, ...args },
      { workspace: ws, actor: { kind: 'agent', activeSkills: [] } },
    );
    const now = asked.slice(before);
    const ran = existsSync(join(ws, file));
    if (!r.ok) {
      assert.equal(ran, false, `refused, yet ${file} was made: ${JSON.stringify(r)}`);
      // A question whose yes does nothing is never put.
      assert.deepEqual(now, [], `asked, then refused: ${JSON.stringify(r)}`);
      return { outcome: 'refused', asked: now };
    }
    assert.equal(ran, true, JSON.stringify(r));
    const c = r.content as { sandboxed: boolean };
    if (c.sandboxed) {
      assert.deepEqual(
        now.map((q) => q.reason),
        [],
        'a command that runs inside is not asked about',
      );
      return { outcome: 'inside', asked: now };
    }
    assert.equal(now.length, 1, `ran on the host without a question: ${JSON.stringify(r)}`);
    // The approval card shows the gate's words: they say the command runs outside the sandbox.
    assert.match(now[0]!.reason, /WITHOUT the sandbox/, now[0]!.reason);
    assert.match(now[0]!.decision?.words?.code ?? '', /^gate\./);
    return { outcome: 'host, asked', asked: now };
  };
  return { run, asked, ex };
}

test(
  'the gate asks only what the wall will do: every mode and state, a plain command and sandbox: false',
  linux,
  async (t) => {
    const { ws, place: at } = place();
    const walls: Wall[] = [];
    t.after(() => Promise.all(walls.map((w) => w.close())));
    const open = async (mode: Mode, o: { bwrap?: boolean; closed?: boolean } = {}): Promise<Wall> => {
      const path = process.env.PATH;
      // Bubblewrap is looked for on PATH as the wall opens: an empty PATH leaves the sandbox unavailable.
      if (o.bwrap === false) process.env.PATH = tempDir();
      try {
        const w = await Wall.open(at, mode);
        walls.push(w);
        if (o.closed) await w.close();
        return w;
      } finally {
        process.env.PATH = path;
      }
    };
    const rows: {
      name: string;
      mode: Mode;
      wall: () => Promise<Wall> | undefined;
      workspaceClosed?: boolean;
      plain: Outcome;
      unsandboxed: Outcome;
    }[] = [
      {
        name: 'no sandbox given',
        mode: 'auto',
        wall: () => undefined,
        plain: 'host, asked',
        unsandboxed: 'host, asked',
      },
      { name: 'off', mode: 'off', wall: await wrap(open('off')), plain: 'host, asked', unsandboxed: 'host, asked' },
      {
        name: 'off, closed',
        mode: 'off',
        wall: await wrap(open('off', { closed: true })),
        plain: 'refused',
        unsandboxed: 'refused',
      },
      { name: 'auto, up', mode: 'auto', wall: await wrap(open('auto')), plain: 'inside', unsandboxed: 'host, asked' },
      {
        name: 'auto, unavailable',
        mode: 'auto',
        wall: await wrap(open('auto', { bwrap: false })),
        plain: 'host, asked',
        unsandboxed: 'host, asked',
      },
      {
        name: 'auto, closed',
        mode: 'auto',
        wall: await wrap(open('auto', { closed: true })),
        plain: 'refused',
        unsandboxed: 'refused',
      },
      {
        name: 'required, up',
        mode: 'required',
        wall: await wrap(open('required')),
        plain: 'inside',
        unsandboxed: 'refused',
      },
      {
        name: 'required, unavailable',
        mode: 'required',
        wall: await wrap(open('required', { bwrap: false })),
        plain: 'refused',
        unsandboxed: 'refused',
      },
      {
        name: 'required, closed',
        mode: 'required',
        wall: await wrap(open('required', { closed: true })),
        plain: 'refused',
        unsandboxed: 'refused',
      },
      {
        name: 'asked of a closed workspace',
        mode: 'auto',
        wall: () => Promise.reject(new WallError(`the workspace ${ws} is closed: its sandbox does not start again`)),
        workspaceClosed: true,
        plain: 'refused',
        unsandboxed: 'refused',
      },
    ];
    for (const row of rows) {
      const p = row.wall();
      p?.catch(() => undefined);
      await p?.catch(() => undefined);
      const agent = agentOver(ws, row.mode, p, { workspaceClosed: row.workspaceClosed ?? false });
      assert.equal((await agent.run()).outcome, row.plain, `${row.name}: a plain command`);
      assert.equal((await agent.run({ sandbox: false })).outcome, row.unsandboxed, `${row.name}: sandbox: false`);
    }
  },
);

async function wrap(w: Promise<Wall>): Promise<() => Promise<Wall>> {
  const wall = await w;
  return () => Promise.resolve(wall);
}

test('a first command waits for the sandbox still starting: run inside without a question', linux, async (t) => {
  const { ws, place: at } = place();
  const wall = await Wall.open(at, 'auto');
  t.after(() => wall.close());
  assert.equal(wall.available, true, wall.status().reason);
  // The start held back: the wall answers only once the call is on its way to the gate.
  let release!: () => void;
  const held = new Promise<Wall>((res) => (release = () => res(wall)));
  const agent = agentOver(ws, 'auto', held);
  const first = agent.run();
  setImmediate(release);
  assert.equal((await first).outcome, 'inside');
});

test('past its bounded wait, a sandbox still starting is not there: asked as outside, or refused', linux, async () => {
  const { ws } = place();
  // Never answers: mode auto asks, saying the command would run without the sandbox (the user says no here: the
  // handler would wait for a wall that never comes).
  const never = new Promise<Wall>(() => {});
  const auto = agentOver(ws, 'auto', never, { readyWithinMs: 50, answer: 'deny' });
  const r = await auto.ex.execute(
    'bash',
    { command: 'touch never' },
    { workspace: ws, actor: { kind: 'agent', activeSkills: [] } },
  );
  assert.equal(r.ok, false);
  assert.equal(existsSync(join(ws, 'never')), false);
  assert.equal(auto.asked.length, 1);
  assert.match(auto.asked[0]!.reason, /WITHOUT the sandbox \(it is still starting/, auto.asked[0]!.reason);
  // Mode required refuses it without a question.
  const required = agentOver(ws, 'required', never, { readyWithinMs: 50 });
  assert.equal((await required.run()).outcome, 'refused');
  // Why, in words the window says in its language: the sandbox's state is a code too, not English inside them.
  const refused = await required.ex.execute(
    'bash',
    { command: 'touch never' },
    { workspace: ws, actor: { kind: 'agent', activeSkills: [] } },
  );
  assert.equal(refused.ok, false);
  const gate = (refused as { said?: { params?: { reason?: { code: string; params?: { reason?: unknown } } } } }).said
    ?.params?.reason;
  assert.equal(gate?.code, 'gate.sandboxRequired');
  assert.deepEqual(gate?.params?.reason, { code: 'sandbox.starting' });
});
