// Save as skill: the offer under a task that used tools several times, and the editor it opens. The model drafts the
// task as a SKILL.md (main reads its permissions from the calls the task made); the user edits it beside its audit,
// picks user or project scope, and it installs through the same audit and approval as any install (P1 waits for
// Approve, P0 is refused and the draft stays open to fix). Everything shown is text React escapes.
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SaidText } from '../i18n/SaidText';
import { create } from 'zustand';
import { useClient } from '../api/context';
import { ErrorText, failure, type Failure, type Shown } from '../i18n/ErrorText';
import type { AuditReport } from '../../../preload/contract';
import { skillOf, withReport } from '../state/install';
import { useView } from '../state/store';
import { Findings, Permissions } from './Findings';
import { LevelBadge, LevelLegend } from './Levels';
import { Modal } from './Modal';
import { DialogFooter, ErrorLine } from './DialogFooter';

/** Which conversation's last task the editor drafts (undefined: closed). */
export const useSaveSkill = create<{ sessionId?: string; open(id: string | undefined): void }>((set) => ({
  open: (sessionId) => set({ sessionId }),
}));

/** The button the "can be saved as a skill" notice carries. */
export function SaveSkillOffer() {
  const { t } = useTranslation();
  const sessionId = useView((s) => s.sessionId);
  const streaming = useView((s) => s.streaming);
  if (!sessionId) return null;
  return (
    <button
      type="button"
      className="small save-skill-offer"
      disabled={streaming}
      onClick={() => useSaveSkill.getState().open(sessionId)}
    >
      {t('saveSkill.offer')}
    </button>
  );
}

type Stage = { kind: 'drafting' } | { kind: 'failed'; error: Failure } | { kind: 'editing'; calls: number };

