// The scripting API shared by the fake model servers (fake-anthropic.ts, fake-openai.ts): scripted turns, recorded
// requests, a loopback HTTP server. Each server speaks its provider's real wire format; the official SDKs call it.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeToolCall {
  /** Call id (default: generated). */
  id?: string;
  name: string;
  /** Arguments as an object (serialised as JSON, streamed in pieces). */
  input?: unknown;
  /** Arguments sent verbatim instead of `input` — e.g. malformed JSON. */
  rawArguments?: string;
}

/** One scripted reply: a stream of text and tool calls, an HTTP error, or a stream that fails or hangs. */
export interface FakeTurn {
  /** Text streamed in small chunks. */
  text?: string;
  /** Explicit text chunks (win over `text`). */
  chunks?: string[];
  toolCalls?: FakeToolCall[];
  /** Reply with this HTTP status and an error body instead of a stream (429, 401, 404, 400, 500, 529 …). */
  status?: number;
  /** Provider error type for `status` or `failAfterChunks` (e.g. rate_limit_error, overloaded_error). */
  errorType?: string;
  errorMessage?: string;
  /** Seconds, sent as `retry-after` with an error status. */
  retryAfter?: number;
  /** Send an error event after this many text chunks (an error mid-stream). */
  failAfterChunks?: number;
  /** Milliseconds between the stream's start (headers, the first frame) and its first content (a model thinking). */
  firstDelayMs?: number;
  /** Milliseconds between chunks. */
  chunkDelayMs?: number;
  /** After the chunks, keep the stream open until the client goes away (for cancellation tests). */
  hang?: boolean;
  /** Answer nothing at all (not even the headers) until the client goes away (an aborted request ends it). */
  stall?: boolean;
  /** Cut the connection after the chunks without finishing the message. */
  dropAfterChunks?: boolean;
  /** End the response cleanly after the chunks, without the provider's end of message (message_stop, finish_reason, [DONE]). */
  endWithoutStop?: boolean;
  stopReason?: string;
  usage?: { input?: number; output?: number; cacheRead?: number; cacheWrite?: number };
}

export interface RecordedRequest {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown>;
  /** The body's bytes as received (UTF-8). */
  raw: string;
  /** The client went away before the reply was complete (it aborted the request). */
  clientClosed?: boolean;
  /** Image blocks of the user's messages in either wire format, in order (Anthropic base64 source, OpenAI data URL). */
  images: { mediaType: string; data: string }[];
  /** Attached files sent as text (`<attachment name=… size=…>` blocks) in the user's messages, in order. */
  files: { name: string; size: string; text: string }[];
}

/** The images and attached text files of every user message of a request body, in either wire format. */
function userFilesOf(body: Record<string, unknown>): Pick<RecordedRequest, 'images' | 'files'> {
  const images: RecordedRequest['images'] = [];
  const files: RecordedRequest['files'] = [];
  const msgs = Array.isArray(body.messages) ? (body.messages as { role: string; content: unknown }[]) : [];
  for (const m of msgs) {
    if (m.role !== 'user' || !Array.isArray(m.content)) continue;
    for (const b of m.content as Record<string, unknown>[]) {
      const source = b.source as { type?: string; media_type?: string; data?: string } | undefined;
      const url = (b.image_url as { url?: string } | undefined)?.url;
      if (b.type === 'image' && source?.type === 'base64')
        images.push({ mediaType: source.media_type ?? '', data: source.data ?? '' });
      else if (b.type === 'image_url' && url) {
        const d = /^data:([^;]+);base64,(.*)$/s.exec(url);
        if (d) images.push({ mediaType: d[1]!, data: d[2]! });
      } else if (b.type === 'text' && typeof b.text === 'string') {
        const f = /^<attachment name="([^"]*)" size="([^"]*)">\n([\s\S]*)\n<\/attachment>$/.exec(b.text);
        if (f) files.push({ name: f[1]!, size: f[2]!, text: f[3]! });
      }
    }
  }
  return { images, files };
}

export interface FakeServer {
  /** Base URL to give the SDK (Anthropic: the origin; OpenAI: origin + /v1). */
  url: string;
  origin: string;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /** Append turns; each request consumes one. With none left, the server echoes the last user message. */
  script(...turns: FakeTurn[]): void;
  /** Drop the turns not consumed yet. */
  clear(): void;
  /** Turns not consumed yet. */
  remaining(): number;
  /** Resolves when a request has started streaming (count from 1). */
  streaming(n?: number): Promise<void>;
  /**
   * Accept only this API key from now on (undefined: any key): a request with another key gets the provider's real
   * 401 body, as a wrong key pasted by a user would, and consumes no turn.
   */
  requireKey(key: string | undefined): void;
  /**
   * The models `GET <base>/models` lists (default: fake-model, fake-model-large), in the provider's own list format;
   * undefined: that route answers 404, as a server that lists no models does.
   */
  setModels(ids: string[] | undefined): void;
  /** How many times the model list was asked for. */
  modelListings(): number;
  close(): Promise<void>;
}

export type TurnWriter = (
  turn: FakeTurn,
  req: RecordedRequest,
  res: ServerResponse,
  signal: AbortSignal,
) => Promise<void>;

/** Sleep until `ms` pass or `signal` aborts; the abort listener goes with the sleep (a stream sleeps per chunk). */
export const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    if (ms <= 0 || signal?.aborted) return resolve();
    const done = (): void => {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const t = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });

