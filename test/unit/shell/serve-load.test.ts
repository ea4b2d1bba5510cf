// `knack serve` against a hostile client that sends calls and never reads the answers, on loopback, bounded in count
// and time: serve's memory stays under 400 MB, the slow socket is closed with a reason once 8 MB of answers wait for
// it, a second client is answered normally throughout, and memory returns to within 20% of its baseline once the
// hostile client has gone. The folder holds 1,500 skills, so each skills.list answer is large (~0.5 MB).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { WebSocket } from 'ws';
import { tempDir, writeTree } from '../../helpers/tmp.js';
import { cliArgs, KNACK_BIN } from '../../helpers/cli.js';

const SKILLS = 1500;
/** Calls the hostile client sends, none of whose answers it reads. */
const HOSTILE_CALLS = 600;
const RSS_LIMIT_MB = 400;

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : 0;
}

async function startServe(root: string): Promise<{ child: ChildProcess; url: URL; log: () => string }> {
  const child = spawn(
    process.execPath,
    [
      KNACK_BIN,
      'serve',
      '--port',
      '0',
      ...cliArgs({ ws: join(root, 'repo'), home: join(root, 'home'), data: join(root, 'data') }),
      '--renderer',
      join(root, 'renderer'),
    ],
    // Built-in skills are not audited: the test measures serving, not the audit of 1,500 folders.
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, KNACK_BUILTIN_SKILLS: join(root, 'skills') } },
  );
  let out = '';
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /Knack is running at (\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`serve exited early (${code}): ${out}${err}`)));
  });
  return { child, url: new URL(url), log: () => err };
}

function connect(url: URL): Promise<WebSocket> {
  const port = url.port;
  const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, {
    headers: { Origin: `http://127.0.0.1:${port}`, Cookie: `knack_${port}=${url.searchParams.get('token')}` },
  });
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

/** A client that reads: call(method) resolves with the answer's result. */
function reader(ws: WebSocket) {
  let next = 1;
  const waiting = new Map<number, (r: { ok: boolean; value?: unknown }) => void>();
  ws.on('message', (data) => {
    const f = JSON.parse(data.toString()) as { type: string; id?: number; result?: { ok: boolean; value?: unknown } };
    if (f.type === 'result') waiting.get(f.id!)?.(f.result!);
    if (f.id !== undefined) waiting.delete(f.id);
  });
  return (method: string): Promise<{ ok: boolean; value?: unknown }> =>
    new Promise((resolve) => {
      const id = next++;
      waiting.set(id, resolve);
      ws.send(JSON.stringify({ type: 'call', id, method, input: {} }));
    });
}

test('a client that sends and never reads: serve stays under 400 MB, closes it with a reason, answers another client, and gives the memory back', async (t) => {
  const root = tempDir();
  const files: Record<string, string> = { 'renderer/index.html': '<!doctype html><title>served</title>', 'repo/x': '' };
  for (let i = 0; i < SKILLS; i++) {
    files[`skills/skill-${i}/SKILL.md`] =
      `---\nname: skill-${i}\ndescription: Use when the user asks about topic ${i}, reports, tables, charts and summaries of the quarter.\n---\n# Skill ${i}\n\nSteps.\n`;
  }
  writeTree(root, files);
  const { child, url, log } = await startServe(root);
  t.after(() => child.kill('SIGKILL'));
  const pid = child.pid!;

  const good = await connect(url);
  const call = reader(good);
  const first = await call('skills.list');
  assert.equal(first.ok, true);
  assert.equal((first.value as { skills: unknown[] }).skills.length, SKILLS);
  await call('skills.list');
  await sleep(500);
  const baseline = rssMb(pid);

  // The hostile client: its socket is never read, so every answer waits in serve's outgoing queue.
  const bad = await connect(url);
  const badSocket = (bad as unknown as { _socket: Socket })._socket;
  badSocket.pause();
  let badClosed = false;
  badSocket.once('close', () => (badClosed = true));
  badSocket.on('error', () => {});
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 50);
  try {
    const frame = (id: number) => JSON.stringify({ type: 'call', id, method: 'skills.list', input: {} });
    for (let id = 1; id <= HOSTILE_CALLS; id++) {
      bad.send(frame(id));
      if (id % 50 === 0) await sleep(20);
    }
    // The other client keeps working meanwhile (at least six calls, then until serve has closed the hostile socket):
    // every call answered, with every skill.
    let answered = 0;
    for (let round = 0; round < 6 || (round < 20 && !/too slow/.test(log())); round++) {
      const r = await call('skills.list');
      assert.equal(r.ok, true, 'the reading client is answered');
      assert.equal((r.value as { skills: unknown[] }).skills.length, SKILLS);
      answered++;
      await sleep(250);
    }
    assert.ok(answered > 0);
    assert.match(log(), /closed a socket: client too slow/, 'serve says why it closed the hostile socket');
    bad.terminate();
    // Memory back: sampled until it is within 20% of the baseline (bounded wait), while the good client still works.
    let now = rssMb(pid);
    for (let i = 0; i < 40 && now > baseline * 1.2; i++) {
      await call('skills.list');
      await sleep(250);
      now = rssMb(pid);
    }
    assert.ok(peak < RSS_LIMIT_MB, `serve's RSS peaked at ${peak.toFixed(0)} MB (limit ${RSS_LIMIT_MB} MB)`);
    assert.ok(
      now <= baseline * 1.2,
      `serve's RSS ${now.toFixed(0)} MB after the client went, baseline ${baseline.toFixed(0)} MB`,
    );
    const after = await call('skills.list');
    assert.equal(after.ok, true);
    t.diagnostic(
      `baseline ${baseline.toFixed(0)} MB, peak ${peak.toFixed(0)} MB, after ${now.toFixed(0)} MB; hostile socket closed: ${badClosed}`,
    );
  } finally {
    clearInterval(sampler);
    good.close();
  }
});
