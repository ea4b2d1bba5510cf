// The renderer's typed client over either transport: Electron's bridge (window.knack) or serve mode's WebSocket.
// Same interface both ways; inputs are checked before sending and outputs/events validated on arrival. No Node imports.
import type { ClientFrame } from './contract.js';
import {
  ContractErrorSchema,
  SOCKET_PATH,
  ServerFrame,
  events,
  formatIssues,
  inputError,
  isEventName,
  methods,
  type ContractError,
  type EventName,
  type EventPayload,
  type MethodInput,
  type MethodName,
  type MethodOutput,
  type Result,
  type Said,
  wordedError,
} from './contract.js';
import { say } from './words.js';

/** A failed call, carrying the contract's error shape. */
export class KnackError extends Error {
  readonly code: string;
  /** @public The contract error's details, for a caller that wants them (the window reads none today). */
  readonly details: unknown;
  /** The message as words the window says in its language, when main sent them. */
  readonly words: Said | undefined;
  constructor(err: ContractError) {
    super(err.message);
    this.name = 'KnackError';
    this.code = err.code;
    this.details = err.details;
    this.words = err.words;
  }
}

/** How calls and events travel. Implementations never throw for a failed call: they resolve to an error Result. */
export interface Transport {
  call(method: MethodName, input: unknown): Promise<Result<unknown>>;
  /** Every event, raw; returns an unsubscribe function. */
  subscribe(listener: (name: string, payload: unknown) => void): () => void;
  close?(): void;
}

/** What the Electron preload exposes as window.knack: one function per method, and an event subscription. */
export interface KnackBridge {
  readonly methods: Readonly<Record<MethodName, (input: unknown) => Promise<Result<unknown>>>>;
  onEvent(listener: (name: string, payload: unknown) => void): () => void;
}

export interface KnackClient {
  call<M extends MethodName>(method: M, input: MethodInput<M>): Promise<MethodOutput<M>>;
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
  close(): void;
}

export interface ClientOptions {
  /** Called with events or answers that do not match the contract (dropped, never passed on). */
  onContractViolation?: (what: string) => void;
}

export function createClient(transport: Transport, opts: ClientOptions = {}): KnackClient {
  const listeners = new Map<EventName, Set<(p: unknown) => void>>();
  const violation = opts.onContractViolation ?? ((what: string) => console.warn(`knack: ${what}`));
  const unsubscribe = transport.subscribe((name, payload) => {
    if (!isEventName(name)) return violation(`unknown event ${JSON.stringify(name).slice(0, 80)}`);
    const set = listeners.get(name);
    if (!set?.size) return;
    const parsed = events[name].safeParse(payload);
    if (!parsed.success) return violation(`event ${name} does not match the contract: ${formatIssues(parsed.error)}`);
    for (const l of set) l(parsed.data);
  });
  return {
    async call(method, input) {
      const spec = methods[method];
      if (!spec)
        throw new KnackError(wordedError('unknown_method', say('contract.unknownMethod', { method: String(method) })));
      const checked = spec.input.safeParse(input);
      if (!checked.success) throw new KnackError(inputError(method, checked.error));
      const result = await transport.call(method, input);
      if (!result.ok)
        throw new KnackError(
          ContractErrorSchema.safeParse(result.error).success
            ? result.error
            : wordedError('internal', say('contract.malformedError')),
        );
      const out = spec.output.safeParse(result.value);
      if (!out.success) {
        violation(`${method} answered outside the contract: ${formatIssues(out.error)}`);
        throw new KnackError(wordedError('invalid_output', say('contract.answeredOutside', { method })));
      }
      return out.data as MethodOutput<typeof method>;
    },
    on(event, listener) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      const l = listener as (p: unknown) => void;
      set.add(l);
      return () => void set.delete(l);
    },
    close() {
      unsubscribe();
      transport.close?.();
    },
  };
}

/** Electron: the preload's window.knack. */
function bridgeTransport(bridge: KnackBridge): Transport {
  return {
    call: (method, input) => {
      const fn = bridge.methods[method];
      return fn
        ? fn(input)
        : Promise.resolve({
            ok: false,
            error: wordedError('unknown_method', say('contract.unknownMethod', { method })),
          });
    },
    subscribe: (listener) => bridge.onEvent(listener),
  };
}

/** The subset of the WebSocket API used here (the browser's, or the `ws` package's in tests). */
export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: 'open' | 'close' | 'error' | 'message', listener: (ev: { data?: unknown }) => void): void;
}

