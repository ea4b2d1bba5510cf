// Session export as Markdown (for people) or JSON (every event). Keys never appear: sessions never hold them,
// and exported text is passed through the same redaction as errors.
import type { AgentEvent } from './types.js';
import type { SessionRow } from '../store/session-repo.js';
import { redact } from './providers/errors.js';

export type ExportFormat = 'md' | 'json';

function fence(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const f = '`'.repeat(longest + 1);
  return `${f}\n${text}\n${f}`;
}

export function exportSession(row: SessionRow, events: AgentEvent[], format: ExportFormat): string {
  if (format === 'json') return redact(JSON.stringify({ session: row, events }, null, 2));
  const out: string[] = [`# ${row.title || 'Untitled session'}`, '', `- session: ${row.id}`, `- workspace: ${row.workspace}`];
  if (row.provider) out.push(`- model: ${row.provider} / ${row.model ?? ''}`);
  out.push(`- started: ${new Date(row.createdAt).toISOString()}`, '');
  let text = '';
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
        out.push(`> approval: ${e.answer}${e.message ? ` — ${e.message}` : ''}${e.rules?.length ? ` (stored: ${e.rules.join('; ')})` : ''}`, '');
        break;
      case 'tool_result':
        out.push(`**Result** (${e.ok ? 'ok' : e.code ?? 'error'}, ${e.durationMs} ms)`, '', fence(e.content.length > 4000 ? `${e.content.slice(0, 4000)}…` : e.content), '');
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
      default:
        break;
    }
  }
  flush();
  return redact(out.join('\n'));
}