/** Split text into small chunks the way providers stream (a few characters each, code points kept whole). */
export function chunksOf(turn: FakeTurn): string[] {
  if (turn.chunks) return turn.chunks;
  if (!turn.text) return [];
  const cps = [...turn.text];
  const out: string[] = [];
  for (let i = 0; i < cps.length; i += 6) out.push(cps.slice(i, i + 6).join(''));
  return out;
}

/** The text of the last user message in either wire format (for the default echo reply). */
function lastUserText(body: Record<string, unknown>): string {
  const msgs = Array.isArray(body.messages) ? (body.messages as { role: string; content: unknown }[]) : [];
  for (let i = msgs.length - 1; i >= 0; i--) {
    const m = msgs[i]!;
    if (m.role !== 'user') continue;
    if (typeof m.content === 'string') return m.content;
    if (Array.isArray(m.content)) {
      // The message's own words: its last text block (attached files come before it).
      const t = (m.content as { type: string; text?: string }[]).filter((b) => b.type === 'text').at(-1)?.text;
      if (t) return t;
    }
  }
  return '';
}

let idCounter = 0;
export const nextId = (prefix: string): string => `${prefix}${(++idCounter).toString(36).padStart(6, '0')}`;

export async function startFakeServer(opts: {
  basePath: string;
  endpoint: string;
  write: TurnWriter;
  errorBody: (turn: FakeTurn) => unknown;
  /** The key a request carries, as the provider reads it (x-api-key, or Authorization: Bearer). */
  keyOf: (headers: IncomingMessage['headers']) => string | undefined;
  /** The provider's own 401 body for a wrong key. */
  authError: (given: string) => unknown;
  /** Where the provider lists its models (GET), and its own body for that list. */
  modelsPath: string;
  modelsBody: (ids: string[]) => unknown;
}): Promise<FakeServer> {
  let required: string | undefined;
  let models: string[] | undefined = ['fake-model', 'fake-model-large'];
  let listings = 0;
  const turns: FakeTurn[] = [];
  const requests: RecordedRequest[] = [];
  let started = 0;
  const waiters: { n: number; resolve: () => void }[] = [];
  const open = new Set<ServerResponse>();
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const path = (req.url ?? '').split('?')[0] ?? '';
        if (req.method === 'GET' && path === opts.modelsPath && models) {
          listings++;
          const given = opts.keyOf(req.headers) ?? '';
          if (required !== undefined && given !== required) {
            res.writeHead(401, { 'content-type': 'application/json' });
            res.end(JSON.stringify(opts.authError(given)));
            return;
          }
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify(opts.modelsBody(models)));
          return;
        }
        if (req.method !== 'POST' || path !== opts.basePath + opts.endpoint) {
          res.writeHead(404, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { type: 'not_found_error', message: `no route ${req.method} ${path}` } }));
          return;
        }
        let body: Record<string, unknown> = {};
        const raw = Buffer.concat(chunks).toString('utf8');
        try {
          body = JSON.parse(raw) as Record<string, unknown>;
        } catch {
          res.writeHead(400, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { type: 'invalid_request_error', message: 'body is not JSON' } }));
          return;
        }
        const rec: RecordedRequest = { path, headers: req.headers, body, raw, ...userFilesOf(body) };
        requests.push(rec);
        const given = opts.keyOf(req.headers) ?? '';
        if (required !== undefined && given !== required) {
          res.writeHead(401, { 'content-type': 'application/json' });
          res.end(JSON.stringify(opts.authError(given)));
          return;
        }
        const turn = turns.shift() ?? { text: `ok: ${lastUserText(body)}` };
        if (turn.status) {
          const headers: Record<string, string> = { 'content-type': 'application/json' };
          if (turn.retryAfter !== undefined) headers['retry-after'] = String(turn.retryAfter);
          res.writeHead(turn.status, headers);
          res.end(JSON.stringify(opts.errorBody(turn)));
          return;
        }
        const ac = new AbortController();
        res.on('close', () => {
          if (!res.writableFinished) rec.clientClosed = true;
          ac.abort();
        });
        open.add(res);
        started++;
        for (const w of [...waiters])
          if (started >= w.n) {
            waiters.splice(waiters.indexOf(w), 1);
            w.resolve();
          }
        try {
          if (turn.stall) return void (await sleep(3_600_000, ac.signal));
          await opts.write(turn, rec, res, ac.signal);
        } finally {
          open.delete(res);
        }
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: origin + opts.basePath,
    origin,
    requests,
    setModels: (ids) => void (models = ids),
    modelListings: () => listings,
    script: (...t) => void turns.push(...t),
    clear: () => void turns.splice(0),
    remaining: () => turns.length,
    requireKey: (key) => void (required = key),
    streaming: (n = 1) => (started >= n ? Promise.resolve() : new Promise((resolve) => waiters.push({ n, resolve }))),
    close: () =>
      new Promise<void>((resolve) => {
        for (const r of open) r.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Serve from the command line (for serve mode and manual runs): `--script FILE.json` holds an array of turns. */
export async function runFromCommandLine(start: () => Promise<FakeServer>, argv: string[]): Promise<void> {
  const { readFileSync } = await import('node:fs');
  const server = await start();
  const at = argv.indexOf('--script');
  if (at >= 0 && argv[at + 1]) server.script(...(JSON.parse(readFileSync(argv[at + 1]!, 'utf8')) as FakeTurn[]));
  process.stdout.write(`${server.url}\n`);
  const stop = (): void => void server.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
