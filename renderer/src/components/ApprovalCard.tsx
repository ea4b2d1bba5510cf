// The gate asked: Allow once / Always allow (showing the rule it saves) / Deny with an optional reason for the model.
// Shows what the gate checked (rule, scope, skill identity, real paths), every string through the shared escaping.
import { Fragment, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText, useClient } from '../api/context';
import type { ApprovalRequest, Decision } from '../api/types';
import { useView } from '../state/store';
// The one control/bidi escaping helper (pure, no Node): nothing in a path or command can reorder what is read.
import { displaySafe, displaySafeLines } from '../../../main/core/policy/display';

/** The gate's decision on the card: the rule that asked and its scope, the acting skill's identity, the paths checked. */
function GateDecision({ d }: { d: NonNullable<ApprovalRequest['decision']> }) {
  const { t } = useTranslation();
  const rows: [string, string][] = [];
  if (d.rule) rows.push([t('approval.gateRule'), displaySafe(d.rule)]);
  if (d.scope) rows.push([t('approval.scope'), displaySafe(d.scope)]);
  if (d.skill) {
    const who = t('approval.skillIdentity', {
      name: displaySafe(d.skill.name),
      tier: displaySafe(d.skill.tier ?? '?'),
      dir: displaySafe(d.skill.dir),
    });
    rows.push([
      t('approval.skill'),
      d.skill.hash ? `${who} · ${t('approval.content', { hash: displaySafe(d.skill.hash.slice(0, 12)) })}` : who,
    ]);
  }
  if (d.paths?.read.length) rows.push([t('approval.reads'), d.paths.read.map(displaySafe).join(', ')]);
  if (d.paths?.write.length) rows.push([t('approval.writes'), d.paths.write.map(displaySafe).join(', ')]);
  if (!rows.length) return null;
  return (
    <dl className="gate-decision" aria-label={t('approval.decision')}>
      {rows.map(([k, v]) => (
        <Fragment key={k}>
          <dt>{k}</dt>
          <dd>
            <code>{v}</code>
          </dd>
        </Fragment>
      ))}
    </dl>
  );
}

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

  // One rule per program of a pipeline or list (`git log | head`): each its own item, shown on one line (a newline
  // inside one, from a quoted word of the command, is escaped: it cannot make one rule look like two).
  const rules = request.rules ?? [];

  return (
    <section className="approval-card" aria-label={t('approval.label', { tool: request.tool })}>
      <header>
        <strong>{t('approval.title', { tool: displaySafe(request.tool) })}</strong>
        {request.skill && <span className="muted"> · {displaySafe(request.skill)}</span>}
      </header>
      {request.summary && (
        <p>
          <code>{displaySafe(request.summary)}</code>
        </p>
      )}
      <p>{displaySafe(request.reason)}</p>
      {request.decision && <GateDecision d={request.decision} />}
      <pre className="args">{displaySafeLines(JSON.stringify(request.args, null, 2) ?? '')}</pre>
      {answered ? (
        <p role="status" className="muted">
          {t(`approval.answered.${answered}`)}
        </p>
      ) : (
        <>
          <div className="actions">
            <button type="button" className="primary" onClick={() => void answer('once')}>
              {t('approval.once')}
            </button>
            <button
              type="button"
              onClick={() => void answer('always')}
              disabled={rules.length === 0}
              aria-describedby={`rule-${request.id}`}
            >
              {t('approval.always')}
            </button>
            <button type="button" className="danger" onClick={() => (denying ? void answer('deny') : setDenying(true))}>
              {t('approval.deny')}
            </button>
          </div>
          <div id={`rule-${request.id}`} className="muted small-text rule-note">
            {rules.length ? (
              <>
                {t('approval.rule', { count: rules.length })}
                <ul className="rules-preview">
                  {rules.map((r, i) => (
                    <li key={i}>
                      <code className="rule">{displaySafe(r)}</code>
                    </li>
                  ))}
                </ul>
              </>
            ) : (
              t('approval.noRule')
            )}
          </div>
          {denying && (
            <div className="row">
              <label htmlFor={`reason-${request.id}`}>{t('approval.reason')}</label>
              <input
                id={`reason-${request.id}`}
                value={reason}
                onChange={(e) => setReason(e.target.value)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') void answer('deny');
                }}
                autoFocus
              />
              <button type="button" className="danger" onClick={() => void answer('deny')}>
                {t('approval.confirmDeny')}
              </button>
            </div>
          )}
        </>
      )}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </section>
  );
}
