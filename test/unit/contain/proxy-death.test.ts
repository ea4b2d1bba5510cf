// The sandbox's network bridge dies mid-session (its socat processes killed): the next command fails closed with a
// clear error and no network, the wall's status turns unavailable and says why, and opening the workspace again
// restarts the bridge.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { createServer as createHttp, type Server } from 'node:http';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tmp.js';
import { socatBridges } from '../../helpers/wall-run.js';
import { Wall, WallError } from '../../../main/core/contain/wall.js';
import { runContained } from '../../../main/core/tools/builtin/bash.js';

const root = tempDir('knack-proxy-death-');
const home = join(root, 'home');
const ws = join(root, 'ws');
mkdirSync(home, { recursive: true });
mkdirSync(ws, { recursive: true });

/** Plays api.example.test behind the sandbox's proxy (as an upstream proxy: it is sent absolute URLs). */
let requests = 0;
const api: Server = createHttp((req, res) => {
  requests++;
  res.end(`api saw ${new URL(req.url ?? '/', 'http://x').pathname}`);
});
let place: { workspace: string; home: string; dataDir: string; upstreamProxy: string };
const walls: Wall[] = [];

before(async () => {
  await new Promise<void>((r) => api.listen(0, '127.0.0.1', r));
  const port = (api.address() as { port: number }).port;
  place = { workspace: ws, home, dataDir: join(home, 'data'), upstreamProxy: `http://127.0.0.1:${port}` };
});
after(async () => {
  // Closed here too, so a failing assertion cannot leave the runtime's proxy holding the test process open.
  for (const w of walls) await w.close();
  api.close();
});

const curl = (wall: Wall) =>
  runContained(wall, 'curl -sS -m 10 http://api.example.test/v1', ws, {
    timeoutMs: 30_000,
    hosts: ['api.example.test'],
  });

test('the proxy bridge dies: commands fail closed, the status says unavailable; reopening restarts it', async () => {
  const wall = await Wall.open(place, 'auto');
  walls.push(wall);
  assert.equal(wall.available, true, wall.status().reason);
  const ok = await curl(wall);
  assert.equal(ok.stdout, 'api saw /v1', ok.stderr);
  const seen = requests;

  const pids = socatBridges();
  assert.ok(pids.length >= 1, 'the runtime started no socat bridge');
  for (const pid of pids) process.kill(pid, 'SIGKILL');
  // Wait until the kernel has let them go (no timing assertion: only a bounded wait for the kill to land).
  for (let i = 0; i < 100 && socatBridges().some((p) => pids.includes(p)); i++)
    await new Promise((r) => setTimeout(r, 50));

  await assert.rejects(curl(wall), (e: Error) => e instanceof WallError && /network proxy stopped/.test(e.message));
  await assert.rejects(
    runContained(wall, 'true', ws, { timeoutMs: 30_000, hosts: [] }),
    (e: Error) => e instanceof WallError && /unavailable/.test(e.message),
  );
  assert.equal(requests, seen, 'no request got through');
  const s = wall.status();
  assert.equal(s.available, false);
  assert.match(s.reason, /network proxy stopped.*reopen the workspace/);

  // Opened again (while the first is still open), the wall restarts the runtime: a new bridge, the host reachable.
  const again = await Wall.open(place, 'auto');
  walls.push(again);
  assert.equal(again.available, true, again.status().reason);
  const back = await curl(again);
  assert.equal(back.stdout, 'api saw /v1', back.stderr);
});
