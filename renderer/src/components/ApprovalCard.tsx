// The gate asked: Allow once / Always allow (showing the rule it saves) / Deny with an optional reason for the model.
// The renderer only answers a question main asked; it cannot create one.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText, useClient } from '../api/context';
import type { ApprovalRequest, Decision } from '../api/types';
import { useView } from '../state/store';

export function ApprovalCard({ request, answered }: { request: ApprovalRequest; answered?: Decision }) {
  const { t } = useTranslation();
  const client = useClient();
  const sessionId = useView((s) => s.sessionId);
  const markApproval = useView((s) => s.markApproval);
  const [denying, setDenying] = useState(false);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string>();

  async function answer(d: Decision) {
    if (!sessionId) return;
    try {
      await client.answerApproval(sessionId, request.id, d, d === 'deny' && reason.trim() ? reason.trim() : undefined);
      markApproval(request.id, d);
    } catch (e) {
      setError(errorText(e));
    }
  }

  return (
    <section className="approval-card" aria-label={t('approval.label', { tool: request.tool })}>
      <header><strong>{t('approval.title', { tool: request.tool })}</strong>{request.skill && <span className="muted"> · {request.skill}</span>}</header>
      {request.summary && <p><code>{request.summary}</code></p>}
      <p>{request.reason}</p>
      <pre className="args">{JSON.stringify(request.args, null, 2)}</pre>
      {answered ? (
        <p role="status" className="muted">{t(`approval.answered.${answered}`)}</p>
      ) : (
        <>
          <div className="actions">
            <button type="button" className="primary" onClick={() => void answer('once')}>{t('approval.once')}</button>
            <button type="button" onClick={() => void answer('always')} disabled={!request.rule} aria-describedby={`rule-${request.id}`}>{t('approval.always')}</button>
            <button type="button" className="danger" onClick={() => (denying ? void answer('deny') : setDenying(true))}>{t('approval.deny')}</button>
          </div>
          <p id={`rule-${request.id}`} className="muted small-text">
            {request.rule ? <>{t('approval.rule')} <code className="rule">{request.rule}</code></> : t('approval.noRule')}
          </p>
          {denying && (
            <div className="row">
              <label htmlFor={`reason-${request.id}`}>{t('approval.reason')}</label>
              <input id={`reason-${request.id}`} value={reason} onChange={(e) => setReason(e.target.value)}
                onKeyDown={(e) => { if (e.key === 'Enter') void answer('deny'); }} autoFocus />
              <button type="button" className="danger" onClick={() => void answer('deny')}>{t('approval.confirmDeny')}</button>
            </div>
          )}
        </>
      )}
      {error && <p role="alert" className="error">{error}</p>}
    </section>
  );
}
