// Anthropic Messages API through the official SDK: streaming with text and tool_use blocks (input_json_delta
// pieces joined), tool_result back, prompt caching (cache_control) on the stable prefix: tools, system, catalog.
import type Anthropic from '@anthropic-ai/sdk';
import { bytesBody, clientOptions, joinBody, loadAnthropicSdk, type SdkProviderOptions } from './sdk.js';
import type { ChatMessage, ModelProvider, ModelRequest, StopReason, StreamEvent } from './types.js';
import { cancelledError, endedEarlyError, GuardedHandler } from './errors.js';
import { streamOf } from './stream.js';
import { StallWatch, watchedFetch } from './stall.js';
import { attachmentText, unseenImageText } from '../attachments.js';

export type AnthropicOptions = SdkProviderOptions;

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

/**
 * The conversation in Anthropic's shape: tool results ride in user turns; consecutive same-role turns merge. `vision`:
 * the model reads images (else an image sent earlier goes as a note naming it).
 */
function toAnthropicMessages(messages: ChatMessage[], vision: boolean): Msg[] {
  const out: Msg[] = [];
  for (const m of messages) {
    if (m.role === 'user') pushBlocks(out, 'user', userBlocks(m, vision));
    else if (m.role === 'tool') {
      pushBlocks(
        out,
        'user',
        m.results.map((r) => ({
          type: 'tool_result' as const,
          tool_use_id: r.callId,
          content: r.content,
          ...(r.isError ? { is_error: true } : {}),
        })),
      );
    } else {
      const blocks: Block[] = [];
      const text = m.interrupted ? `${m.text}\n[interrupted]` : m.text;
      if (text.trim()) blocks.push({ type: 'text', text: text.trimEnd() });
      for (const c of m.toolCalls)
        blocks.push({ type: 'tool_use', id: c.id, name: c.name, input: parseArgs(c.arguments) });
      pushBlocks(out, 'assistant', blocks);
    }
  }
  return out;
}

/**
 * A user's message: its attached files first (text as context, images as image blocks, or as a note for a model that
 * reads none), then what they wrote.
 */
function userBlocks(m: Extract<ChatMessage, { role: 'user' }>, vision: boolean): Block[] {
  const blocks: Block[] = [];
  for (const f of m.attachments ?? [])
    blocks.push(
      f.kind !== 'image'
        ? { type: 'text', text: attachmentText(f) }
        : vision
          ? { type: 'image', source: { type: 'base64', media_type: f.mime, data: f.data } }
          : { type: 'text', text: unseenImageText(f) },
    );
  blocks.push({ type: 'text', text: m.text });
  return blocks;
}

/** Append a turn's blocks: consecutive turns of the same role merge into one. */
function pushBlocks(out: Msg[], role: 'user' | 'assistant', blocks: Block[]): void {
  if (blocks.length === 0) return;
  const last = out.length ? out[out.length - 1]! : undefined;
  if (last && last.role === role) (last.content as Block[]).push(...blocks);
  else out.push({ role, content: blocks });
}

/** Tool definitions in Anthropic's shape, the last one carrying the cache breakpoint, and their JSON text. */
interface ToolShapes {
  tools: Anthropic.Tool[];
  json: string;
  /** The body's end with these tools (`,"tools":[…],"stream":true}`) as UTF-8, made on first use. */
  tail: Buffer | undefined;
}

/** Kept per tool list (a session passes the same list while it is unchanged). */
const toolShapes = new WeakMap<ModelRequest['tools'], ToolShapes>();
/** One tool's JSON (without the cache breakpoint), kept per schema object: every session sends the same built-in tools. */
const toolJson = new WeakMap<object, { name: string; description: string; json: string }>();
const BREAKPOINT_JSON = `,"cache_control":${JSON.stringify(EPHEMERAL)}}`;

function anthropicTools(list: ModelRequest['tools']): ToolShapes {
  let shapes = toolShapes.get(list);
  if (!shapes) {
    const parts: string[] = [];
    const tools = list.map((t, i) => {
      const shape: Anthropic.Tool = {
        name: t.name,
        description: t.description,
        input_schema: t.inputSchema as Anthropic.Tool.InputSchema,
      };
      const schema = t.inputSchema as object;
      let hit = toolJson.get(schema);
      if (hit?.name !== t.name || hit.description !== t.description) {
        hit = { name: t.name, description: t.description, json: JSON.stringify(shape) };
        toolJson.set(schema, hit);
      }
      if (i < list.length - 1) {
        parts.push(hit.json);
        return shape;
      }
      parts.push(hit.json.slice(0, -1) + BREAKPOINT_JSON);
      return { ...shape, cache_control: EPHEMERAL };
    });
    shapes = { tools, json: `[${parts.join(',')}]`, tail: undefined };
    toolShapes.set(list, shapes);
  }
  return shapes;
}

