// OpenAI-compatible Chat Completions through the official SDK (with baseURL for DeepSeek, Qwen, Kimi, GLM,
// OpenRouter, Ollama, LM Studio, vLLM): streaming text and tool_calls deltas (joined by index), usage, [DONE].
import type OpenAI from 'openai';
import { clientOptions, loadOpenAISdk } from './sdk.js';
import type { ChatMessage, ModelProvider, ModelRequest, StopReason, StreamEvent, ToolCallPart } from './types.js';
import { GuardedHandler, ProviderError } from './errors.js';
import { streamOf } from './stream.js';

export interface OpenAIOptions {
  id?: string;
  apiKey: string;
  model: string;
  baseURL?: string | undefined;
  contextWindow: number;
  timeoutMs?: number;
  maxRetries?: number;
  keyHint?: string;
  /** Send `max_tokens` (some servers need it; OpenAI's own default is fine without). */
  sendMaxTokens?: boolean;
}

type Msg = OpenAI.Chat.Completions.ChatCompletionMessageParam;

function validJson(raw: string): string {
  try {
    JSON.parse(raw);
    return raw;
  } catch {
    return '{}';
  }
}

export function toOpenAIMessages(system: string, messages: ChatMessage[]): Msg[] {
  const out: Msg[] = [{ role: 'system', content: system }];
  for (const m of messages) {
    if (m.role === 'user') out.push({ role: 'user', content: m.text });
    else if (m.role === 'tool') for (const r of m.results) out.push({ role: 'tool', tool_call_id: r.callId, content: r.content });
    else {
      const text = m.interrupted ? `${m.text}\n[interrupted]` : m.text;
      if (!text.trim() && m.toolCalls.length === 0) continue;
      out.push({
        role: 'assistant',
        content: text.trim() ? text : null,
        ...(m.toolCalls.length
          ? { tool_calls: m.toolCalls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: validJson(c.arguments) } })) }
          : {}),
      });
    }
  }
  return out;
}

function stopOf(raw: string): StopReason {
  return raw === 'stop' ? 'end_turn' : raw === 'tool_calls' || raw === 'function_call' ? 'tool_use' : raw === 'length' ? 'max_tokens' : 'other';
}

export function openaiProvider(o: OpenAIOptions): ModelProvider {
  let client: OpenAI | undefined;
  const makeClient = async (): Promise<OpenAI> =>
    (client ??= new (await loadOpenAISdk()).default(clientOptions(o)));
  const id = o.id ?? 'openai';
  const where = { provider: id, model: o.model, baseURL: o.baseURL, key: o.apiKey, keyHint: o.keyHint ?? 'OPENAI_API_KEY' };
  /** One reply, each event pushed to `onEvent` from inside the SDK stream's loop. */
  const run = async (req: ModelRequest, onEvent: (ev: StreamEvent) => void): Promise<void> => {
    const guard = new GuardedHandler(onEvent);
    const calls = new Map<number, { id: string; name: string; args: string; started: boolean }>();
    let finish = 'stop';
    let usage: OpenAI.CompletionUsage | undefined;
    const system = req.system.dynamic.trim() ? `${req.system.stable}\n\n${req.system.dynamic}` : req.system.stable;
    try {
      const stream = await (client ?? (await makeClient())).chat.completions.create(
        {
          model: o.model,
          messages: toOpenAIMessages(system, req.messages),
          ...(req.tools.length
            ? { tools: req.tools.map((t) => ({ type: 'function' as const, function: { name: t.name, description: t.description, parameters: t.inputSchema } })) }
            : {}),
          ...(o.sendMaxTokens ? { max_tokens: req.maxTokens } : {}),
          stream: true,
          stream_options: { include_usage: true },
        },
        req.signal ? { signal: req.signal } : {},
      );
      for await (const chunk of stream) {
        if (chunk.usage) usage = chunk.usage;
        const choice = chunk.choices?.[0];
        if (!choice) continue;
        const d = choice.delta;
        if (d?.content) guard.emit({ type: 'text', text: d.content });
        for (const tc of d?.tool_calls ?? []) {
          let c = calls.get(tc.index);
          if (!c) calls.set(tc.index, (c = { id: '', name: '', args: '', started: false }));
          if (tc.id) c.id = tc.id;
          if (tc.function?.name) c.name += tc.function.name;
          if (tc.function?.arguments) c.args += tc.function.arguments;
          if (!c.started && c.name) {
            c.started = true;
            guard.emit({ type: 'tool_call_start', id: c.id, name: c.name });
          }
        }
        if (choice.finish_reason) finish = choice.finish_reason;
      }
    } catch (e) {
      throw guard.failed(e, where);
    }
    // The SDKs end an aborted stream quietly: a cancelled reply must not look finished.
    if (req.signal?.aborted) throw new ProviderError('cancelled', 'cancelled');
    const done: ToolCallPart[] = [...calls.entries()].sort((a, b) => a[0] - b[0]).map(([i, c]) => ({ id: c.id || `call_${i}`, name: c.name, arguments: c.args || '{}' }));
    for (const call of done) onEvent({ type: 'tool_call', call });
    const cached = usage?.prompt_tokens_details?.cached_tokens ?? 0;
    onEvent({ type: 'usage', usage: { inputTokens: usage?.prompt_tokens ?? 0, outputTokens: usage?.completion_tokens ?? 0, cacheReadTokens: cached, cacheWriteTokens: 0 } });
    onEvent({ type: 'stop', reason: done.length && finish !== 'length' ? 'tool_use' : stopOf(finish), raw: finish });
  };
  return {
    id,
    kind: 'openai',
    model: o.model,
    baseURL: o.baseURL,
    contextWindow: o.contextWindow,
    prepare() {
      makeClient().catch(() => undefined);
    },
    run,
    stream: (req) => streamOf(run, req),
  };
}
