// The sidebar's Updates badge: skills installed from a source that have a newer version there, and the checks that
// failed (a source gone, a ref gone): never dropped silently. Its dialog shows, for each update, the files changed and
// the permission diff (Update installs a clean one, a widening waits for Approve), and each failed check's reason.
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SaidText } from '../i18n/SaidText';
import { useClient } from '../api/context';
import { failure, type Failure, type Shown } from '../i18n/ErrorText';
import type { InstallOutcome, SkillUpdate } from '../../../preload/contract';
import { withReport } from '../state/install';
import { useView } from '../state/store';
import { DiffLines, Findings } from './Findings';
import { LevelBadge, LevelLegend } from './Levels';
import { Modal } from './Modal';
import { ErrorLine } from './DialogFooter';

/** How often the sources are asked again while the window is open (as editors check their extensions periodically). */
const RECHECK_MS = 12 * 60 * 60 * 1000;

export function UpdatesBadge() {
  const { t } = useTranslation();
  const client = useClient();
  const ws = useView((s) => s.workspace?.path ?? '');
  const catalogTick = useView((s) => s.catalogTick);
  const [items, setItems] = useState<SkillUpdate[]>([]);
  /** The whole check failed (a skills.lock.json that does not parse): said next to the button, never dropped. */
  const [failed, setFailed] = useState<Failure>();
  const [open, setOpen] = useState(false);
  /** `asked`: the user pressed Check for updates (the project's sources on this computer are asked only then). */
  const check = useCallback(
    async (refresh?: boolean, asked?: boolean) => {
      try {
        const params = { ...(refresh ? { refresh: true } : {}), ...(asked ? { asked: true } : {}) };
        setItems((await client.call('sources.updates', params)).items);
        setFailed(undefined);
      } catch (e) {
        setItems([]);
        setFailed(failure(e, 'updates.checkFailed'));
      }
    },
    [client],
  );
  // A catalog change asks main, which fetches only when a lock changed; the sources themselves are asked again on
  // Check for updates and every RECHECK_MS, as editors check their extensions.
  useEffect(() => {
    void check();
  }, [check, ws, catalogTick]);
  useEffect(() => {
    const timer = setInterval(() => void check(true), RECHECK_MS);
    return () => clearInterval(timer);
  }, [check]);
  const shown = items.filter((i) => i.status === 'available' || i.status === 'error');
  const available = shown.filter((i) => i.status === 'available').length;
  const errors = shown.length - available;
  const label = [
    ...(available ? [t('updates.badge', { count: available })] : []),
    ...(errors ? [t('updates.failed', { count: errors })] : []),
  ].join(t('updates.and'));
  return (
    <>
      <button type="button" className="link" onClick={() => void check(true, true)} title={t('updates.check')}>
        {t('updates.check')}
      </button>
      {shown.length > 0 && (
        <button
          type="button"
          className={errors ? 'badge updates-badge error' : 'badge updates-badge'}
          onClick={() => setOpen(true)}
        >
          {label}
        </button>
      )}
      <ErrorLine error={failed} />
      {open && <UpdatesDialog items={shown} onClose={() => setOpen(false)} />}
    </>
  );
}

/** A check that failed: the skill and why, in the window's language. */
function FailedCheck({ u }: { u: SkillUpdate }) {
  const { t } = useTranslation();
  return (
    <section className="update-item" aria-label={u.name}>
      <h3>
        {u.name} <span className="muted small-text">{t(`tier.${u.tier}`)}</span>
      </h3>
      <p role="alert" className="error">
        <SaidText words={u.words} fallback={u.reason} />
      </p>
    </section>
  );
}

function UpdatesDialog({ items, onClose }: { items: SkillUpdate[]; onClose(): void }) {
  const { t } = useTranslation();
  const client = useClient();
  const [results, setResults] = useState<Record<string, InstallOutcome>>({});
  const [error, setError] = useState<Shown>();
  const [busy, setBusy] = useState(false);
  const done = () => useView.getState().set({ catalogTick: useView.getState().catalogTick + 1 });

  async function apply(u: SkillUpdate) {
    if (!u.contentHash) return;
    setBusy(true);
    setError(undefined);
    try {
      const r = await client.call('sources.applyUpdate', { name: u.name, tier: u.tier, contentHash: u.contentHash });
      setResults((p) => ({ ...p, [u.name]: r }));
    } catch (e) {
      setError(failure(e));
    } finally {
      setBusy(false);
    }
  }

  async function approve(name: string, r: InstallOutcome) {
    if (!r.approvalId || !r.report) return;
    setBusy(true);
    try {
      const x = withReport(
        await client.call('skills.approveInstall', { approvalId: r.approvalId, contentHash: r.report.contentHash }),
      );
      setResults((p) => ({ ...p, [name]: x }));
    } catch (e) {
      setError(failure(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal
      title={t('updates.title')}
      onClose={() => {
        if (Object.values(results).some((r) => r.status === 'installed')) done();
        onClose();
      }}
      wide
    >
      {items.some((u) => u.level) && <LevelLegend />}
      {items.map((u) => {
        if (u.status === 'error') return <FailedCheck key={`${u.tier}/${u.name}`} u={u} />;
        const r = results[u.name];
        return (
          <section key={`${u.tier}/${u.name}`} className="update-item" aria-label={u.name}>
            <h3>
              {u.level && <LevelBadge level={u.level} />} {u.name}{' '}
              <span className="muted small-text">
                {u.from.slice(0, 12)} → {u.to?.slice(0, 12)}
              </span>
            </h3>
            {u.files && (
              <ul className="plain small-text">
                {u.files.added.map((f) => (
                  <li key={`+${f}`}>+ {f}</li>
                ))}
                {u.files.changed.map((f) => (
                  <li key={`~${f}`}>~ {f}</li>
                ))}
                {u.files.removed.map((f) => (
                  <li key={`-${f}`}>- {f}</li>
                ))}
              </ul>
            )}
            <h4>{t('install.diff')}</h4>
            <DiffLines diff={u.diff} label={t('install.diff')} />
            {!r && (
              <button type="button" className="primary" disabled={busy} onClick={() => void apply(u)}>
                {t('updates.update')}
              </button>
            )}
            {r && (
              <p role="status" className={r.status === 'installed' ? 'ok' : 'muted'}>
                {t(`sources.status.${r.status}`)}{' '}
                {r.status !== 'installed' && <SaidText words={r.words} fallback={r.reason} />}
              </p>
            )}
            {r?.status === 'pending' && (
              <>
                <Findings findings={r.report?.findings ?? []} />
                <button type="button" className="primary" disabled={busy} onClick={() => void approve(u.name, r)}>
                  {t('install.approve')}
                </button>
              </>
            )}
          </section>
        );
      })}
      <ErrorLine error={error} />
    </Modal>
  );
}