export interface SocketTransportOptions {
  /** Make the socket; called again to reconnect after the connection drops. */
  connect: () => SocketLike;
  /** Called when the connection drops (calls in flight fail with `unavailable`). */
  onDisconnect?: () => void;
}

const CONNECT_FAILED = 'could not connect to Knack';

/** A call failed with the connection (`unavailable`), with words the window says in its language. */
function lost(
  message: string,
  code: 'connection.closed' | 'connection.failed' | 'connection.clientClosed',
): ContractError {
  return wordedError('unavailable', { code }, undefined, message);
}

/** Serve mode: the contract over one WebSocket (frames defined in contract.ts). */
export function socketTransport(opts: SocketTransportOptions): Transport {
  let socket: SocketLike | undefined;
  let opened: Promise<SocketLike> | undefined;
  let nextId = 1;
  let closed = false;
  const pending = new Map<number, (r: Result<unknown>) => void>();
  const listeners = new Set<(name: string, payload: unknown) => void>();

  const failAll = (error: ContractError) => {
    for (const resolve of pending.values()) resolve({ ok: false, error });
    pending.clear();
  };

  const open = (): Promise<SocketLike> => {
    if (opened) return opened;
    opened = new Promise<SocketLike>((resolve, reject) => {
      const s = opts.connect();
      socket = s;
      let isOpen = false;
      s.addEventListener('open', () => {
        isOpen = true;
        resolve(s);
      });
      s.addEventListener('message', (ev) => {
        if (typeof ev.data !== 'string') return;
        let frame: ServerFrame;
        try {
          const parsed = ServerFrame.safeParse(JSON.parse(ev.data));
          if (!parsed.success) return;
          frame = parsed.data;
        } catch {
          return;
        }
        if (frame.type === 'result') {
          const resolveCall = pending.get(frame.id);
          pending.delete(frame.id);
          resolveCall?.(frame.result as Result<unknown>);
        } else {
          for (const l of listeners) l(frame.name, frame.payload);
        }
      });
      s.addEventListener('close', () => {
        opened = undefined;
        socket = undefined;
        failAll(lost('the connection to Knack closed', 'connection.closed'));
        if (!isOpen) reject(new Error(CONNECT_FAILED));
        if (!closed) opts.onDisconnect?.();
      });
      s.addEventListener('error', () => {
        /* a close event follows */
      });
    });
    return opened;
  };

  return {
    async call(method, input) {
      if (closed) return { ok: false, error: lost('the client is closed', 'connection.clientClosed') };
      let s: SocketLike;
      try {
        s = await open();
      } catch (e) {
        const message = (e as Error).message;
        return {
          ok: false,
          error:
            message === CONNECT_FAILED
              ? lost(message, 'connection.failed')
              : wordedError('unavailable', say('connection.failedBecause', { detail: message }), undefined, message),
        };
      }
      const id = nextId++;
      const frame: ClientFrame = { type: 'call', id, method, input };
      return new Promise((resolve) => {
        pending.set(id, resolve);
        try {
          s.send(JSON.stringify(frame));
        } catch (e) {
          pending.delete(id);
          const message = (e as Error).message;
          const words = say('connection.sendFailed', { detail: message });
          resolve({ ok: false, error: wordedError('unavailable', words, undefined, message) });
        }
      });
    },
    subscribe(listener) {
      listeners.add(listener);
      void open().catch(() => {});
      return () => void listeners.delete(listener);
    },
    close() {
      closed = true;
      failAll(lost('the client is closed', 'connection.clientClosed'));
      socket?.close(1000, 'bye');
    },
  };
}

/**
 * In the renderer: Electron's window.knack when the preload put it there, otherwise serve mode's socket on the page's
 * own origin (the per-run token travels as the HttpOnly cookie serve mode set when the page was first opened).
 */
export function connectFromPage(opts: ClientOptions & { onDisconnect?: () => void } = {}): KnackClient {
  const g = globalThis as unknown as {
    knack?: KnackBridge;
    location?: { protocol: string; host: string };
    WebSocket?: new (url: string) => SocketLike;
  };
  if (g.knack) return createClient(bridgeTransport(g.knack), opts);
  const loc = g.location;
  const WS = g.WebSocket;
  if (!loc || !WS) throw new Error('Knack: neither the desktop bridge nor a page location is available');
  const url = `${loc.protocol === 'https:' ? 'wss' : 'ws'}://${loc.host}${SOCKET_PATH}`;
  return createClient(
    socketTransport({ connect: () => new WS(url), ...(opts.onDisconnect ? { onDisconnect: opts.onDisconnect } : {}) }),
    opts,
  );
}
