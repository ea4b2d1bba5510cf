// Session export as Markdown (for people) or JSON (every event). Keys never appear: sessions never hold them,
// and exported text is passed through the same redaction as errors.
import type { AgentEvent, Usage } from './types.js';
import { formatCost } from './providers/pricing.js';
import type { SessionRow } from '../store/index.js';
import { redact } from './providers/errors.js';

export type ExportFormat = 'md' | 'json';

const n = (x: number): string => x.toLocaleString('en-US');

/** Usage of one turn (several model calls): tokens summed, cost summed while every call was priced. */
export interface TurnUsage {
  usage: Usage;
  cost: number | undefined;
  /** The session's cost after this turn (undefined once a call could not be priced). */
  sessionCost: number | undefined;
}

export function addTurnUsage(t: TurnUsage | undefined, e: Extract<AgentEvent, { type: 'usage' }>): TurnUsage {
  const u = t?.usage;
  return {
    usage: {
      inputTokens: (u?.inputTokens ?? 0) + e.usage.inputTokens,
      outputTokens: (u?.outputTokens ?? 0) + e.usage.outputTokens,
      cacheReadTokens: (u?.cacheReadTokens ?? 0) + e.usage.cacheReadTokens,
      cacheWriteTokens: (u?.cacheWriteTokens ?? 0) + e.usage.cacheWriteTokens,
    },
    cost: (t ? t.cost : 0) !== undefined && e.cost !== undefined ? (t?.cost ?? 0) + e.cost : undefined,
    sessionCost: e.totalCost,
  };
}

/** "1,200 in (800 read from cache, 0 written), 40 out · $0.0042 this turn · session cost $0.0123" — no price, no cost. */
export function describeUsage(
  u: Usage,
  cost: number | undefined,
  sessionCost?: number | undefined,
  what = 'this turn',
): string {
  const cached = u.cacheReadTokens + u.cacheWriteTokens;
  const tokens = `tokens: ${n(u.inputTokens)} in${cached ? ` (${n(u.cacheReadTokens)} read from cache, ${n(u.cacheWriteTokens)} written)` : ''}, ${n(u.outputTokens)} out`;
  if (cost === undefined)
    return `${tokens} · cost unknown (no price for this model: add one under "prices" in providers.json)`;
  return `${tokens} · ${formatCost(cost)} ${what}${sessionCost !== undefined ? ` · session cost ${formatCost(sessionCost)}` : ''}`;
}

function fence(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const f = '`'.repeat(longest + 1);
  return `${f}\n${text}\n${f}`;
}

/** The session's total usage and cost (undefined when any call could not be priced), from its last usage event. */
function sessionUsage(events: AgentEvent[]): { usage: Usage; cost: number | undefined } | undefined {
  let last: Extract<AgentEvent, { type: 'usage' }> | undefined;
  for (const e of events) if (e.type === 'usage') last = e;
  return last ? { usage: last.total, cost: last.totalCost } : undefined;
}

export function exportSession(row: SessionRow, events: AgentEvent[], format: ExportFormat): string {
  const total = sessionUsage(events);
  if (format === 'json')
    return redact(
      JSON.stringify(
        {
          session: row,
          ...(total ? { usage: { ...total.usage, ...(total.cost !== undefined ? { costUsd: total.cost } : {}) } } : {}),
          events,
        },
        null,
        2,
      ),
    );
  const out: string[] = [
    `# ${row.title || 'Untitled session'}`,
    '',
    `- session: ${row.id}`,
    `- workspace: ${row.workspace}`,
  ];
  if (row.provider) out.push(`- model: ${row.provider} / ${row.model ?? ''}`);
  if (total) out.push(`- ${describeUsage(total.usage, total.cost, undefined, 'in all')}`);
  out.push(`- started: ${new Date(row.createdAt).toISOString()}`, '');
  let text = '';
  let turn: TurnUsage | undefined;
  const flush = (): void => {
    if (text.trim()) out.push('**Assistant:**', '', text.trim(), '');
    text = '';
  };
  for (const e of events) {
    if (e.type === 'text_delta') {
      text += e.text;
      continue;
    }
    if (e.type === 'assistant_end') {
      if (e.interrupted) text += '\n\n*(interrupted)*';
      flush();
      continue;
    }
    // Bookkeeping the transcript does not show may come in the middle of a reply (a turn's context counts are recorded
    // right after its first text piece is shown): it does not end the reply.
    if (e.type === 'context') continue;
    if (e.type === 'usage') {
      turn = addTurnUsage(turn, e);
      continue;
    }
    flush();
    switch (e.type) {
      case 'user_message':
        out.push('## User', '', e.text, '');
        break;
      case 'skill_loaded':
        out.push(`> loaded skill **${e.name}** (${e.tier}) — ${e.reason}: ${e.why}`, '');
        break;
      case 'skill_unloaded':
        out.push(`> unloaded skill **${e.name}** — ${e.reason}`, '');
        break;
      case 'tool_call':
        out.push(`**Tool call** \`${e.name}\``, '', fence(e.arguments), '');
        break;
      case 'gate_decision':
        if (e.verdict !== 'allow') out.push(`> gate: ${e.verdict} — ${e.reason}`, '');
        break;
      case 'approval_answered':
        out.push(
          `> approval: ${e.answer}${e.message ? ` — ${e.message}` : ''}${e.rules?.length ? ` (stored: ${e.rules.join('; ')})` : ''}`,
          '',
        );
        break;
      case 'tool_result':
        out.push(
          `**Result** (${e.ok ? 'ok' : (e.code ?? 'error')}, ${e.durationMs} ms)`,
          '',
          fence(e.content.length > 4000 ? `${e.content.slice(0, 4000)}…` : e.content),
          '',
        );
        break;
      case 'compaction':
        out.push(`> compacted ${e.compactedMessages} older messages into a summary`, '', fence(e.summary), '');
        break;
      case 'error':
        out.push(`> error (${e.kind}): ${e.message}`, '');
        break;
      case 'plan_mode':
        out.push(`> plan mode ${e.on ? 'on' : 'off'}`, '');
        break;
      case 'recovered':
        out.push(`> session recovered after an interruption`, '');
        break;
      case 'turn_end':
        if (turn) out.push(`> ${describeUsage(turn.usage, turn.cost, turn.sessionCost)}`, '');
        turn = undefined;
        break;
      default:
        break;
    }
  }
  flush();
  return redact(out.join('\n'));
}
