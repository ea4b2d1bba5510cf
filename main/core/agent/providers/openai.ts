// OpenAI-compatible Chat Completions through the official SDK (with baseURL for DeepSeek, Qwen, Kimi, GLM,
// OpenRouter, Ollama, LM Studio, vLLM): streaming text and tool_calls deltas (joined by index), usage, [DONE].
import type OpenAI from 'openai';
import { bytesBody, clientOptions, joinBody, loadOpenAISdk, type SdkProviderOptions } from './sdk.js';
import type { ChatMessage, ModelProvider, ModelRequest, StopReason, StreamEvent, ToolCallPart } from './types.js';
import { cancelledError, endedEarlyError, GuardedHandler } from './errors.js';
import { streamOf } from './stream.js';
import { StallWatch, watchedFetch } from './stall.js';
import { attachmentText, unseenImageText } from '../attachments.js';

export interface OpenAIOptions extends SdkProviderOptions {
  /** Send `max_tokens` (some servers need it; OpenAI's own default is fine without). */
  sendMaxTokens?: boolean;
}

type Msg = OpenAI.Chat.Completions.ChatCompletionMessageParam;
type Params = OpenAI.Chat.Completions.ChatCompletionCreateParamsStreaming;

function validJson(raw: string): string {
  try {
    JSON.parse(raw);
    return raw;
  } catch {
    return '{}';
  }
}

/** The conversation in Chat Completions' shape. `vision`: the model reads images (else an image goes as a note). */
function toOpenAIMessages(system: string, messages: ChatMessage[], vision: boolean): Msg[] {
  const out: Msg[] = [{ role: 'system', content: system }];
  for (const m of messages) {
    if (m.role === 'user')
      out.push({
        role: 'user',
        content: m.attachments?.length
          ? [
              ...m.attachments.map((f): OpenAI.Chat.Completions.ChatCompletionContentPart =>
                f.kind !== 'image'
                  ? { type: 'text', text: attachmentText(f) }
                  : vision
                    ? { type: 'image_url', image_url: { url: `data:${f.mime};base64,${f.data}` } }
                    : { type: 'text', text: unseenImageText(f) },
              ),
              { type: 'text', text: m.text },
            ]
          : m.text,
      });
    else if (m.role === 'tool')
      for (const r of m.results) out.push({ role: 'tool', tool_call_id: r.callId, content: r.content });
    else {
      const text = m.interrupted ? `${m.text}\n[interrupted]` : m.text;
      if (!text.trim() && m.toolCalls.length === 0) continue;
      out.push({
        role: 'assistant',
        content: text.trim() ? text : null,
        ...(m.toolCalls.length
          ? {
              tool_calls: m.toolCalls.map((c) => ({
                id: c.id,
                type: 'function' as const,
                function: { name: c.name, arguments: validJson(c.arguments) },
              })),
            }
          : {}),
      });
    }
  }
  return out;
}

/** The system message's text (instructions with the catalog, then the loaded skills), kept while its parts are the same. */
let systemText: { stable: string; dynamic: string; text: string } | undefined;

function systemOf(s: ModelRequest['system']): string {
  const hit = systemText;
  if (hit && hit.stable === s.stable && hit.dynamic === s.dynamic) return hit.text;
  const text = s.dynamic.trim() ? `${s.stable}\n\n${s.dynamic}` : s.stable;
  systemText = { stable: s.stable, dynamic: s.dynamic, text };
  return text;
}

/** Tool definitions in the Chat Completions shape, their JSON, and the body's end with them as UTF-8 (made on first use). */
interface ToolShapes {
  tools: OpenAI.Chat.Completions.ChatCompletionTool[];
  json: string;
  tail: { maxTokens: number | null | undefined; bytes: Buffer } | undefined;
}

/** Kept per tool list (a session passes the same list while it is unchanged). */
const toolShapes = new WeakMap<ModelRequest['tools'], ToolShapes>();

function openaiTools(list: ModelRequest['tools']): ToolShapes {
  let shapes = toolShapes.get(list);
  if (!shapes) {
    const tools = list.map((t) => ({
      type: 'function' as const,
      function: { name: t.name, description: t.description, parameters: t.inputSchema },
    }));
    shapes = { tools, json: JSON.stringify(tools), tail: undefined };
    toolShapes.set(list, shapes);
  }
  return shapes;
}

export function openaiRequest(model: string, req: ModelRequest, sendMaxTokens: boolean, vision: boolean): Params {
  return {
    model,
    messages: toOpenAIMessages(systemOf(req.system), req.messages, vision),
    ...(req.tools.length ? { tools: openaiTools(req.tools).tools } : {}),
    ...(sendMaxTokens ? { max_tokens: req.maxTokens } : {}),
    stream: true,
    stream_options: { include_usage: true },
  };
}

/** The body's JSON up to the system message's end (model, system text), kept while those are unchanged; its UTF-8 made on first use. */
let headJson: { model: string; system: string; json: string; bytes: Buffer | undefined } | undefined;
const STREAM_TAIL = ',"stream":true,"stream_options":{"include_usage":true}}';

function headOf(params: Params): NonNullable<typeof headJson> {
  const system = (params.messages[0] as { content: string }).content;
  let head = headJson;
  if (head?.model !== params.model || head.system !== system) {
    head = headJson = {
      model: params.model,
      system,
      json: `{"model":${JSON.stringify(params.model)},"messages":[${JSON.stringify(params.messages[0])}`,
      bytes: undefined,
    };
  }
  return head;
}

