// A tool call in the transcript: name, gate decision, duration, arguments; the result collapsed until opened.
import { useTranslation } from 'react-i18next';
import type { ToolCallView } from '../api/types';

export function ToolCard({ call }: { call: ToolCallView }) {
  const { t } = useTranslation();
  const args = JSON.stringify(call.args, null, 2);
  return (
    <section className={`tool-card status-${call.status}`} aria-label={t('chat.toolCall', { name: call.name })}>
      <header>
        <span className="tool-name">{call.name}</span>
        {call.decision && (
          <span className={`badge decision-${call.decision}`}>{t(`chat.decision.${call.decision}`)}</span>
        )}
        <span className="muted">{t(`chat.status.${call.status}`)}</span>
        {call.durationMs !== undefined && (
          <span className="muted">{t('chat.duration', { ms: Math.round(call.durationMs) })}</span>
        )}
      </header>
      <pre className="args">{args}</pre>
      {(call.result !== undefined || call.error !== undefined) && (
        <details>
          <summary>{call.error !== undefined ? t('chat.error') : t('chat.result')}</summary>
          <pre className={call.error !== undefined ? 'error' : undefined}>{call.error ?? call.result}</pre>
        </details>
      )}
    </section>
  );
}
