// Copy on a message: its text (the user's words, or the answer's Markdown source) goes to the clipboard.
// A clipboard that refuses says so beside the button.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChatMessage } from '../state/transcript';

/** The text a message shows, as written (tool cards, skill notes and approvals are not part of it). */
function messageText(m: ChatMessage): string {
  return m.parts
    .flatMap((p) => (p.kind === 'text' ? [p.text] : []))
    .join('\n\n')
    .trim();
}

export function CopyMessage({ m }: { m: ChatMessage }) {
  const { t } = useTranslation();
  const [state, setState] = useState<{ kind: 'copied' } | { kind: 'failed'; error: string }>();
  const text = messageText(m);
  if (!text) return null;
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setState({ kind: 'copied' });
    } catch (e) {
      setState({ kind: 'failed', error: String((e as Error)?.message ?? e) });
    }
  }
  return (
    <div className="message-actions">
      <button
        type="button"
        className="small"
        onClick={() => void copy()}
        aria-label={m.role === 'user' ? t('chat.copyYours') : t('chat.copyAnswer')}
      >
        {t('chat.copy')}
      </button>
      {state?.kind === 'copied' && (
        <span role="status" className="muted small-text">
          {t('chat.copied')}
        </span>
      )}
      {state?.kind === 'failed' && (
        <span role="alert" className="error small-text">
          {t('chat.copyFailed', { error: state.error })}
        </span>
      )}
    </div>
  );
}
