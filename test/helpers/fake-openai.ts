// A fake OpenAI-compatible Chat Completions API on loopback speaking the real chunk format (delta.content,
// delta.tool_calls with index/id/arguments pieces, finish_reason, usage, `data: [DONE]`), driven by scripted turns.
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

const CODES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'invalid_api_key',
  404: 'model_not_found',
  429: 'rate_limit_exceeded',
  500: 'server_error',
  503: 'overloaded',
};

function errorBody(turn: FakeTurn): unknown {
  const code = turn.errorType ?? CODES[turn.status ?? 500] ?? 'server_error';
  return { error: { message: turn.errorMessage ?? code.replace(/_/g, ' '), type: code, param: null, code } };
}

/** Start a fake OpenAI-compatible server; give `server.url` (ends in /v1) to the SDK as `baseURL`. */
export function startFakeOpenAI(): Promise<FakeServer> {
  return startFakeServer({
    basePath: '/v1',
    endpoint: '/chat/completions',
    // GET /v1/models as api.openai.com answers it.
    modelsPath: '/v1/models',
    modelsBody: (ids) => ({
      object: 'list',
      data: ids.map((id) => ({ id, object: 'model', created: 1767225600, owned_by: 'fake' })),
    }),
    errorBody,
    keyOf: (h) => /^Bearer (.*)$/.exec(h.authorization ?? '')?.[1],
    // What api.openai.com answers to a wrong key (it shows the key's first and last characters only).
    authError: (given) => ({
      error: {
        message: `Incorrect API key provided: ${given.slice(0, 3)}${'*'.repeat(Math.max(0, given.length - 7))}${given.slice(-4)}. You can find your API key at https://platform.openai.com/account/api-keys.`,
        type: 'invalid_request_error',
        param: null,
        code: 'invalid_api_key',
      },
    }),
    async write(turn, req, res, signal) {
      const id = nextId('chatcmpl-');
      const model = typeof req.body.model === 'string' ? req.body.model : 'fake';
      const created = Math.floor(Date.now() / 1000);
      const chunk = (
        delta: Record<string, unknown>,
        finish: string | null = null,
        extra: Record<string, unknown> = {},
      ): void =>
        void res.write(
          `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`,
        );
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      chunk({ role: 'assistant', content: '' });
      if (turn.firstDelayMs) await sleep(turn.firstDelayMs, signal);
      let n = 0;
      for (const c of chunksOf(turn)) {
        if (signal.aborted) return;
        if (turn.failAfterChunks !== undefined && n === turn.failAfterChunks) break;
        chunk({ content: c });
        n++;
        if (turn.chunkDelayMs) await sleep(turn.chunkDelayMs, signal);
      }
      if (turn.failAfterChunks !== undefined) {
        res.write(`data: ${JSON.stringify(errorBody({ ...turn, status: turn.status ?? 503 }))}\n\n`);
        res.end();
        return;
      }
      if (turn.dropAfterChunks) return void res.destroy();
      if (turn.endWithoutStop) return void res.end();
      if (turn.hang) {
        await sleep(3_600_000, signal);
        return;
      }
      (turn.toolCalls ?? []).forEach((call, i) => {
        const json = call.rawArguments ?? JSON.stringify(call.input ?? {});
        chunk({
          tool_calls: [
            {
              index: i,
              id: call.id ?? nextId('call_'),
              type: 'function',
              function: { name: call.name, arguments: '' },
            },
          ],
        });
        for (let k = 0; k < json.length; k += 10)
          chunk({ tool_calls: [{ index: i, function: { arguments: json.slice(k, k + 10) } }] });
      });
      const finish = turn.stopReason ?? (turn.toolCalls?.length ? 'tool_calls' : 'stop');
      chunk({}, finish);
      const u = turn.usage ?? {};
      const wantsUsage = (req.body.stream_options as { include_usage?: boolean } | undefined)?.include_usage;
      if (wantsUsage) {
        const prompt = u.input ?? 10;
        const completion = u.output ?? Math.max(1, n);
        res.write(
          `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [], usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion, prompt_tokens_details: { cached_tokens: u.cacheRead ?? 0 } } })}\n\n`,
        );
      }
      res.write('data: [DONE]\n\n');
      res.end();
    },
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href)
  void runFromCommandLine(startFakeOpenAI, process.argv.slice(2));
