// The gate asked. The card reads top to bottom: the command once, highlighted; plain risk lines main computed (the host
// data goes to, writes outside this folder, deletions, a downloaded script, the network being off); then the exact
// rules "Always allow" would save, each with a checkbox (unticking narrows; a rule that would allow network or writes
// outside the workspace is never pre-ticked); Allow once / Always allow / Deny with a reason. What the gate checked
// (rule, scope, skill identity, real paths, raw arguments) is one click away. Every string goes through the escaping.
import { Fragment, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useClient } from '../api/context';
import { failure, type Shown } from '../i18n/ErrorText';
import type { ChatApproval, Decision } from '../state/transcript';
import { useView } from '../state/store';
// The one control/bidi escaping helper (pure, no Node): nothing in a path or command can reorder what is read.
import { displaySafe, displaySafeLines } from '../../../preload/contract';
import { Markdown } from './Markdown';
import { SaidText } from '../i18n/SaidText';
import { ErrorLine } from './DialogFooter';

/** The gate's decision on the card: the rule that asked and its scope, the acting skill's identity, the paths checked. */
function GateDecision({ d }: { d: NonNullable<ChatApproval['decision']> }) {
  const { t } = useTranslation();
  // [label, value, said]: a rule and its scope are words in the window's language; the rest is names and paths.
  const rows: [string, ReactNode, boolean?][] = [];
  if (d.rule) rows.push([t('approval.gateRule'), <SaidText words={d.ruleWords} fallback={d.rule} safe />, true]);
  if (d.scope) rows.push([t('approval.scope'), <SaidText words={d.scopeWords} fallback={d.scope} safe />, true]);
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
      {rows.map(([k, v, said]) => (
        <Fragment key={k}>
          <dt>{k}</dt>
          <dd>{said ? v : <code>{v}</code>}</dd>
        </Fragment>
      ))}
    </dl>
  );
}

/** The command (or the one thing the call touches) once, as a highlighted block (a fence longer than any in it). */
function CallBlock({ request }: { request: ChatApproval }) {
  const args = (request.args ?? {}) as Record<string, unknown>;
  const command = typeof args.command === 'string' ? args.command : undefined;
  const text = displaySafeLines(command ?? request.summary);
  const fence = '`'.repeat(Math.max(3, ...[...text.matchAll(/`+/g)].map((m) => m[0].length + 1)));
  return (
    <div className="approval-command">
      <Markdown text={`${fence}${command !== undefined ? 'bash' : 'text'}\n${text}\n${fence}\n`} />
    </div>
  );
}

export function ApprovalCard({ request, answered }: { request: ChatApproval; answered?: Decision }) {
  const { t } = useTranslation();
  const client = useClient();
  const sessionId = useView((s) => s.sessionId);
  const markApproval = useView((s) => s.markApproval);
  const [denying, setDenying] = useState(false);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<Shown>();
  // One rule per program of a pipeline or list (`git log | head`): each its own item, shown on one line (a newline
  // inside one, from a quoted word of the command, is escaped: it cannot make one rule look like two).
  const rules = request.alwaysPreview;
  // Words for the rules only when there is one for each.
  const ruleWords = request.alwaysWords?.length === rules.length ? request.alwaysWords : undefined;
  const widens = request.alwaysWidens;
  const [ticked, setTicked] = useState<boolean[]>(() => rules.map((_, i) => !widens?.[i]));
  const kept = ticked.flatMap((on, i) => (on ? [i] : []));

  async function answer(d: Decision) {
    if (!sessionId) return;
    try {
      await client.call('chat.answer', {
        sessionId,
        approvalId: request.approvalId,
        answer: d,
        ...(d === 'deny' && reason.trim() ? { message: reason.trim() } : {}),
        ...(d === 'always' ? { rules: kept } : {}),
      });
      markApproval(request.approvalId, d);
    } catch (e) {
      setError(failure(e));
    }
  }

  const risks = request.risks ?? [];
  return (
    <section className="approval-card" aria-label={t('approval.label', { tool: request.tool })}>
      <header>
        <strong>{t('approval.title', { tool: displaySafe(request.tool) })}</strong>
        {request.actor.kind === 'skill' && <span className="muted"> · {displaySafe(request.actor.skill)}</span>}
      </header>
      <CallBlock request={request} />
      {risks.length > 0 && (
        <ul className="risks" aria-label={t('approval.risks')}>
          {risks.map((r, i) => {
            const params = Object.fromEntries(Object.entries(r.params).map(([k, v]) => [k, displaySafe(v)]));
            const key = `risk.${r.code}`;
            return (
              <li key={i} className={`risk risk-${r.code}`}>
                {t(key, { ...params, defaultValue: t('risk.unknown', { code: displaySafe(r.code) }) })}
              </li>
            );
          })}
        </ul>
      )}
      {answered ? (
        <p role="status" className="muted">
          {t(`approval.answered.${answered}`)}
        </p>
      ) : (
        <>
          <fieldset className="rule-note" id={`rule-${request.approvalId}`}>
            <legend className="small-text">
              {rules.length ? t('approval.rule', { count: rules.length }) : t('approval.noRule')}
            </legend>
            {rules.length > 0 && (
              <ul className="rules-preview plain">
                {rules.map((r, i) => (
                  <li key={i}>
                    <label>
                      <input
                        type="checkbox"
                        checked={ticked[i] ?? false}
                        onChange={(e) => setTicked((x) => x.map((v, j) => (j === i ? e.target.checked : v)))}
                      />
                      <span className="rule">
                        <SaidText words={ruleWords?.[i]} fallback={r} safe />
                      </span>
                      {widens?.[i] && <span className="badge warn">{t(`approval.widens.${widens[i]}`)}</span>}
                    </label>
                  </li>
                ))}
              </ul>
            )}
          </fieldset>
          <div className="actions">
            <button type="button" className="primary" onClick={() => void answer('once')}>
              {t('approval.once')}
            </button>
            <button
              type="button"
              onClick={() => void answer('always')}
              disabled={kept.length === 0}
              aria-describedby={`rule-${request.approvalId}`}
            >
              {rules.length ? t('approval.alwaysCount', { count: kept.length }) : t('approval.always')}
            </button>
            <button type="button" className="danger" onClick={() => (denying ? void answer('deny') : setDenying(true))}>
              {t('approval.deny')}
            </button>
          </div>
          {denying && (
            <div className="row">
              <label htmlFor={`reason-${request.approvalId}`}>{t('approval.reason')}</label>
              <input
                id={`reason-${request.approvalId}`}
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
      <details className="approval-details">
        <summary>{t('approval.details')}</summary>
        <p>
          <SaidText words={request.words} fallback={request.reason} safe />
        </p>
        {request.decision && <GateDecision d={request.decision} />}
        <pre className="args">{displaySafeLines(JSON.stringify(request.args, null, 2) ?? '')}</pre>
      </details>
      <ErrorLine error={error} />
    </section>
  );
}
