// Serve mode: the built renderer and the contract over a WebSocket on 127.0.0.1, for a browser instead of Electron.
// Every request and the socket pass judgeRequest (loopback, Host, Origin, per-run token); frames are validated with
// the contract's schemas by the same dispatcher Electron uses.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import {
  ClientFrame,
  MAX_UPLOAD_BYTES,
  SOCKET_PATH,
  base64Length,
  contractError,
  type Result,
} from '../../preload/contract.js';
import { dispatch, type Handlers, type EventHub } from '../core/service/index.js';
import { contentTypeFor, rendererFileFor, securityHeaders, serveContentSecurityPolicy } from './http-security.js';
import {
  cookieName,
  cookieValue,
  judgeRequest,
  listenAddressProblem,
  newToken,
  tokenCookie,
  tokensEqual,
  type RequestFacts,
} from './guards.js';

export interface ServeOptions {
  handlers: Handlers;
  events: EventHub;
  /** The built renderer (dist/renderer). */
  rendererDir: string;
  /** 0 = any free port. */
  port?: number;
  /** Must be 127.0.0.1 (anything else is refused). */
  host?: string;
  /** Fixed token (tests); default: a fresh random one. */
  token?: string;
  /** Largest accepted frame (default: room for the largest skills.installUpload, MAX_UPLOAD_BYTES as base64). */
  maxPayload?: number;
  log?: (line: string) => void;
}

