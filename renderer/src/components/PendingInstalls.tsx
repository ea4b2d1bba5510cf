// The sidebar's "N waiting for your approval": installs and updates held for a P1 review outlive the dialog that held
// them. Its dialog shows each one's review (findings, permissions, diff, the bound hash) with Approve and Reject; one
// whose held copy is gone says so and can only be dismissed. Copies removed at open are said once, as a notice.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import i18n from 'i18next';
import { SaidText } from '../i18n/SaidText';
import { useClient } from '../api/context';
import { failure, type Shown } from '../i18n/ErrorText';
import type { MethodOutput } from '../../../preload/contract';
import { useView } from '../state/store';
import { AuditFindings, DiffLines } from './Findings';
import { LevelBadge } from './Levels';
import { Modal } from './Modal';
import { DialogFooter, ErrorLine } from './DialogFooter';

type Held = MethodOutput<'skills.pendingInstalls'>['items'][number];
type Outcome = MethodOutput<'skills.approveInstall'>;

export function PendingBadge() {
  const { t } = useTranslation();
  const client = useClient();
  const ws = useView((s) => s.workspace?.path ?? '');
  const catalogTick = useView((s) => s.catalogTick);
  // A dialog that held an install (local or from a source) may close with it still waiting: ask again then.
  const installOpen = useView((s) => s.installOpen);
  const [items, setItems] = useState<Held[]>([]);
  const [error, setError] = useState<Shown>();
  const [open, setOpen] = useState<Held[]>();
  /** The held copies removed when the workspace opened, already said (once per workspace and list). */
  const said = useRef(new Set<string>());
  const read = useCallback(async () => {
    try {
      const r = await client.call('skills.pendingInstalls', {});
      setItems(r.items);
      setError(undefined);
      const key = `${ws}\n${(r.removed ?? []).join('\n')}`;
      if (r.removed?.length && !said.current.has(key)) {
        said.current.add(key);
        // Said when shown, in the window's language then (it follows a switch while the notice is up).
        const count = r.removed.length;
        useView.getState().notify({ kind: 'info', text: () => i18n.t('pending.removed', { count }) });
      }
    } catch (e) {
      setError(failure(e));
    }
  }, [client, ws]);
  useEffect(() => {
    if (!installOpen) void read();
  }, [read, ws, catalogTick, installOpen]);
  return (
    <>
      {items.length > 0 && (
        <button type="button" className="badge pending-badge" onClick={() => setOpen(items)}>
          {t('pending.badge', { count: items.length })}
        </button>
      )}
      <ErrorLine error={error} />
      {open && (
        <PendingDialog
          items={open}
          onClose={(installed) => {
            setOpen(undefined);
            if (installed) useView.getState().set({ catalogTick: useView.getState().catalogTick + 1 });
            else void read();
          }}
        />
      )}
    </>
  );
}

function PendingDialog({ items, onClose }: { items: Held[]; onClose(installed: boolean): void }) {
  const { t } = useTranslation();
  const client = useClient();
  const [results, setResults] = useState<Record<string, Outcome>>({});
  const [error, setError] = useState<Shown>();
  const [busy, setBusy] = useState(false);

  async function decide(h: Held, approve: boolean) {
    setBusy(true);
    setError(undefined);
    try {
      const r = approve
        ? await client.call('skills.approveInstall', { approvalId: h.approvalId, contentHash: h.contentHash })
        : await client.call('skills.rejectInstall', { approvalId: h.approvalId });
      setResults((p) => ({ ...p, [h.approvalId]: r }));
    } catch (e) {
      setError(failure(e));
    } finally {
      setBusy(false);
    }
  }

  const close = () => onClose(Object.values(results).some((r) => r.status === 'installed'));
  return (
    <Modal title={t('pending.title')} onClose={close} wide>
      <p className="muted">{t('pending.intro')}</p>
      {items.map((h) => {
        const r = results[h.approvalId];
        return (
          <section key={h.approvalId} className="update-item" aria-label={h.skill}>
            <h3 className="report-head">
              <LevelBadge level={h.level} /> {h.skill}{' '}
              <span className="muted small-text">
                {t(`pending.kind.${h.kind === 'update' ? 'update' : 'install'}`)} ·{' '}
                {t(`tier.${h.tier === 'project' ? 'project' : 'user'}`)}
              </span>
            </h3>
            <p className="muted small-text">
              {t('pending.target')} <code>{h.target}</code>
            </p>
            <AuditFindings findings={h.findings} permissions={h.permissions} contentHash={h.contentHash}>
              {h.diff && (
                <>
                  <h3>{t('install.diff')}</h3>
                  <DiffLines diff={h.diff} />
                </>
              )}
            </AuditFindings>
            {r ? (
              <p role="status" className={r.status === 'installed' ? 'ok' : 'muted'}>
                {h.gone && r.status === 'rejected' ? t('pending.dismissed') : t(`sources.status.${r.status}`)}{' '}
                {r.status !== 'installed' && r.status !== 'rejected' && (
                  <SaidText words={r.words} fallback={r.reason} />
                )}
              </p>
            ) : h.gone ? (
              // What it would install is gone: nothing to approve, only the record to dismiss.
              <div className="notice warning" role="group" aria-label={t('pending.goneLabel', { name: h.skill })}>
                <p>{t('pending.gone', { source: h.source })}</p>
                <div className="actions">
                  <button type="button" disabled={busy} onClick={() => void decide(h, false)}>
                    {t('pending.dismiss', { name: h.skill })}
                  </button>
                </div>
              </div>
            ) : (
              <div className="actions">
                <button type="button" className="primary" disabled={busy} onClick={() => void decide(h, true)}>
                  {t('sources.approveOne', { name: h.skill })}
                </button>
                <button type="button" className="danger" disabled={busy} onClick={() => void decide(h, false)}>
                  {t('sources.rejectOne', { name: h.skill })}
                </button>
              </div>
            )}
          </section>
        );
      })}
      <ErrorLine error={error} />
      <DialogFooter onClose={close} />
    </Modal>
  );
}
