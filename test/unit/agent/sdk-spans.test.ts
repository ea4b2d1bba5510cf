// Knack registers no OpenTelemetry tracer, so the Anthropic SDK's spans would be no-ops that still cost every request
// their set-up: Knack's client starts none, unless ANTHROPIC_OPEN_TELEMETRY asks for them (then the SDK's own rules).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
// The SDK's own dependency: a host process that registered a tracer provider, as an instrumented one would.
import { trace, type Span, type Tracer, type TracerProvider } from '@opentelemetry/api';
import { startFakeAnthropic } from '../../helpers/fake-anthropic.js';
import { anthropicProvider, anthropicTelemetry } from '../../../main/core/agent/providers/anthropic.js';
import type { StreamEvent } from '../../../main/core/agent/providers/types.js';

const started: string[] = [];
const span = trace.wrapSpanContext({
  traceId: '0af7651916cd43dd8448eb211c80319c',
  spanId: 'b7ad6b7169203331',
  traceFlags: 1,
});
const tracer = {
  startSpan(name: string): Span {
    started.push(name);
    return span;
  },
  startActiveSpan(): never {
    throw new Error('not used by the SDK');
  },
} as unknown as Tracer;
const provider: TracerProvider = { getTracer: () => tracer };
trace.setGlobalTracerProvider(provider);

const server = await startFakeAnthropic();
after(() => server.close());

async function oneRequest(): Promise<void> {
  server.script({ text: 'ok' });
  const p = anthropicProvider({
    apiKey: 'sk-test',
    model: 'claude-test',
    baseURL: server.url,
    contextWindow: 200_000,
    maxRetries: 0,
  });
  const events: StreamEvent[] = [];
  await p.run(
    { system: { stable: 'S', dynamic: '' }, tools: [], messages: [{ role: 'user', text: 'hello' }], maxTokens: 64 },
    (e) => void events.push(e),
  );
  assert.ok(events.some((e) => e.type === 'text'));
}

/** Runs `fn` with ANTHROPIC_OPEN_TELEMETRY set to `value` (unset when undefined), whatever the shell running the suite has. */
async function withTelemetryEnv(value: string | undefined, fn: () => Promise<void>): Promise<void> {
  const saved = process.env.ANTHROPIC_OPEN_TELEMETRY;
  if (value === undefined) delete process.env.ANTHROPIC_OPEN_TELEMETRY;
  else process.env.ANTHROPIC_OPEN_TELEMETRY = value;
  try {
    await fn();
  } finally {
    if (saved === undefined) delete process.env.ANTHROPIC_OPEN_TELEMETRY;
    else process.env.ANTHROPIC_OPEN_TELEMETRY = saved;
  }
}

test("with a tracer provider registered, Knack's Anthropic requests start no span by default", async () => {
  await withTelemetryEnv(undefined, async () => {
    const before = started.length;
    await oneRequest();
    assert.equal(started.length, before, started.join(','));
  });
});

test("ANTHROPIC_OPEN_TELEMETRY turns the SDK's spans back on; set to false, it keeps them off", async () => {
  await withTelemetryEnv('true', async () => {
    const before = started.length;
    await oneRequest();
    assert.deepEqual(started.slice(before), ['anthropic.messages.create']);
  });
  assert.deepEqual(anthropicTelemetry({ ANTHROPIC_OPEN_TELEMETRY: 'FALSE' }), { openTelemetry: false });
  assert.deepEqual(anthropicTelemetry({ ANTHROPIC_OPEN_TELEMETRY: '1' }), {});
  assert.deepEqual(anthropicTelemetry({}), { openTelemetry: false });
});