/** The system blocks, kept while the system text is unchanged (every turn of every chat on a workspace sends the same). */
let systemBlocks: { stable: string; dynamic: string; blocks: Anthropic.TextBlockParam[] } | undefined;

function systemOf(s: ModelRequest['system']): Anthropic.TextBlockParam[] {
  const hit = systemBlocks;
  if (hit && hit.stable === s.stable && hit.dynamic === s.dynamic) return hit.blocks;
  const blocks: Anthropic.TextBlockParam[] = [{ type: 'text', text: s.stable, cache_control: EPHEMERAL }];
  if (s.dynamic.trim()) blocks.push({ type: 'text', text: s.dynamic, cache_control: EPHEMERAL });
  systemBlocks = { stable: s.stable, dynamic: s.dynamic, blocks };
  return blocks;
}

export function anthropicRequest(
  model: string,
  req: ModelRequest,
  vision: boolean,
): Anthropic.MessageCreateParamsStreaming {
  const system = systemOf(req.system);
  const { tools } = anthropicTools(req.tools);
  const messages = toAnthropicMessages(req.messages, vision);
  // The last breakpoint caches the conversation so far (at most 4 in all: tools, system ×2, history).
  const last = messages.at(-1);
  if (last && system.length === 1 && Array.isArray(last.content) && last.content.length) {
    const b = last.content[last.content.length - 1] as { cache_control?: unknown };
    b.cache_control = EPHEMERAL;
  }
  return tools.length
    ? { model, max_tokens: req.maxTokens, system, messages, tools, stream: true }
    : { model, max_tokens: req.maxTokens, system, messages, stream: true };
}

/** The system text's JSON (instructions + catalog), kept while it is unchanged. */
let systemJson: { text: string; json: string } | undefined;
/** The body's JSON up to the messages (model, reply budget, system blocks), kept while those are unchanged; its UTF-8 made on first use. */
let headJson:
  | { system: Anthropic.TextBlockParam[]; model: string; maxTokens: number; json: string; bytes: Buffer | undefined }
  | undefined;
const NO_TOOLS_TAIL = ',"stream":true}';
const NO_TOOLS_TAIL_BYTES = Buffer.from(NO_TOOLS_TAIL);

/** The kept head of the body for these params (rebuilt when the system blocks, the model or the reply budget change). */
function headOf(params: Anthropic.MessageCreateParamsStreaming): NonNullable<typeof headJson> {
  const system = params.system as Anthropic.TextBlockParam[];
  let head = headJson;
  if (head?.system !== system || head.model !== params.model || head.maxTokens !== params.max_tokens) {
    const first = system[0]!;
    if (systemJson?.text !== first.text) systemJson = { text: first.text, json: JSON.stringify(first) };
    let json = `{"model":${JSON.stringify(params.model)},"max_tokens":${JSON.stringify(params.max_tokens)},"system":[${systemJson.json}`;
    for (let i = 1; i < system.length; i++) json += `,${JSON.stringify(system[i])}`;
    head = headJson = { system, model: params.model, maxTokens: params.max_tokens, json: `${json}]`, bytes: undefined };
  }
  return head;
}

/** The body's end after the messages, with these tools, as UTF-8 (kept with the tool list). */
function toolsTail(shapes: ToolShapes): Buffer {
  return (shapes.tail ??= Buffer.from(`,"tools":${shapes.json}${NO_TOOLS_TAIL}`));
}

/**
 * The request's body: byte for byte the UTF-8 of `JSON.stringify(params)`, with the stable prefix (the system text
 * with the catalog, the tool definitions: ~95% of a first turn's bytes) serialised and encoded once while it is
 * unchanged, so only the messages are encoded per request. It is handed to the SDK as bytes (it sends them as they
 * are): a string body would be scanned for lone surrogates (fetch's USVString conversion: a regex over all ~27 KB once
 * any part of it was cut from text that is not all Latin-1, a skill file with one Chinese character, say), then
 * measured and encoded again, on every request.
 */
export function anthropicBodyBytes(
  params: Anthropic.MessageCreateParamsStreaming,
  tools: ModelRequest['tools'],
): Buffer {
  const head = headOf(params);
  const headBytes = (head.bytes ??= Buffer.from(head.json));
  return joinBody(
    headBytes,
    `,"messages":${JSON.stringify(params.messages)}`,
    params.tools ? toolsTail(anthropicTools(tools)) : NO_TOOLS_TAIL_BYTES,
  );
}