/** The messages after the system message, as JSON continuing the list (`,{…},{…}`), and the list's end. */
function restOf(params: Params): string {
  return params.messages.length > 1 ? `,${JSON.stringify(params.messages.slice(1)).slice(1, -1)}]` : ']';
}

function tailOf(params: Params, tools: ModelRequest['tools']): string {
  const t = params.tools ? `,"tools":${openaiTools(tools).json}` : '';
  return params.max_tokens !== undefined
    ? `${t},"max_tokens":${JSON.stringify(params.max_tokens)}${STREAM_TAIL}`
    : `${t}${STREAM_TAIL}`;
}

/**
 * The request's body: byte for byte the UTF-8 of `JSON.stringify(params)`, with the system message (instructions with
 * the catalog) and the tool definitions, most of a first turn's bytes, serialised and encoded once while they are
 * unchanged instead of by the SDK on every request. It is the SDK's body (it sends bytes as they are).
 */
export function openaiBodyBytes(params: Params, tools: ModelRequest['tools']): Buffer {
  const head = headOf(params);
  const headBytes = (head.bytes ??= Buffer.from(head.json));
  let tail: Buffer;
  if (params.tools) {
    // Kept with the tool list, for the reply budget it was made with (the same on every request of a provider).
    const shapes = openaiTools(tools);
    let kept = shapes.tail;
    if (!kept || kept.maxTokens !== params.max_tokens)
      kept = shapes.tail = { maxTokens: params.max_tokens, bytes: Buffer.from(tailOf(params, tools)) };
    tail = kept.bytes;
  } else tail = Buffer.from(tailOf(params, tools));
  return joinBody(headBytes, restOf(params), tail);
}

function stopOf(raw: string): StopReason {
  return raw === 'stop'
    ? 'end_turn'
    : raw === 'tool_calls' || raw === 'function_call'
      ? 'tool_use'
      : raw === 'length'
        ? 'max_tokens'
        : 'other';
}

export function openaiProvider(o: OpenAIOptions): ModelProvider {
  let client: OpenAI | undefined;
  const makeClient = async (): Promise<OpenAI> =>
    (client ??= new (await loadOpenAISdk()).default({
      ...clientOptions(o),
      fetch: watchedFetch,
    }));
  const id = o.id ?? 'openai';
  const where = {
    provider: id,
    model: o.model,
    baseURL: o.baseURL,
    key: o.apiKey,
    keyHint: o.keyHint ?? 'OPENAI_API_KEY',
  };
  /** One reply, each event pushed to `onEvent` from inside the SDK stream's loop. */
  const run = async (req: ModelRequest, onEvent: (ev: StreamEvent) => void): Promise<void> => {
    const guard = new GuardedHandler(onEvent);
    const calls = new Map<number, { id: string; name: string; args: string; started: boolean }>();
    let finish = 'stop';
    // The provider says the reply is complete with a finish_reason: a stream that ends without one was cut off.
    let complete = false;
    let streaming = false;
    let usage: OpenAI.CompletionUsage | undefined;
    // The stall limit (if any) and the SDK's retries, each told as it goes out (attempt n of maxRetries + 1).
    const watch = new StallWatch(o.stallMs ?? 0, req.signal, (attempt) =>
      guard.emit({ type: 'retry', attempt, of: clientOptions(o).maxRetries + 1 }),
    );
    try {
      const params = openaiRequest(o.model, req, o.sendMaxTokens ?? false, o.vision === true);
      const sdk = client ?? (await makeClient());
      const body = bytesBody(openaiBodyBytes(params, req.tools), watch.signal);
      const stream = await watch.run(() => sdk.chat.completions.create(params, body));
      streaming = true;
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
        if (choice.finish_reason) {
          finish = choice.finish_reason;
          complete = true;
        }
      }
    } catch (e) {
      if (watch.fired && !req.signal?.aborted) throw watch.error(where.provider);
      throw guard.failed(e, where, streaming);
    } finally {
      watch.stop();
    }
    // The SDKs end an aborted stream quietly: a cancelled reply must not look finished.
    if (req.signal?.aborted) throw cancelledError();
    if (watch.fired) throw watch.error(where.provider);
    if (!complete) throw endedEarlyError(where.provider, 'finish_reason');
    const done: ToolCallPart[] = [...calls.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([i, c]) => ({ id: c.id || `call_${i}`, name: c.name, arguments: c.args || '{}' }));
    for (const call of done) onEvent({ type: 'tool_call', call });
    const cached = usage?.prompt_tokens_details?.cached_tokens ?? 0;
    onEvent({
      type: 'usage',
      usage: {
        inputTokens: usage?.prompt_tokens ?? 0,
        outputTokens: usage?.completion_tokens ?? 0,
        cacheReadTokens: cached,
        cacheWriteTokens: 0,
      },
    });
    onEvent({ type: 'stop', reason: done.length && finish !== 'length' ? 'tool_use' : stopOf(finish), raw: finish });
  };
  return {
    id,
    kind: 'openai',
    model: o.model,
    baseURL: o.baseURL,
    contextWindow: o.contextWindow,
    vision: o.vision === true,
    prepare(tools) {
      openaiTools(tools);
      makeClient().catch(() => undefined);
    },
    run,
    stream: (req) => streamOf(run, req),
  };
}
