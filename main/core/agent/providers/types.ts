// Provider-neutral shapes for one model call: the conversation as the agent keeps it, the request (system split
// into a stable, cacheable prefix and the per-turn part), and the normalised stream events every provider yields.
import type { PromptTool } from '../../tools/index.js';

export interface ToolCallPart {
  id: string;
  name: string;
  /** The arguments exactly as the model streamed them (JSON text; may be malformed). */
  arguments: string;
}

export interface ToolResultPart {
  callId: string;
  name: string;
  /** What the model reads back (JSON or text). */
  content: string;
  isError: boolean;
}

import type { Attachment } from '../attachments.js';

export type ChatMessage =
  | { role: 'user'; text: string; attachments?: Attachment[] }
  | { role: 'assistant'; text: string; toolCalls: ToolCallPart[]; interrupted?: boolean }
  | { role: 'tool'; results: ToolResultPart[] };

export interface ModelRequest {
  /** `stable`: instructions, skill catalog (cached across turns). `dynamic`: loaded skills, mode notes. */
  system: { stable: string; dynamic: string };
  tools: PromptTool[];
  messages: ChatMessage[];
  maxTokens: number;
  signal?: AbortSignal;
}

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

export type StopReason = 'end_turn' | 'tool_use' | 'max_tokens' | 'other';

export type StreamEvent =
  | { type: 'text'; text: string }
  /** A tool call began streaming (its arguments follow). */
  | { type: 'tool_call_start'; id: string; name: string }
  /** A tool call finished streaming. */
  | { type: 'tool_call'; call: ToolCallPart }
  | { type: 'usage'; usage: Usage }
  /** The SDK sends the request again (after a 429, a 5xx, an overloaded answer or a lost connection): attempt n of `of`. */
  | { type: 'retry'; attempt: number; of: number }
  | { type: 'stop'; reason: StopReason; raw: string };

export type ProviderKind = 'anthropic' | 'openai';

export interface ModelProvider {
  /** Preset or user-defined name (anthropic, openai, deepseek, …). */
  readonly id: string;
  readonly kind: ProviderKind;
  readonly model: string;
  readonly baseURL: string | undefined;
  /** The model's context window in tokens. */
  readonly contextWindow: number;
  /** The model reads image blocks (attachments.ts visionOf: the providers.json setting, else the model's name). */
  readonly vision?: boolean;
  /**
   * Stream one reply, each event handed to `onEvent` as the SDK delivers it (the chat loop: nothing between the SDK's
   * stream and the loop); resolves when the reply has ended. Throws ProviderError (one clear line) on failure; honours
   * `req.signal`. An error thrown by `onEvent` ends the request and is thrown as it is.
   */
  run(req: ModelRequest, onEvent: (ev: StreamEvent) => void): Promise<void>;
  /** The same reply as an async iterable (compaction, tests): `streamOf(run)`. */
  stream(req: ModelRequest): AsyncIterable<StreamEvent>;
  /**
   * Optional: get ready for a chat's requests when it opens, in the background (load the SDK, shape the tool list
   * the requests will carry), so its first message does not wait for that. Never throws; a failure shows on the
   * first request.
   */
  prepare?(tools: ModelRequest['tools']): void;
}

export const emptyUsage = (): Usage => ({ inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 });
