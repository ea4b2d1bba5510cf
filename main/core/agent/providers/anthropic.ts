// Anthropic Messages API through the official SDK: streaming with text and tool_use blocks (input_json_delta
// pieces joined), tool_result back, prompt caching (cache_control) on the stable prefix: tools, system, catalog.
import type Anthropic from '@anthropic-ai/sdk';
import { clientOptions, loadAnthropicSdk } from './sdk.js';
import type { ChatMessage, ModelProvider, ModelRequest, StopReason, StreamEvent } from './types.js';
import { guardedHandler, ProviderError } from './errors.js';
import { streamOf } from './stream.js';

export interface AnthropicOptions {
  id?: string;
  apiKey: string;
  model: string;
  baseURL?: string | undefined;
  contextWindow: number;
  /** Per-request timeout in ms (default 120 s). */
  timeoutMs?: number;
  /** SDK retries for 429 (honouring retry-after) and 5xx (default 2). */
  maxRetries?: number;
  keyHint?: string;
}

type Block = Anthropic.ContentBlockParam;
type Msg = Anthropic.MessageParam;
const EPHEMERAL = { type: 'ephemeral' as const };

function parseArgs(raw: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(raw || '{}');
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The conversation in Anthropic's shape: tool results ride in user turns; consecutive same-role turns merge. */
export function toAnthropicMessages(messages: ChatMessage[]): Msg[] {
  const out: Msg[] = [];
  const push = (role: 'user' | 'assistant', blocks: Block[]): void => {
    if (blocks.length === 0) return;
    const last = out.at(-1);
    if (last && last.role === role) (last.content as Block[]).push(...blocks);
    else out.push({ role, content: blocks });
  };
  for (const m of messages) {
    if (m.role === 'user') push('user', [{ type: 'text', text: m.text }]);
    else if (m.role === 'tool') {
      push('user', m.results.map((r) => ({ type: 'tool_result' as const, tool_use_id: r.callId, content: r.content, ...(r.isError ? { is_error: true } : {}) })));
    } else {
      const blocks: Block[] = [];
      const text = m.interrupted ? `${m.text}\n[interrupted]` : m.text;
      if (text.trim()) blocks.push({ type: 'text', text: text.trimEnd() });
      for (const c of m.toolCalls) blocks.push({ type: 'tool_use', id: c.id, name: c.name, input: parseArgs(c.arguments) });
      push('assistant', blocks);
    }
  }
  return out;
}

/** Tool definitions in Anthropic's shape, the last one carrying the cache breakpoint; kept per tool list (a session passes the same list while it is unchanged). */
const toolShapes = new WeakMap<ModelRequest['tools'], Anthropic.Tool[]>();
function anthropicTools(list: ModelRequest['tools']): Anthropic.Tool[] {
  let tools = toolShapes.get(list);
  if (!tools) {
    tools = list.map((t, i) => ({
      name: t.name,
      description: t.description,
      input_schema: t.inputSchema as Anthropic.Tool.InputSchema,
      ...(i === list.length - 1 ? { cache_control: EPHEMERAL } : {}),
    }));
    toolShapes.set(list, tools);
  }
  return tools;
}

export function anthropicRequest(model: string, req: ModelRequest): Anthropic.MessageCreateParamsStreaming {
  const system: Anthropic.TextBlockParam[] = [{ type: 'text', text: req.system.stable, cache_control: EPHEMERAL }];
  if (req.system.dynamic.trim()) system.push({ type: 'text', text: req.system.dynamic, cache_control: EPHEMERAL });
  const tools = anthropicTools(req.tools);
  const messages = toAnthropicMessages(req.messages);
  // The last breakpoint caches the conversation so far (at most 4 in all: tools, system ×2, history).
  const last = messages.at(-1);
  if (last && system.length === 1 && Array.isArray(last.content) && last.content.length) {
    const b = last.content[last.content.length - 1] as { cache_control?: unknown };
    b.cache_control = EPHEMERAL;
  }
  return { model, max_tokens: req.maxTokens, system, messages, ...(tools.length ? { tools } : {}), stream: true };
}

function stopOf(raw: string | null | undefined): StopReason {
  return raw === 'end_turn' || raw === 'stop_sequence' ? 'end_turn' : raw === 'tool_use' ? 'tool_use' : raw === 'max_tokens' ? 'max_tokens' : 'other';
}

export function anthropicProvider(o: AnthropicOptions): ModelProvider {
  let client: Anthropic | undefined;
  const makeClient = async (): Promise<Anthropic> =>
    (client ??= new (await loadAnthropicSdk()).default(clientOptions(o)));
  const where = { provider: o.id ?? 'anthropic', model: o.model, baseURL: o.baseURL, key: o.apiKey, keyHint: o.keyHint ?? 'ANTHROPIC_API_KEY' };
  /** One reply, each event pushed to `onEvent` from inside the SDK stream's loop. */
  const run = async (req: ModelRequest, onEvent: (ev: StreamEvent) => void): Promise<void> => {
    const blocks = new Map<number, { id: string; name: string; json: string }>();
    let input = 0, cacheRead = 0, cacheWrite = 0, output = 0;
    let stop = 'end_turn';
    const { emit, failed } = guardedHandler(onEvent);
    try {
      const stream = await (client ?? (await makeClient())).messages.create(anthropicRequest(o.model, req), req.signal ? { signal: req.signal } : {});
      for await (const ev of stream) {
        switch (ev.type) {
          case 'message_start':
            input = ev.message.usage.input_tokens ?? 0;
            cacheRead = ev.message.usage.cache_read_input_tokens ?? 0;
            cacheWrite = ev.message.usage.cache_creation_input_tokens ?? 0;
            output = ev.message.usage.output_tokens ?? 0;
            break;
          case 'content_block_start':
            if (ev.content_block.type === 'tool_use') {
              blocks.set(ev.index, { id: ev.content_block.id, name: ev.content_block.name, json: '' });
              emit({ type: 'tool_call_start', id: ev.content_block.id, name: ev.content_block.name });
            } else if (ev.content_block.type === 'text' && ev.content_block.text) {
              emit({ type: 'text', text: ev.content_block.text });
            }
            break;
          case 'content_block_delta':
            if (ev.delta.type === 'text_delta') emit({ type: 'text', text: ev.delta.text });
            else if (ev.delta.type === 'input_json_delta') {
              const b = blocks.get(ev.index);
              if (b) b.json += ev.delta.partial_json;
            }
            break;
          case 'content_block_stop': {
            const b = blocks.get(ev.index);
            if (b) {
              blocks.delete(ev.index);
              emit({ type: 'tool_call', call: { id: b.id, name: b.name, arguments: b.json || '{}' } });
            }
            break;
          }
          case 'message_delta':
            stop = ev.delta.stop_reason ?? stop;
            output = ev.usage.output_tokens ?? output;
            break;
          default:
            break;
        }
      }
    } catch (e) {
      throw failed(e, where);
    }
    // The SDKs end an aborted stream quietly: a cancelled reply must not look finished.
    if (req.signal?.aborted) throw new ProviderError('cancelled', 'cancelled');
    onEvent({ type: 'usage', usage: { inputTokens: input + cacheRead + cacheWrite, outputTokens: output, cacheReadTokens: cacheRead, cacheWriteTokens: cacheWrite } });
    onEvent({ type: 'stop', reason: stopOf(stop), raw: stop });
  };
  return {
    id: o.id ?? 'anthropic',
    kind: 'anthropic',
    model: o.model,
    baseURL: o.baseURL,
    contextWindow: o.contextWindow,
    prepare(tools) {
      anthropicTools(tools);
      makeClient().catch(() => undefined);
    },
    run,
    stream: (req) => streamOf(run, req),
  };
}
