// The service as the window meets it, for tests: a workspace folder, a fake Anthropic server, the real KnackService,
// its contract called through dispatch (typed), and its events recorded.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir, writeTree } from './tmp.js';
import { seedSearchCache } from './search-seed.js';
import { startFakeAnthropic } from './fake-anthropic.js';
import { resolvePaths, type KnackPaths } from '../../main/core/config/paths.js';
import { KnackService, type ServiceOptions } from '../../main/core/service/index.js';
import { dispatch } from '../../main/core/service/dispatch.js';
import type { EventName, EventPayload, MethodInput, MethodName, MethodOutput } from '../../preload/contract.js';

/** A contract method called as the window calls it; a failure throws `code: message`, with `code` on the error. */
export function callerOf(service: KnackService) {
  return async <M extends MethodName>(m: M, input: MethodInput<M>): Promise<MethodOutput<M>> => {
    const r = await dispatch(service.handlers, m, input, () => {});
    if (!r.ok)
      throw Object.assign(new Error(`${r.error.code}: ${r.error.message}`), {
        code: r.error.code,
        ...(r.error.words ? { words: r.error.words } : {}),
      });
    return r.value as MethodOutput<M>;
  };
}

/**
 * A test service's workspace: no watcher, and the OS sandbox starts on its first use (a command, `sandbox.status`, a
 * source's git) instead of as the workspace opens, as it does in the product (test/unit/contain/wall-at-open.test.ts):
 * a test that never runs a program does not pay for starting bubblewrap, one that does still runs it in the real wall.
 */
export const testWorkspace = { watch: false, startWall: false } as const;

/**
 * The workspace `repo` (with `files`) open in a new service talking to a fake Anthropic server; closed after the test.
 * Its sandbox starts on first use (`testWorkspace`). `prepare` is given the paths before the service opens, its data
 * folder made: a test puts there what the service finds (a damaged knack.db, a newer schema).
 */
export async function serviceEnv(
  t: { after(fn: () => unknown): void },
  opts: { files?: Record<string, string>; extra?: Partial<ServiceOptions>; prepare?: (paths: KnackPaths) => void } = {},
) {
  const root = tempDir();
  const ws = join(root, 'repo');
  writeTree(ws, { 'notes.txt': 'release on Friday', ...opts.files });
  const server = await startFakeAnthropic();
  const paths = resolvePaths({
    home: join(root, 'home'),
    dataDir: join(root, 'data'),
    builtinSkillsDir: join(root, 'none'),
  });
  seedSearchCache(paths.dataDir);
  if (opts.prepare) {
    mkdirSync(paths.dataDir, { recursive: true });
    opts.prepare(paths);
  }
  const service = new KnackService({
    paths,
    transport: 'serve',
    version: 't',
    log: () => {},
    workspaceOptions: testWorkspace,
    provider: { provider: 'anthropic', model: 'fake-model', baseURL: server.url },
    env: { ANTHROPIC_API_KEY: 'sk-ant-test-0123456789' },
    ...opts.extra,
  });
  await service.openWorkspace(ws);
  const events: { name: EventName; payload: unknown }[] = [];
  service.events.on((name, payload) => events.push({ name, payload }));
  t.after(async () => {
    await service.close();
    await server.close();
  });
  /** The next `name` event (that `pred` accepts). */
  const next = <E extends EventName>(name: E, pred: (p: EventPayload<E>) => boolean = () => true) =>
    new Promise<EventPayload<E>>((resolve) => {
      const off = service.events.on((n, p) => {
        if (n === name && pred(p as EventPayload<E>)) {
          off();
          resolve(p as EventPayload<E>);
        }
      });
    });
  /** Every `name` event so far. */
  const of = <E extends EventName>(name: E) =>
    events.filter((e) => e.name === name).map((e) => e.payload as EventPayload<E>);
  return { root, ws, server, service, call: callerOf(service), next, of, paths };
}
