// A fake Anthropic Messages API on loopback speaking the real SSE wire format (message_start, content_block_*,
// text_delta, input_json_delta, message_delta, message_stop, error events), driven by scripted turns.
import { pathToFileURL } from 'node:url';
import {
  chunksOf,
  nextId,
  runFromCommandLine,
  sleep,
  startFakeServer,
  type FakeServer,
  type FakeTurn,
} from './fake-provider.js';

export type { FakeServer, FakeTurn, FakeToolCall, RecordedRequest } from './fake-provider.js';

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

function errorBody(turn: FakeTurn): unknown {
  const type = turn.errorType ?? ERROR_TYPES[turn.status ?? 500] ?? 'api_error';
  return { type: 'error', error: { type, message: turn.errorMessage ?? type.replace(/_/g, ' ') } };
}

/** Start a fake Anthropic server; give `server.url` to the SDK as `baseURL`. */
export function startFakeAnthropic(): Promise<FakeServer> {
  return startFakeServer({
    basePath: '',
    endpoint: '/v1/messages',
    // GET /v1/models as api.anthropic.com answers it (one page).
    modelsPath: '/v1/models',
    modelsBody: (ids) => ({
      data: ids.map((id) => ({ type: 'model', id, display_name: id, created_at: '2026-01-01T00:00:00Z' })),
      has_more: false,
      first_id: ids[0] ?? null,
      last_id: ids.at(-1) ?? null,
    }),
    errorBody,
    // The SDK sends the key as x-api-key or as a bearer token, by version.
    keyOf: (h) =>
      typeof h['x-api-key'] === 'string' ? h['x-api-key'] : /^Bearer (.*)$/.exec(h.authorization ?? '')?.[1],
    // What api.anthropic.com answers to a wrong x-api-key.
    authError: () => ({
      type: 'error',
      error: { type: 'authentication_error', message: 'invalid x-api-key' },
      request_id: nextId('req_'),
    }),
    async write(turn, req, res, signal) {
      const send = (event: string, data: unknown): void =>
        void res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      const u = turn.usage ?? {};
      res.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache',
        'request-id': nextId('req_'),
      });
      send('message_start', {
        type: 'message_start',
        message: {
          id: nextId('msg_'),
          type: 'message',
          role: 'assistant',
          model: req.body.model ?? 'fake',
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: {
            input_tokens: u.input ?? 10,
            output_tokens: 1,
            cache_creation_input_tokens: u.cacheWrite ?? 0,
            cache_read_input_tokens: u.cacheRead ?? 0,
          },
        },
      });
      send('ping', { type: 'ping' });
      if (turn.firstDelayMs) await sleep(turn.firstDelayMs, signal);
      let index = 0;
      const chunks = chunksOf(turn);
      // An error event before any content (failAfterChunks: 0 with no text): a provider failing at once.
      if (!chunks.length && turn.failAfterChunks !== undefined) {
        send('error', errorBody({ ...turn, status: turn.status ?? 529 }));
        res.end();
        return;
      }
      if (chunks.length) {
        send('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
        let n = 0;
        for (const c of chunks) {
          if (signal.aborted) return;
          if (turn.failAfterChunks !== undefined && n === turn.failAfterChunks) break;
          send('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: c } });
          n++;
          if (turn.chunkDelayMs) await sleep(turn.chunkDelayMs, signal);
        }
        if (turn.failAfterChunks !== undefined) {
          send('error', errorBody({ ...turn, status: turn.status ?? 529 }));
          res.end();
          return;
        }
        if (turn.dropAfterChunks) return void res.destroy();
        if (turn.endWithoutStop) return void res.end();
        if (turn.hang) {
          await sleep(3_600_000, signal);
          return;
        }
        send('content_block_stop', { type: 'content_block_stop', index });
        index++;
      }
      for (const call of turn.toolCalls ?? []) {
        const json = call.rawArguments ?? JSON.stringify(call.input ?? {});
        send('content_block_start', {
          type: 'content_block_start',
          index,
          content_block: { type: 'tool_use', id: call.id ?? nextId('toolu_'), name: call.name, input: {} },
        });
        for (let i = 0; i < json.length; i += 12) {
          send('content_block_delta', {
            type: 'content_block_delta',
            index,
            delta: { type: 'input_json_delta', partial_json: json.slice(i, i + 12) },
          });
          if (turn.chunkDelayMs) await sleep(turn.chunkDelayMs, signal);
        }
        send('content_block_stop', { type: 'content_block_stop', index });
        index++;
      }
      const stop = turn.stopReason ?? (turn.toolCalls?.length ? 'tool_use' : 'end_turn');
      send('message_delta', {
        type: 'message_delta',
        delta: { stop_reason: stop, stop_sequence: null },
        usage: { output_tokens: u.output ?? Math.max(1, chunks.length) },
      });
      send('message_stop', { type: 'message_stop' });
      res.end();
    },
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href)
  void runFromCommandLine(startFakeAnthropic, process.argv.slice(2));
