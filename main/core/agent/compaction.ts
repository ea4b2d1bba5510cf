// Compaction: when the history nears the context window, older turns are replaced by a model-written summary.
// Loaded skills live in the system prompt, not the history, so their instructions are never dropped by it.
import type { ChatMessage, ModelProvider } from './providers/types.js';
import { SUMMARY_PREFIX } from './state.js';

const SUMMARY_INSTRUCTION =
  "Summarise the conversation so far for your own later use: the user's goals and requests, decisions made, " +
  'files and commands involved, tool results that still matter, and what is left to do. Be specific and brief. ' +
  'Write only the summary.';

/**
 * Where to cut: everything before the last user message (the current request stays whole). Returns 0 when there
 * is nothing older to compact (the only older message is a previous summary).
 */
export function compactionBoundary(messages: ChatMessage[]): number {
  for (let i = messages.length - 1; i > 0; i--) {
    const m = messages[i]!;
    if (m.role === 'user' && !m.text.startsWith(SUMMARY_PREFIX)) {
      const first = messages[0]!;
      const onlySummary = i === 1 && first.role === 'user' && first.text.startsWith(SUMMARY_PREFIX);
      return onlySummary ? 0 : i;
    }
  }
  return 0;
}

/** Ask the model for the summary (no tools). Throws the provider's error as it is. */
export async function summarize(
  provider: ModelProvider,
  messages: ChatMessage[],
  signal?: AbortSignal,
): Promise<string> {
  let text = '';
  const req = {
    system: { stable: 'You write faithful, compact summaries of agent conversations.', dynamic: '' },
    tools: [],
    messages: [...messages, { role: 'user' as const, text: SUMMARY_INSTRUCTION }],
    maxTokens: 2048,
    ...(signal ? { signal } : {}),
  };
  for await (const ev of provider.stream(req)) if (ev.type === 'text') text += ev.text;
  return text.trim() || '(the model returned an empty summary)';
}