export interface ServeHandle {
  /** http://127.0.0.1:PORT/?token=… — open this; the page then keeps the token in an HttpOnly cookie. */
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function facts(req: IncomingMessage, port: number, upgrade: boolean): RequestFacts {
  const url = new URL(req.url ?? '/', 'http://placeholder');
  const auth = header(req, 'authorization');
  const bearer = auth?.startsWith('Bearer ') ? auth.slice(7) : undefined;
  return {
    method: req.method ?? 'GET',
    host: header(req, 'host'),
    origin: header(req, 'origin'),
    fetchSite: header(req, 'sec-fetch-site'),
    remoteAddress: req.socket.remoteAddress,
    token: url.searchParams.get('token') ?? bearer ?? cookieValue(header(req, 'cookie'), cookieName(port)),
    upgrade,
  };
}

/** Bytes a socket's outgoing queue may hold before its client counts as not reading (it is then closed). */
const MAX_QUEUE_BYTES = 8 * 2 ** 20;
/** Calls of one socket running at once; its further frames are not read until one answers. */
const MAX_IN_FLIGHT = 16;
/** How long a socket closed for being slow may take to read its close frame before it is cut. */
const CLOSE_GRACE_MS = 2000;

/**
 * A result as JSON, once per result object: a heavy answer shared by many calls (skills.list of thousands, computed
 * once per catalog version and validated once, see dispatch) is serialised once, not per call and per socket.
 */
const serialised = new WeakMap<object, string>();
function resultJson(result: Result<unknown>): string {
  if (!result.ok) return JSON.stringify(result);
  let text = serialised.get(result);
  if (text === undefined) serialised.set(result, (text = JSON.stringify(result)));
  return text;
}

const DENIED_PAGE = (reason: string) =>
  `<!doctype html><meta charset="utf-8"><title>Knack</title><p>Knack refused this request (${reason.replace(/[<>&"]/g, '')}).</p>` +
  "<p>Open the address printed by <code>knack serve</code> in the terminal; it carries this run's token.</p>";

export async function startServe(opts: ServeOptions): Promise<ServeHandle> {
  const host = opts.host ?? '127.0.0.1';
  const problem = listenAddressProblem(host);
  if (problem) throw new Error(problem);
  const token = opts.token ?? newToken();
  const root = resolve(opts.rendererDir);
  const log = opts.log ?? (() => {});
  let port = opts.port ?? 0;

  const send = (res: ServerResponse, status: number, body: string | Buffer, headers: Record<string, string> = {}) => {
    res.writeHead(status, {
      ...securityHeaders(serveContentSecurityPolicy(port)),
      'Content-Type': 'text/html; charset=utf-8',
      ...headers,
    });
    res.end(body);
  };

  const server = createServer((req, res) => {
    void (async () => {
      const f = facts(req, port, false);
      const verdict = judgeRequest(f, port, token);
      if (!verdict.ok) {
        log(`refused ${f.method} ${req.url?.split('?')[0]}: ${verdict.reason}`);
        return send(res, verdict.status, DENIED_PAGE(verdict.reason));
      }
      if (f.method !== 'GET' && f.method !== 'HEAD')
        return send(res, 405, 'method not allowed', { Allow: 'GET, HEAD' });
      const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
      // First visit with ?token=: keep it in an HttpOnly cookie and drop it from the address bar and history.
      if (url.searchParams.has('token') && tokensEqual(url.searchParams.get('token') ?? undefined, token)) {
        url.searchParams.delete('token');
        return send(res, 303, '', { Location: url.pathname + url.search, 'Set-Cookie': tokenCookie(port, token) });
      }
      const target = rendererFileFor(url.pathname);
      if ('problem' in target) return send(res, 404, 'not found');
      const file = join(root, ...target.rel.split('/'));
      if (file !== root && !file.startsWith(root + sep)) return send(res, 404, 'not found');
      try {
        const st = await stat(file);
        if (!st.isFile()) return send(res, 404, 'not found');
        const body = await readFile(file);
        return send(res, 200, f.method === 'HEAD' ? '' : body, { 'Content-Type': contentTypeFor(target.rel) });
      } catch {
        if (target.rel === 'index.html') {
          return send(
            res,
            503,
            `<!doctype html><meta charset="utf-8"><title>Knack</title><p>The interface is not built in ${root.replace(/[<>&"]/g, '')}. Run <code>npm run build</code>, then reload.</p>`,
          );
        }
        return send(res, 404, 'not found');
      }
    })().catch((e: unknown) => {
      log(`request failed: ${(e as Error).message}`);
      if (!res.headersSent) send(res, 500, 'internal error');
      else res.destroy();
    });
  });

  // Imported here: only serve mode needs a WebSocket server (the `knack` bundle starts without it).
  const { WebSocketServer } = await import('ws');
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: opts.maxPayload ?? base64Length(MAX_UPLOAD_BYTES) + 64 * 1024,
  });
  const refuseUpgrade = (socket: Duplex, status: number, reason: string) => {
    const text =
      status === 401
        ? 'Unauthorized'
        : status === 421
          ? 'Misdirected Request'
          : status === 404
            ? 'Not Found'
            : 'Forbidden';
    socket.end(
      `HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(reason)}\r\n\r\n${reason}`,
    );
  };

  server.on('upgrade', (req, socket, head) => {
    const f = facts(req, port, true);
    const verdict = judgeRequest(f, port, token);
    if (!verdict.ok) {
      log(`refused socket: ${verdict.reason}`);
      return refuseUpgrade(socket, verdict.status, verdict.reason);
    }
    if (new URL(req.url ?? '/', 'http://placeholder').pathname !== SOCKET_PATH)
      return refuseUpgrade(socket, 404, 'no such socket');
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });

  wss.on('connection', (ws: WebSocket) => {
    // Per-socket back-pressure: answers and events wait in this socket's outgoing queue only up to MAX_QUEUE_BYTES (a
    // client that stops reading is closed, saying why), and at most MAX_IN_FLIGHT calls run for it at once (further
    // frames wait unread in the kernel, which slows the sender down).
    let inFlight = 0;
    const held: string[] = [];
    let closedWhy: string | undefined;
    const tooSlow = () => {
      if (closedWhy) return;
      closedWhy = `client too slow: over ${MAX_QUEUE_BYTES / 2 ** 20} MB of answers and events not read`;
      log(`closed a socket: ${closedWhy}`);
      held.length = 0;
      ws.close(1013, closedWhy);
      // The close frame waits behind the unread queue; the socket goes (and its queue with it) if it is not read.
      setTimeout(() => ws.terminate(), CLOSE_GRACE_MS).unref();
    };
    const send = (text: string) => {
      if (ws.readyState !== ws.OPEN || closedWhy) return;
      if (ws.bufferedAmount + text.length > MAX_QUEUE_BYTES) return tooSlow();
      ws.send(text);
    };
    const off = opts.events.on((name, payload) => send(JSON.stringify({ type: 'event', name, payload })));
    ws.on('close', off);
    ws.on('error', () => ws.close());
    const answer = (id: number, result: Result<unknown>) =>
      send(`{"type":"result","id":${id},"result":${resultJson(result)}}`);
    const handle = (text: string) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        return ws.close(1007, 'not JSON');
      }
      const frame = ClientFrame.safeParse(parsed);
      if (!frame.success) {
        const id = (parsed as { id?: unknown } | null)?.id;
        if (typeof id === 'number' && Number.isInteger(id) && id >= 0) {
          return answer(id, { ok: false, error: contractError('invalid_input', 'malformed call frame') });
        }
        return ws.close(1008, 'malformed frame');
      }
      const { id, method, input } = frame.data;
      inFlight++;
      void dispatch(opts.handlers, method, input, (m, e) => log(`${m} failed: ${(e as Error)?.stack ?? String(e)}`))
        .then((result) => answer(id, result))
        .finally(() => {
          inFlight--;
          while (inFlight < MAX_IN_FLIGHT && held.length) handle(held.shift()!);
          if (inFlight < MAX_IN_FLIGHT && !held.length && ws.isPaused) ws.resume();
        });
    };
    ws.on('message', (data, isBinary) => {
      if (isBinary) return ws.close(1003, 'text frames only');
      if (closedWhy) return;
      // Frames already read off the socket with the one that filled the last slot wait here (one read's worth).
      if (inFlight >= MAX_IN_FLIGHT) {
        held.push(data.toString());
        ws.pause();
        return;
      }
      handle(data.toString());
    });
  });

  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => {
      server.off('error', fail);
      ok();
    });
  });
  port = (server.address() as { port: number }).port;

  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    token,
    close() {
      closing ??= new Promise<void>((done) => {
        for (const c of wss.clients) c.close(1001, 'Knack is shutting down');
        wss.close();
        server.close(() => done());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
