// Trusting a skill is always a review: the same report an install shows (level with its legend, findings with
// file:line and the line, requested permissions, content hash) ending in Approve or Reject. Approve is bound to the
// hash that was reviewed (a skill changed since is refused by main, never trusted unseen). Focus starts on Reject, so
// no single keystroke or click trusts anything.
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useClient } from '../api/context';
import { failure, type Shown } from '../i18n/ErrorText';
import type { SkillDetail } from '../../../preload/contract';
import { auditLevel, waitsForTrust } from '../state/skills';
import { useView } from '../state/store';
import { AuditFindings } from './Findings';
import { LevelBadge } from './Levels';
import { Modal } from './Modal';
import { DialogFooter, ErrorLine } from './DialogFooter';

export function TrustReview({ name, tier }: { name: string; tier: string }) {
  const { t } = useTranslation();
  const client = useClient();
  const ws = useView((s) => s.workspace?.path ?? '');
  const set = useView((s) => s.set);
  const [d, setD] = useState<SkillDetail>();
  // The content hash the user reviews: trusting is bound to it.
  const hash = d && (d.report?.contentHash ?? d.audit.contentHash);
  const [error, setError] = useState<Shown>();
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<'trusted' | 'rejected'>();
  const close = () => set({ trustReview: undefined });
  const closeButton = useRef<HTMLButtonElement>(null);
  // Decided: Approve and Reject are gone; focus goes to Close (never left on nothing).
  useEffect(() => {
    if (outcome) closeButton.current?.focus();
  }, [outcome]);

  useEffect(() => {
    let live = true;
    client.call('skills.show', { name }).then(
      (x) => live && setD(x),
      (e) => live && setError(failure(e)),
    );
    return () => {
      live = false;
    };
  }, [client, ws, name, tier]);

  async function approve() {
    if (!hash) return;
    setBusy(true);
    setError(undefined);
    try {
      await client.call('skills.trust', { name: d!.name, contentHash: hash });
      setOutcome('trusted');
      const s = useView.getState();
      s.set({ catalogTick: s.catalogTick + 1 });
    } catch (e) {
      setError(failure(e));
    } finally {
      setBusy(false);
    }
  }

  const level = d && auditLevel(d);
  const canTrust = !!d && !outcome && waitsForTrust(d) && level !== 'P0' && !!hash;
  return (
    <Modal title={t('trust.title', { name })} onClose={close} wide>
      {!d && !error && <p className="muted">{t('common.loading')}</p>}
      {d && (
        <div className="report">
          <p className="report-head">
            {level && <LevelBadge level={level} big />} <strong>{d.name}</strong>{' '}
            <span className="muted">{t(`tier.${d.tier}`)}</span>
          </p>
          <p>{d.description}</p>
          {level === 'P0' && (
            <p role="alert" className="error">
              {t('trust.blocked')}
            </p>
          )}
          {!waitsForTrust(d) && level !== 'P0' && !outcome && <p className="muted">{t('trust.nothingToDo')}</p>}
          <AuditFindings findings={d.report?.findings ?? []} permissions={d.permissions} contentHash={hash} />
          {outcome && (
            <p role="status" className="ok">
              {t(outcome === 'trusted' ? 'trust.trusted' : 'trust.rejected', { name: d.name })}
            </p>
          )}
          <DialogFooter onClose={close} closeRef={closeButton} autoFocus={!canTrust}>
            {canTrust && (
              <button type="button" className="primary" onClick={() => void approve()} disabled={busy}>
                {t('install.approve')}
              </button>
            )}
            {canTrust && (
              <button type="button" className="danger" autoFocus onClick={() => setOutcome('rejected')}>
                {t('install.reject')}
              </button>
            )}
          </DialogFooter>
        </div>
      )}
      <ErrorLine error={error} />
    </Modal>
  );
}