export function SaveSkillDialog({ sessionId }: { sessionId: string }) {
  const { t } = useTranslation();
  const client = useClient();
  const ids = { text: useId(), scope: useId() };
  const [stage, setStage] = useState<Stage>({ kind: 'drafting' });
  const [attempt, setAttempt] = useState(0);
  const [text, setText] = useState('');
  const [check, setCheck] = useState<AuditReport>();
  const [checkedText, setCheckedText] = useState('');
  const [scope, setScope] = useState<'user' | 'project'>('user');
  const [outcome, setOutcome] = useState<ReturnType<typeof withReport>>();
  const [done, setDone] = useState<string>();
  const [error, setError] = useState<Shown>();
  const [busy, setBusy] = useState(false);
  const close = () => useSaveSkill.getState().open(undefined);

  useEffect(() => {
    let live = true;
    setStage({ kind: 'drafting' });
    client.call('chat.draftSkill', { sessionId }).then(
      ({ text: drafted, calls, report }) => {
        if (!live) return;
        setText(drafted);
        setCheck(report);
        setCheckedText(drafted);
        setStage({ kind: 'editing', calls });
      },
      (e: unknown) => live && setStage({ kind: 'failed', error: failure(e, 'saveSkill.failed') }),
    );
    return () => {
      live = false;
    };
  }, [client, sessionId, attempt]);

  async function act(f: () => Promise<void>) {
    setBusy(true);
    setError(undefined);
    try {
      await f();
    } catch (e) {
      setError(failure(e));
    } finally {
      setBusy(false);
    }
  }

  const recheck = () =>
    act(async () => {
      setCheck((await client.call('skills.checkDraft', { text })).report);
      setCheckedText(text);
      setOutcome(undefined);
    });

  function settle(r: ReturnType<typeof withReport>) {
    setOutcome(r);
    // The audit the install ran is the one to show: of the text as it was sent.
    setCheck(r.report);
    if (r.status === 'installed') {
      setDone(t('saveSkill.installed', { name: skillOf(r) }));
      useView.getState().set({ catalogTick: useView.getState().catalogTick + 1 });
    }
  }

  const install = (replace = false) =>
    act(async () => {
      const sent = text;
      settle(withReport(await client.call('skills.installDraft', { text: sent, tier: scope, replace })));
      setCheckedText(sent);
    });

  const approve = () =>
    act(async () => {
      if (!outcome?.approvalId) return;
      const input = { approvalId: outcome.approvalId, contentHash: outcome.report.contentHash };
      settle(withReport(await client.call('skills.approveInstall', input)));
    });

  const reject = () =>
    act(async () => {
      if (!outcome?.approvalId) return;
      await client.call('skills.rejectInstall', { approvalId: outcome.approvalId });
      setOutcome(undefined);
    });

  const stale = stage.kind === 'editing' && text !== checkedText;
  return (
    <Modal title={t('saveSkill.title')} onClose={close} wide>
      {stage.kind === 'drafting' && (
        <p role="status" className="muted">
          {t('saveSkill.drafting')}
        </p>
      )}
      {stage.kind === 'failed' && (
        <>
          <p role="alert" className="error">
            <ErrorText error={stage.error} />
          </p>
          <DialogFooter onClose={close}>
            <button type="button" className="primary" onClick={() => setAttempt((n) => n + 1)}>
              {t('saveSkill.retry')}
            </button>
          </DialogFooter>
        </>
      )}
      {stage.kind === 'editing' && (
        <div className="save-skill">
          <p className="muted small-text">{t('saveSkill.intro', { count: stage.calls })}</p>
          <label htmlFor={ids.text}>{t('saveSkill.editor')}</label>
          <textarea
            id={ids.text}
            className="skill-editor"
            data-skill-text
            value={text}
            spellCheck={false}
            rows={16}
            readOnly={!!done}
            onChange={(e) => setText(e.target.value)}
          />
          {check && (
            <section className="report" aria-label={t('saveSkill.audit')}>
              <p className="report-head">
                <LevelBadge level={check.level} big /> <strong>{check.skill}</strong>
              </p>
              <LevelLegend />
              {stale && <p className="notice warning">{t('saveSkill.stale')}</p>}
              {check.manifestDiagnostics.length > 0 && (
                <>
                  <h3>{t('saveSkill.diagnostics')}</h3>
                  <ul className="plain">
                    {check.manifestDiagnostics.map((d, i) => (
                      <li key={i} className={d.severity === 'error' ? 'error' : 'muted'}>
                        <code>
                          {d.file}
                          {d.line ? `:${d.line}` : ''}
                          {d.field ? ` ${d.field}` : ''}
                        </code>{' '}
                        <SaidText words={d.words} fallback={d.message} />
                      </li>
                    ))}
                  </ul>
                </>
              )}
              <h3>{t('install.findings')}</h3>
              <Findings findings={check.findings} />
              <h3>{t('install.permissions')}</h3>
              <Permissions p={check.permissions} />
            </section>
          )}
          {outcome?.status === 'refused' && (
            <p role="alert" className="error">
              {t('saveSkill.refused')} <SaidText words={outcome.words} fallback={outcome.reason} />
            </p>
          )}
          {outcome?.status === 'pending' && !done && <p className="notice warning">{t('saveSkill.pending')}</p>}
          {outcome?.status === 'exists' && !done && (
            <p className="notice warning">{t('saveSkill.exists', { name: skillOf(outcome) })}</p>
          )}
          {done && (
            <p role="status" className="ok">
              {done}
            </p>
          )}
          {!done && (
            <div className="actions">
              <label htmlFor={ids.scope}>{t('saveSkill.scope')}</label>
              <select
                id={ids.scope}
                value={scope}
                onChange={(e) => {
                  setScope(e.target.value as 'user' | 'project');
                  setOutcome(undefined);
                }}
              >
                <option value="user">{t('tier.user')}</option>
                <option value="project">{t('tier.project')}</option>
              </select>
              <button type="button" onClick={() => void recheck()} disabled={busy || !text.trim()}>
                {t('saveSkill.check')}
              </button>
              {outcome?.status === 'pending' ? (
                <>
                  <button type="button" className="primary" onClick={() => void approve()} disabled={busy || stale}>
                    {t('install.approve')}
                  </button>
                  <button type="button" className="danger" onClick={() => void reject()} disabled={busy}>
                    {t('install.reject')}
                  </button>
                </>
              ) : outcome?.status === 'exists' ? (
                <button type="button" className="primary" onClick={() => void install(true)} disabled={busy}>
                  {t('saveSkill.replace')}
                </button>
              ) : (
                <button
                  type="button"
                  className="primary"
                  onClick={() => void install()}
                  disabled={busy || !text.trim()}
                >
                  {busy ? t('saveSkill.installing') : t('saveSkill.install')}
                </button>
              )}
            </div>
          )}
          <DialogFooter onClose={close} cancel={!done} />
        </div>
      )}
      <ErrorLine error={error} />
    </Modal>
  );
}
