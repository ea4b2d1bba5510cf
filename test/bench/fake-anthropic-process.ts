// The fake Anthropic server in a process of its own, for the agent bench: its JSON parsing and SSE writing run on
// another event loop (as a real provider's do, on another machine). Scripted over IPC, never during a timed call.
//
//   const server = await startFakeAnthropicProcess();   // { url, script(turn), lastRequest(), close() }
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startFakeAnthropic, type FakeTurn } from '../helpers/fake-anthropic.js';

type ToChild = { kind: 'script'; turn: FakeTurn } | { kind: 'last'; id: number } | { kind: 'close' };
type FromChild =
  | { kind: 'ready'; url: string }
  | { kind: 'last'; id: number; body: Record<string, unknown> | null }
  | { kind: 'scripted' };

export interface FakeAnthropicProcess {
  url: string;
  /** Queue a turn; resolves once the server has it. */
  script(turn: FakeTurn): Promise<void>;
  /** The body of the last request the server received. */
  lastRequest(): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

export async function startFakeAnthropicProcess(): Promise<FakeAnthropicProcess> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const waiting: ((m: FromChild) => boolean)[] = [];
  child.on('message', (m: FromChild) => {
    const i = waiting.findIndex((w) => w(m));
    if (i >= 0) waiting.splice(i, 1);
  });
  const next = <T extends FromChild>(pred: (m: FromChild) => m is T): Promise<T> =>
    new Promise((resolve) => waiting.push((m) => (pred(m) ? (resolve(m), true) : false)));
  const ready = await next((m): m is Extract<FromChild, { kind: 'ready' }> => m.kind === 'ready');
  const send = (m: ToChild): void => void child.send(m);
  let ids = 0;
  return {
    url: ready.url,
    async script(turn) {
      const done = next((m): m is Extract<FromChild, { kind: 'scripted' }> => m.kind === 'scripted');
      send({ kind: 'script', turn });
      await done;
    },
    async lastRequest() {
      const id = ++ids;
      const r = next((m): m is Extract<FromChild, { kind: 'last' }> => m.kind === 'last' && m.id === id);
      send({ kind: 'last', id });
      const { body } = await r;
      if (!body) throw new Error('the fake server has received no request yet');
      return body;
    },
    close: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        send({ kind: 'close' });
      }),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href && process.send) {
  const server = await startFakeAnthropic();
  process.on('message', (m: ToChild) => {
    if (m.kind === 'script') {
      server.script(m.turn);
      process.send!({ kind: 'scripted' } satisfies FromChild);
    } else if (m.kind === 'last') {
      process.send!({ kind: 'last', id: m.id, body: server.requests.at(-1)?.body ?? null } satisfies FromChild);
      server.requests.length = 0;
    } else {
      void server.close().then(() => process.exit(0));
    }
  });
  process.send({ kind: 'ready', url: server.url } satisfies FromChild);
}