function stopOf(raw: string | null | undefined): StopReason {
  return raw === 'end_turn' || raw === 'stop_sequence'
    ? 'end_turn'
    : raw === 'tool_use'
      ? 'tool_use'
      : raw === 'max_tokens'
        ? 'max_tokens'
        : 'other';
}

/**
 * The SDK's OpenTelemetry spans: off, unless ANTHROPIC_OPEN_TELEMETRY asks for them (set to anything but `false`, the
 * SDK reads its variables as it always does). Knack registers no tracer provider, so each span would be a no-op that
 * still costs the SDK its attributes, headers and context lookups on every request, before the request is sent.
 */
export function anthropicTelemetry(env: Record<string, string | undefined> = process.env): { openTelemetry?: false } {
  const asked = env.ANTHROPIC_OPEN_TELEMETRY;
  return asked !== undefined && asked.trim().toLowerCase() !== 'false' ? {} : { openTelemetry: false };
}

export function anthropicProvider(o: AnthropicOptions): ModelProvider {
  let client: Anthropic | undefined;
  const makeClient = async (): Promise<Anthropic> =>
    (client ??= new (await loadAnthropicSdk()).default({
      ...clientOptions(o),
      ...anthropicTelemetry(),
      fetch: watchedFetch,
    }));
  const where = {
    provider: o.id ?? 'anthropic',
    model: o.model,
    baseURL: o.baseURL,
    key: o.apiKey,
    keyHint: o.keyHint ?? 'ANTHROPIC_API_KEY',
  };
  /** One reply, each event pushed to `onEvent` from inside the SDK stream's loop. */
  const run = async (req: ModelRequest, onEvent: (ev: StreamEvent) => void): Promise<void> => {
    const blocks = new Map<number, { id: string; name: string; json: string }>();
    let input = 0,
      cacheRead = 0,
      cacheWrite = 0,
      output = 0;
    let stop = 'end_turn';
    // The provider says the reply is complete with message_stop: a stream that ends without it was cut off.
    let complete = false;
    let streaming = false;
    const guard = new GuardedHandler(onEvent);
    // The stall limit (if any) and the SDK's retries, each told as it goes out (attempt n of maxRetries + 1).
    const watch = new StallWatch(o.stallMs ?? 0, req.signal, (attempt) =>
      guard.emit({ type: 'retry', attempt, of: clientOptions(o).maxRetries + 1 }),
    );
    try {
      const params = anthropicRequest(o.model, req, o.vision === true);
      const c = client ?? (await makeClient());
      const body = bytesBody(anthropicBodyBytes(params, req.tools), watch.signal);
      const stream = await watch.run(() => c.messages.create(params, body));
      streaming = true;
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
              guard.emit({ type: 'tool_call_start', id: ev.content_block.id, name: ev.content_block.name });
            } else if (ev.content_block.type === 'text' && ev.content_block.text) {
              guard.emit({ type: 'text', text: ev.content_block.text });
            }
            break;
          case 'content_block_delta':
            if (ev.delta.type === 'text_delta') guard.emit({ type: 'text', text: ev.delta.text });
            else if (ev.delta.type === 'input_json_delta') {
              const b = blocks.get(ev.index);
              if (b) b.json += ev.delta.partial_json;
            }
            break;
          case 'content_block_stop': {
            const b = blocks.get(ev.index);
            if (b) {
              blocks.delete(ev.index);
              guard.emit({ type: 'tool_call', call: { id: b.id, name: b.name, arguments: b.json || '{}' } });
            }
            break;
          }
          case 'message_delta':
            stop = ev.delta.stop_reason ?? stop;
            output = ev.usage.output_tokens ?? output;
            break;
          case 'message_stop':
            complete = true;
            break;
          default:
            break;
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
    if (!complete) throw endedEarlyError(where.provider, 'message_stop');
    onEvent({
      type: 'usage',
      usage: {
        inputTokens: input + cacheRead + cacheWrite,
        outputTokens: output,
        cacheReadTokens: cacheRead,
        cacheWriteTokens: cacheWrite,
      },
    });
    onEvent({ type: 'stop', reason: stopOf(stop), raw: stop });
  };
  return {
    id: o.id ?? 'anthropic',
    kind: 'anthropic',
    model: o.model,
    baseURL: o.baseURL,
    contextWindow: o.contextWindow,
    vision: o.vision === true,
    prepare(tools) {
      toolsTail(anthropicTools(tools));
      makeClient().catch(() => undefined);
    },
    run,
    stream: (req) => streamOf(run, req),
  };
}
