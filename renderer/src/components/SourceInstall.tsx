// The Install dialog's "From a repository or marketplace" tab: a git URL, owner/repo or marketplace → fetched with a
// progress line → its skills with their audit level, picked by the user → Review → Approve. P1 skills then wait for
// their own Approve or Reject with the findings shown; a name already installed offers Update or keep. Browse searches the
// configured marketplaces and fills the source in.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useClient } from '../api/context';
import { failure, type Shown } from '../i18n/ErrorText';
import type { InstallOutcome, MarketHit, OpenedSource, Said } from '../../../preload/contract';
import { skillOf, withReport } from '../state/install';
import { useView } from '../state/store';
import { useSay } from '../i18n/say';
import { SaidText } from '../i18n/SaidText';
import { AuditFindings } from './Findings';
import { LevelBadge, LevelLegend } from './Levels';
import { DialogFooter, ErrorLine } from './DialogFooter';

const STAGES = ['fetching', 'checking-out', 'reading', 'auditing'];

export function SourceInstall({
  onClose,
  initial,
}: {
  onClose(): void;
  /** Fetched as the tab opens (an install the assistant proposed), with `pick` ticked. */
  initial?: { source: string; want: string[]; pick?: string };
}) {
  const { t } = useTranslation();
  const client = useClient();
  const [source, setSource] = useState('');
  const [scope, setScope] = useState<'user' | 'project'>('project');
  const [opened, setOpened] = useState<OpenedSource>();
  const [picked, setPicked] = useState<string[]>([]);
  const [reviewing, setReviewing] = useState(false);
  const [results, setResults] = useState<InstallOutcome[]>();
  const [progress, setProgress] = useState<{ stage: string; detail: string; words?: Said }>();
  const [error, setError] = useState<Shown>();
  /** A marketplace search that failed: said under its own form, not the fetch's. */
  const [browseError, setBrowseError] = useState<Shown>();
  const [busy, setBusy] = useState(false);
  const [query, setQuery] = useState('');
  const [hits, setHits] = useState<MarketHit[]>();
  const openId = useRef<string>(undefined);

  const say = useSay();
  useEffect(() => client.on('sources.progress', (p) => setProgress(p)), [client]);
  // The stage in the window's language; git outside the sandbox says why, as words; an unknown stage as it came.
  const progressText = !progress
    ? undefined
    : progress.words
      ? say(progress.words, progress.detail)
      : STAGES.includes(progress.stage)
        ? t(`sources.stage.${progress.stage}`, { detail: progress.detail })
        : `${progress.stage} ${progress.detail}`;
  // The fetched copy is temporary: dropped when the dialog closes.
  useEffect(
    () => () => {
      if (openId.current) void client.call('sources.close', { openId: openId.current });
    },
    [client],
  );

  // Once, as the tab opens.
  const first = useRef(initial);
  useEffect(() => {
    const i = first.current;
    if (!i) return;
    first.current = undefined;
    setSource(i.source);
    void fetchSource(undefined, i.want, i.source, i.pick);
  }, []);

  const refreshCatalog = () => useView.getState().set({ catalogTick: useView.getState().catalogTick + 1 });

  async function fetchSource(e?: FormEvent, want?: string[], from = source, pick?: string) {
    e?.preventDefault();
    if (!from.trim()) {
      setError(t('sources.needSource'));
      return;
    }
    setBusy(true);
    setError(undefined);
    setProgress(undefined);
    try {
      const o = await client.call('sources.open', { source: from.trim(), ...(want?.length ? { want } : {}) });
      if (openId.current) void client.call('sources.close', { openId: openId.current });
      openId.current = o.openId;
      setOpened(o);
      const wanted = o.skills.find((s) => s.name === pick && !s.problem && s.level !== 'P0');
      setPicked(wanted ? [wanted.name] : o.skills.length === 1 && !o.skills[0]!.problem ? [o.skills[0]!.name] : []);
      setResults(undefined);
      setReviewing(false);
    } catch (err) {
      setError(failure(err));
    } finally {
      setBusy(false);
      setProgress(undefined);
    }
  }

  async function install(names: string[], replace = false) {
    if (!opened) return;
    setBusy(true);
    setError(undefined);
    try {
      const { results: r } = await client.call('sources.install', {
        openId: opened.openId,
        skills: names,
        tier: scope,
        ...(replace ? { replace } : {}),
      });
      setResults((prev) => [...(prev ?? []).filter((x) => !names.includes(skillOf(x))), ...r]);
      if (r.some((x) => x.status === 'installed')) refreshCatalog();
    } catch (err) {
      setError(failure(err));
    } finally {
      setBusy(false);
    }
  }

  async function approve(r: InstallOutcome) {
    if (!r.approvalId || !r.report) return;
    setBusy(true);
    try {
      const done = withReport(
        await client.call('skills.approveInstall', { approvalId: r.approvalId, contentHash: r.report.contentHash }),
      );
      setResults((prev) => prev?.map((x) => (x === r ? done : x)));
      if (done.status === 'installed') refreshCatalog();
    } catch (err) {
      setError(failure(err));
    } finally {
      setBusy(false);
    }
  }

  /** A held skill the user turns down: its approval is rejected and its staged copy dropped; nothing is installed. */
  async function reject(r: InstallOutcome) {
    if (!r.approvalId) return;
    setBusy(true);
    try {
      await client.call('skills.rejectInstall', { approvalId: r.approvalId });
      setResults((prev) =>
        prev?.map((x) => (x === r ? { ...r, status: 'rejected', reason: t('install.rejected') } : x)),
      );
    } catch (err) {
      setError(failure(err));
    } finally {
      setBusy(false);
    }
  }

  async function browse(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setBrowseError(undefined);
    try {
      setHits((await client.call('sources.browse', { query })).hits);
    } catch (err) {
      setBrowseError(failure(err));
    } finally {
      setBusy(false);
    }
  }

  const toggle = (name: string) => setPicked((p) => (p.includes(name) ? p.filter((x) => x !== name) : [...p, name]));
  const chosen = opened?.skills.filter((s) => picked.includes(s.name)) ?? [];

  return (
    <div className="source-install">
      {!opened && (
        <>
          <form onSubmit={(e) => void fetchSource(e)} className="install-form">
            <p className="muted">{t('sources.intro')}</p>
            <label htmlFor="source-url">{t('sources.source')}</label>
            <input
              id="source-url"
              value={source}
              onChange={(e) => setSource(e.target.value)}
              placeholder="https://github.com/owner/repo.git#main:skills  ·  owner/repo"
              spellCheck={false}
            />
            {/* Why the fetch failed, under the field it is about (the marketplace search follows). */}
            <ErrorLine error={error} />
            <DialogFooter onClose={onClose} cancel>
              <button type="submit" className="primary" disabled={busy}>
                {busy ? t('sources.fetching') : t('sources.fetch')}
              </button>
            </DialogFooter>
          </form>
          <form onSubmit={(e) => void browse(e)} className="install-form">
            <label htmlFor="source-browse">{t('sources.browse')}</label>
            <input id="source-browse" type="search" value={query} onChange={(e) => setQuery(e.target.value)} />
            <button type="submit" disabled={busy}>
              {t('sources.search')}
            </button>
            <ErrorLine error={browseError} />
            {hits && hits.length === 0 && <p className="muted">{t('sources.noHits')}</p>}
            {hits && hits.length > 0 && (
              <ul className="plain" aria-label={t('sources.browse')}>
                {hits.map((h) => (
                  <li key={`${h.marketplace} ${h.plugin} ${h.skill ?? ''}`}>
                    {h.level && <LevelBadge level={h.level} />} <strong>{h.skill ?? h.plugin}</strong>{' '}
                    <span className="muted">
                      {h.marketplaceName}/{h.plugin}: {h.description}
                    </span>{' '}
                    <button
                      type="button"
                      className="small"
                      onClick={() => {
                        setSource(h.marketplace);
                        void fetchSource(undefined, [h.plugin], h.marketplace);
                      }}
                    >
                      {t('sources.open')}
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </form>
        </>
      )}
      {busy && progressText && (
        <p role="status" className="muted">
          {progressText}
        </p>
      )}
      {opened && !reviewing && (
        <div className="source-pick">
          <p>
            <strong>{opened.display}</strong> — {t('sources.holds', { count: opened.skills.length })}
          </p>
          <LevelLegend />
          <ul className="plain" aria-label={t('sources.skills')}>
            {opened.skills.map((s) => (
              <li key={`${s.plugin ?? ''}/${s.name}`}>
                <label>
                  <input
                    type="checkbox"
                    checked={picked.includes(s.name)}
                    disabled={!!s.problem || s.level === 'P0'}
                    onChange={() => toggle(s.name)}
                  />{' '}
                  <LevelBadge level={s.level} /> <strong>{s.name}</strong>
                  {s.plugin && <span className="muted"> [{s.plugin}]</span>} — {s.description}
                </label>
                {s.problem && (
                  <p className="error small-text">
                    <SaidText words={s.problemWords} fallback={s.problem} />
                  </p>
                )}
              </li>
            ))}
          </ul>
          {opened.plugins.some((p) => !p.fetched) && (
            <>
              <h3>{t('sources.otherPlugins')}</h3>
              <ul className="plain">
                {opened.plugins
                  .filter((p) => !p.fetched)
                  .map((p) => (
                    <li key={p.name}>
                      <strong>{p.name}</strong> <span className="muted">({p.from})</span> — {p.description}{' '}
                      <button
                        type="button"
                        className="small"
                        disabled={busy}
                        onClick={() => void fetchSource(undefined, [p.name], opened.display)}
                      >
                        {t('sources.fetchPlugin')}
                      </button>
                    </li>
                  ))}
              </ul>
            </>
          )}
          <label htmlFor="source-scope">{t('install.scope')}</label>
          <select id="source-scope" value={scope} onChange={(e) => setScope(e.target.value as 'user' | 'project')}>
            <option value="project">{t('tier.project')}</option>
            <option value="user">{t('tier.user')}</option>
          </select>
          <DialogFooter onClose={onClose} cancel>
            <button type="button" className="primary" disabled={picked.length === 0} onClick={() => setReviewing(true)}>
              {t('sources.review', { count: picked.length })}
            </button>
          </DialogFooter>
        </div>
      )}
      {opened && reviewing && !results && (
        <div className="report">
          <h3>{t('sources.reviewTitle')}</h3>
          <ul className="plain" aria-label={t('sources.reviewTitle')}>
            {chosen.map((s) => (
              <li key={s.name}>
                <LevelBadge level={s.level} /> <strong>{s.name}</strong> — {s.description}{' '}
                <span className="muted small-text">
                  {t('sources.findingCount', { count: s.findings })} · {t('install.hash')}{' '}
                  <code>{s.contentHash.slice(0, 16)}</code>
                </span>
              </li>
            ))}
          </ul>
          <p className="muted">{t('sources.from', { source: opened.display })}</p>
          <div className="actions">
            <button
              type="button"
              className="primary"
              disabled={busy}
              onClick={() => void install(chosen.map((s) => s.name))}
            >
              {t('install.approve')}
            </button>
            <button type="button" onClick={() => setReviewing(false)}>
              {t('common.back')}
            </button>
          </div>
        </div>
      )}
      {results && (
        <div className="report">
          {results.map((r) => (
            <div key={skillOf(r)} className="source-result">
              <p className="report-head">
                {r.report && <LevelBadge level={r.report.level} />} <strong>{skillOf(r)}</strong>{' '}
                <span role="status">{t(`sources.status.${r.status}`)}</span>
              </p>
              {r.reason && r.status !== 'installed' && (
                <p className="muted">
                  {r.status === 'rejected' ? r.reason : <SaidText words={r.words} fallback={r.reason} />}
                </p>
              )}
              {r.status === 'pending' && r.report && (
                <>
                  <AuditFindings
                    findings={r.report.findings}
                    permissions={r.report.permissions}
                    contentHash={r.report.contentHash}
                  />
                  <div className="actions">
                    <button type="button" className="primary" disabled={busy} onClick={() => void approve(r)}>
                      {t('sources.approveOne', { name: skillOf(r) })}
                    </button>
                    <button type="button" className="danger" disabled={busy} onClick={() => void reject(r)}>
                      {t('sources.rejectOne', { name: skillOf(r) })}
                    </button>
                  </div>
                </>
              )}
              {r.status === 'exists' && (
                <button type="button" disabled={busy} onClick={() => void install([skillOf(r)], true)}>
                  {t('install.update')}
                </button>
              )}
            </div>
          ))}
          <DialogFooter onClose={onClose} />
        </div>
      )}
      {opened && <ErrorLine error={error} />}
    </div>
  );
}
