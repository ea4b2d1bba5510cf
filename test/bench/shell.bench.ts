// Shell benchmarks: what the contract's validation costs per call (dispatch vs the bare handler, same run), a call's
// round trip over serve mode's WebSocket, and the size of what the build ships.
import { mkdtempSync, rmSync, statSync, readdirSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { resolvePaths } from '../../main/core/config/paths.js';
import { KnackService } from '../../main/core/service/index.js';
import { dispatch } from '../../main/core/service/dispatch.js';
import { startServe } from '../../main/serve/server.js';
import { createClient, socketTransport, type SocketLike } from '../../preload/client.js';

const root = join(import.meta.dirname, '..', '..');

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

async function time(n: number, fn: () => Promise<unknown> | unknown): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn();
    out.push(performance.now() - t);
  }
  return out;
}

function sizeOf(p: string): number {
  try {
    const st = statSync(p);
    if (!st.isDirectory()) return st.size;
    return readdirSync(p).reduce((a, n) => a + sizeOf(join(p, n)), 0);
  } catch {
    return 0;
  }
}

const tmp = mkdtempSync(join(tmpdir(), 'knack-bench-shell-'));
try {
  const ws = join(tmp, 'repo');
  for (let i = 0; i < 200; i++) {
    const dir = join(ws, '.workbuddy', 'skills', `skill-${i}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'SKILL.md'),
      `---\nname: skill-${i}\ndescription: Does task number ${i} for the bench\n---\n# Steps\n\nDo it.\n`,
    );
  }
  const paths = resolvePaths({
    home: join(tmp, 'home'),
    dataDir: join(tmp, 'data'),
    builtinSkillsDir: join(root, 'builtin-skills'),
  });
  const service = new KnackService({
    paths,
    transport: 'serve',
    version: 'bench',
    log: () => {},
    workspaceOptions: { watch: false },
  });
  await service.openWorkspace(ws);
  const h = service.handlers;
  // Warm both paths (audit cache, JIT) before measuring.
  for (let i = 0; i < 20; i++) {
    await h['skills.list']({});
    await dispatch(h, 'skills.list', {});
  }
  const bare = await time(200, () => h['skills.list']({}));
  const checked = await time(200, () => dispatch(h, 'skills.list', {}));
  const b50 = pct(bare, 50);
  const c50 = pct(checked, 50);
  console.log(
    `skills.list over 200 skills: validated dispatch ${c50.toFixed(2)} ms vs bare handler ${b50.toFixed(2)} ms (median) = ${(c50 / b50).toFixed(2)}× (report)`,
  );

  const server = await startServe({ handlers: h, events: service.events, rendererDir: join(root, 'dist', 'renderer') });
  const client = createClient(
    socketTransport({
      connect: () =>
        new WebSocket(`ws://127.0.0.1:${server.port}/ws`, {
          headers: { Origin: `http://127.0.0.1:${server.port}`, Cookie: `knack_${server.port}=${server.token}` },
        }) as unknown as SocketLike,
    }),
  );
  await client.call('app.info', {});
  const direct = await time(500, () => dispatch(h, 'app.info', {}));
  const rt = await time(500, () => client.call('app.info', {}));
  console.log(
    `app.info round trip over the WebSocket: p50 ${pct(rt, 50).toFixed(2)} ms, p99 ${pct(rt, 99).toFixed(2)} ms vs in-process dispatch p50 ${pct(direct, 50).toFixed(3)} ms (report)`,
  );
  client.close();
  await server.close();
  await service.close();

  const kb = (p: string) => `${(sizeOf(join(root, p)) / 1024).toFixed(0)} KB`;
  console.log(
    `build output: main ${kb('dist/main/electron/main.js')}, sandbox host ${kb('dist/main/electron/host.js')}, preload ${kb('dist/preload/index.cjs')}, renderer ${kb('dist/renderer')} (report; run npm run build first)`,
  );
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
