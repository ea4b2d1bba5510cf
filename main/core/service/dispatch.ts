// Binds the contract to handlers, the same way for every transport (Electron IPC, serve mode's WebSocket, tests):
// unknown method → error, input validated before a handler runs, output validated after, every failure a ContractError.
import {
  events,
  formatIssues,
  inputError,
  isMethodName,
  methods,
  type ContractError,
  type ErrorCode,
  type EventName,
  type EventPayload,
  type MethodArgs,
  type MethodName,
  type MethodOutput,
  type Result,
  wordedError,
} from '../../../preload/contract.js';
import { Refusal, say, type Said } from '../base/index.js';

/**
 * A failure a handler reports on purpose, as words: crosses as {code, message, details, words}, the words said in the
 * window's language. Its message is their English, or the fuller one given (another program's text verbatim).
 */
export class ServiceError extends Refusal {
  constructor(
    readonly code: ErrorCode,
    words: Said,
    readonly details?: unknown,
    message?: string,
  ) {
    super(words, message);
    this.name = 'ServiceError';
  }
}

export type Handler<M extends MethodName> = (args: MethodArgs<M>) => Promise<MethodOutput<M>> | MethodOutput<M>;
export type Handlers = { [M in MethodName]: Handler<M> };

export type EventListener = (name: EventName, payload: unknown) => void;

/** Every handler answers; anything else (a throw, a value outside the contract) becomes a ContractError. */
export async function dispatch(
  handlers: Handlers,
  method: unknown,
  input: unknown,
  onInternal: (method: string, err: unknown) => void = (m, e) => console.error(`knack: ${m} failed:`, e),
): Promise<Result<unknown>> {
  if (!isMethodName(method)) {
    return {
      ok: false,
      error: wordedError(
        'unknown_method',
        say('contract.unknownMethod', { method: JSON.stringify(String(method)).slice(0, 100) }),
      ),
    };
  }
  const spec = methods[method];
  const parsed = spec.input.safeParse(input ?? {});
  if (!parsed.success) {
    return {
      ok: false,
      error: inputError(method, parsed.error, {
        issues: parsed.error.issues.map((i) => ({ path: i.path.map(String), message: i.message })),
      }),
    };
  }
  let value: unknown;
  try {
    value = await (handlers[method] as (a: unknown) => unknown)(parsed.data);
  } catch (e) {
    return { ok: false, error: toContractError(method, e, onInternal) };
  }
  const shared = typeof value === 'object' && value !== null && SHARED.has(value) ? value : undefined;
  const known = shared && VALIDATED.get(shared);
  if (known) return known;
  const out = spec.output.safeParse(value);
  if (!out.success) {
    onInternal(method, new Error(`answer outside the contract: ${formatIssues(out.error)}`));
    return { ok: false, error: wordedError('invalid_output', say('contract.badAnswer', { method })) };
  }
  const result = { ok: true as const, value: out.data };
  if (shared) VALIDATED.set(shared, result);
  return result;
}

/** Answers marked shared (sharedAnswer), and the one validated result of each, handed to every call that gets it. */
const SHARED = new WeakSet<object>();
const VALIDATED = new WeakMap<object, Result<unknown>>();

/**
 * Mark a handler's answer as shared by many calls and never changed (a heavy answer computed once per version of what
 * it shows): dispatch validates it once and gives every call the same result object, which serve serialises once.
 */
export function sharedAnswer<T extends object>(value: T): T {
  SHARED.add(value);
  return value;
}

function toContractError(
  method: string,
  e: unknown,
  onInternal: (method: string, err: unknown) => void,
): ContractError {
  if (e instanceof ServiceError) return wordedError(e.code, e.words, e.details, e.message);
  onInternal(method, e);
  // The message of an unexpected error is shown, verbatim behind words (or its own words, when it has them); its
  // stack stays in main's log.
  const message = e instanceof Error ? e.message : String(e);
  const why = (e as { words?: Said } | undefined)?.words;
  const words = why
    ? say('service.failedBecause', { method, why })
    : say('service.failed', { method, detail: message });
  return wordedError('internal', words, undefined, `${method} failed: ${message}`);
}

/** Validates an event before it leaves main; an event outside the contract is dropped and logged, never sent. */
function checkedEvent<E extends EventName>(
  name: E,
  payload: EventPayload<E>,
): { ok: true; payload: unknown } | { ok: false; problem: string } {
  const parsed = events[name].safeParse(payload);
  return parsed.success
    ? { ok: true, payload: parsed.data }
    : { ok: false, problem: `event ${name}: ${formatIssues(parsed.error)}` };
}

/** A small fan-out for contract events with validation at the source. */
export class EventHub {
  private readonly listeners = new Set<EventListener>();
  constructor(private readonly onProblem: (problem: string) => void = (p) => console.error(`knack: ${p}`)) {}
  on(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }
  emit<E extends EventName>(name: E, payload: EventPayload<E>): void {
    const checked = checkedEvent(name, payload);
    if (!checked.ok) return this.onProblem(checked.problem);
    for (const l of this.listeners) {
      try {
        l(name, checked.payload);
      } catch (e) {
        this.onProblem(`event listener for ${name} threw: ${(e as Error).message}`);
      }
    }
  }
}
