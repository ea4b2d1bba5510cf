// How an answer ended when it did not simply finish, under its text: interrupted, timed out, failed (the provider's
// reason), at a limit, or no model set up — with Retry where a retry can finish it, and the way to the setup. The reason
// is said in the window's language; what the provider or its connection said itself stays as it said it, in code.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useClient } from '../api/context';
import { ErrorText, failure, type Failure } from '../i18n/ErrorText';
import type { ChatMessage } from '../state/transcript';
import { useView } from '../state/store';
import { SaidText } from '../i18n/SaidText';

export function AnswerEnd({ m }: { m: ChatMessage }) {
  const { t } = useTranslation();
  const client = useClient();
  const [failed, setFailed] = useState<Failure>();
  if (!m.end) return null;
  const end = m.end;

  async function retry() {
    const view = useView.getState();
    const sessionId = view.sessionId;
    if (!sessionId || view.streaming) return;
    setFailed(undefined);
    view.retrying(m.id);
    try {
      const r = await client.call('chat.retry', { sessionId });
      useView.getState().began(r.sessionId, r.turnId);
    } catch (err) {
      // Not retried: the answer offers Retry again, and says why.
      useView.setState((s) => ({
        streaming: false,
        messages: s.messages.map((x) => (x.id === m.id ? { ...x, retry: true } : x)),
      }));
      setFailed(failure(err));
    }
  }

  // With a reason after it, an interrupted answer's lead says only that: the reason says how (the connection lost).
  const reason = m.error && end !== 'no_model';
  // A key the provider refused: the way to change it, beside Retry (which only helps once the key is changed).
  const keyRefused = end === 'failed' && /^provider\.auth(Status)?$/.test(m.errorWords?.code ?? '');
  const setUp = end === 'no_model' || keyRefused;
  return (
    <div className={`answer-end ${end}`} role={end === 'limit' ? 'status' : 'alert'}>
      <p>
        <strong>{reason && end === 'interrupted' ? t('chat.interruptedBecause') : t(`chat.end.${end}`)}</strong>
        {reason ? (
          <span className="answer-end-reason">
            {' '}
            <SaidText words={m.errorWords} fallback={m.error} />
          </span>
        ) : null}
      </p>
      {end === 'no_model' && <NoModelWhy m={m} lead={t('chat.end.no_model')} />}
      {(m.retry || setUp) && (
        <p className="answer-end-actions">
          {m.retry && (
            <button type="button" className="small" onClick={() => void retry()}>
              {t('chat.retry')}
            </button>
          )}
          {setUp && (
            <button
              type="button"
              className="small primary"
              // The setup steps (provider, key, Test connection); closing them leaves Settings open.
              onClick={() => useView.getState().set({ view: 'settings', setup: 'settings' })}
            >
              {t(keyRefused ? 'chat.changeKey' : 'chat.setUpModel')}
            </button>
          )}
        </p>
      )}
      {failed && (
        <p className="error">
          <ErrorText error={failed} />
        </p>
      )}
    </div>
  );
}

/**
 * Why no model is set up, under the lead that already says so: the reason alone (the provider that could not be made),
 * never the lead again; nothing when main knows no more than the lead and the button say.
 */
function NoModelWhy({ m, lead }: { m: ChatMessage; lead: string }) {
  const w = m.errorWords;
  const why = w?.code === 'noModelBecause' && typeof w.params?.why === 'object' ? w.params.why : undefined;
  // Text stored without words (older conversations): its English lead is dropped the same way.
  const text = w ? undefined : m.error?.startsWith(`${lead}: `) ? m.error.slice(lead.length + 2) : m.error;
  if (!why && !text) return null;
  return (
    <p className="small-text muted">
      <SaidText words={why} fallback={text} />
    </p>
  );
}
