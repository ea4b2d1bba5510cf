// Install a skill: pick a folder or .zip (native dialog in Electron; a path field, a file field or a dropped .zip in
// serve mode, sent as bytes) → the audit report (level, findings with file:line and the line, permissions, update diff) → Approve / Reject.
// P0 shows why and offers no Approve; approval is bound to the audited content hash.
import { useEffect, useRef, useState, type DragEvent, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { SaidText } from '../i18n/SaidText';
import { useClient } from '../api/context';
import { failure, type Shown } from '../i18n/ErrorText';
import type { InstallOutcome } from '../../../preload/contract';
import { withReport, zipUpload } from '../state/install';
import { useView } from '../state/store';
import { AuditFindings, DiffLines } from './Findings';
import { LevelBadge } from './Levels';
import { Modal } from './Modal';
import { SourceInstall } from './SourceInstall';
import { DialogFooter, ErrorLine } from './DialogFooter';

export function InstallDialog() {
  const { t } = useTranslation();
  const client = useClient();
  const set = useView((s) => s.set);
  const [source, setSource] = useState('');
  const [scope, setScope] = useState<'user' | 'project'>('project');
  const [result, setResult] = useState<ReturnType<typeof withReport>>();
  const report = result?.report;
  const [outcome, setOutcome] = useState<string>();
  const [error, setError] = useState<Shown>();
  const [busy, setBusy] = useState(false);
  const installSource = useView((s) => s.installSource);
  const close = () => set({ installOpen: false, installFile: undefined, installSource: undefined });
  const [dragging, setDragging] = useState(false);
  const started = useRef(false);
  const lastZip = useRef<File>(undefined);
  const [tab, setTab] = useState<'local' | 'source'>(installSource ? 'source' : 'local');

  async function run(f: () => Promise<InstallOutcome>) {
    setBusy(true);
    setError(undefined);
    try {
      const r = withReport(await f());
      setResult(r);
      if (r.status === 'installed') {
        setOutcome(t('install.installed', { name: r.skill ?? r.report.skill }));
        useView.getState().set({ catalogTick: useView.getState().catalogTick + 1 });
      }
    } catch (e) {
      setError(failure(e));
    } finally {
      setBusy(false);
    }
  }

  /** A .zip from a drop or the file field: read here, sent as bytes, audited by main like a path. */
  function uploadZip(file: File) {
    if (!/\.zip$/i.test(file.name)) {
      setError(t('install.notZip', { name: file.name }));
      return;
    }
    setSource(file.name);
    lastZip.current = file;
    void run(async () =>
      client.call('skills.installUpload', zipUpload(file.name, new Uint8Array(await file.arrayBuffer()), scope)),
    );
  }

  // A .zip dropped on the window opened this dialog: audit it right away (once).
  const dropped = useView((s) => s.installFile);
  useEffect(() => {
    if (dropped && !started.current) {
      started.current = true;
      set({ installFile: undefined });
      uploadZip(dropped);
    }
  });

  function onDrop(e: DragEvent) {
    e.preventDefault();
    e.stopPropagation();
    setDragging(false);
    const file = e.dataTransfer.files[0];
    if (file) uploadZip(file);
  }

  function audit(e?: FormEvent) {
    e?.preventDefault();
    if (!source.trim()) {
      setError(t('install.needSource'));
      return;
    }
    void run(() => client.call('skills.install', { source: source.trim(), tier: scope }));
  }

  async function pick(kind: 'folder' | 'zip') {
    const { path: p } = await client.call('dialog.pickSkillSource', { kind });
    if (p) {
      setSource(p);
      void run(() => client.call('skills.install', { source: p, tier: scope }));
    }
  }

  async function update() {
    const zip = lastZip.current;
    if (zip)
      await run(async () =>
        client.call('skills.installUpload', zipUpload(zip.name, new Uint8Array(await zip.arrayBuffer()), scope, true)),
      );
    else await run(() => client.call('skills.install', { source: source.trim(), tier: scope, replace: true }));
  }

  async function approve() {
    const approvalId = result?.approvalId;
    if (!approvalId || !report) return;
    await run(() => client.call('skills.approveInstall', { approvalId, contentHash: report.contentHash }));
  }

  async function reject() {
    if (result?.approvalId) {
      try {
        await client.call('skills.rejectInstall', { approvalId: result.approvalId });
      } catch (e) {
        setError(failure(e));
        return;
      }
    }
    setOutcome(t('install.rejected'));
  }

  return (
    <Modal title={t('install.title')} onClose={close} wide>
      {!report && (
        <div className="tabs" role="tablist">
          <button type="button" role="tab" aria-selected={tab === 'local'} onClick={() => setTab('local')}>
            {t('sources.tabLocal')}
          </button>
          <button type="button" role="tab" aria-selected={tab === 'source'} onClick={() => setTab('source')}>
            {t('sources.tabSource')}
          </button>
        </div>
      )}
      {!report && tab === 'source' && (
        <SourceInstall onClose={close} {...(installSource ? { initial: installSource } : {})} />
      )}
      {!report && tab === 'local' && (
        <form onSubmit={audit} className="install-form">
          <p className="muted">{t('install.intro')}</p>
          {client.nativeDialogs && (
            <div className="actions">
              <button type="button" onClick={() => void pick('folder')}>
                {t('install.chooseFolder')}
              </button>
              <button type="button" onClick={() => void pick('zip')}>
                {t('install.chooseZip')}
              </button>
            </div>
          )}
          <label htmlFor="install-source">{t('install.source')}</label>
          <input
            id="install-source"
            value={source}
            onChange={(e) => setSource(e.target.value)}
            placeholder="/path/to/skill or skill.zip"
            spellCheck={false}
          />
          <label htmlFor="install-scope">{t('install.scope')}</label>
          <select id="install-scope" value={scope} onChange={(e) => setScope(e.target.value as 'user' | 'project')}>
            <option value="project">{t('tier.project')}</option>
            <option value="user">{t('tier.user')}</option>
          </select>
          <div
            className={`dropzone${dragging ? ' over' : ''}`}
            onDragOver={(e) => {
              e.preventDefault();
              setDragging(true);
            }}
            onDragLeave={() => setDragging(false)}
            onDrop={onDrop}
          >
            <p>{t('install.drop')}</p>
            <label htmlFor="install-zip" className="small-text">
              {t('install.dropHint')}
            </label>{' '}
            <input
              id="install-zip"
              type="file"
              accept=".zip,application/zip"
              aria-label={t('install.zipFile')}
              onChange={(e) => {
                const f = e.target.files?.[0];
                if (f) uploadZip(f);
                e.target.value = '';
              }}
            />
          </div>
          <DialogFooter onClose={close} cancel>
            <button type="submit" className="primary" disabled={busy}>
              {busy ? t('install.auditing') : t('install.audit')}
            </button>
          </DialogFooter>
        </form>
      )}
      {result && report && (
        <div className="report">
          <p className="report-head">
            <LevelBadge level={report.level} big /> <strong>{report.skill}</strong>
          </p>
          {result.status === 'refused' && (
            <p role="alert" className="error">
              {t('install.refused')} <SaidText words={result.words} fallback={result.reason} />
            </p>
          )}
          {result.status === 'exists' && <p className="muted">{t('install.exists', { name: report.skill })}</p>}
          <AuditFindings findings={report.findings} permissions={report.permissions} contentHash={report.contentHash}>
            {report.diff && (
              <>
                <h3>{t('install.diff')}</h3>
                <DiffLines diff={report.diff} />
              </>
            )}
          </AuditFindings>
          {outcome && (
            <p role="status" className="ok">
              {outcome}
            </p>
          )}
          <DialogFooter onClose={close}>
            {!outcome && result.status === 'pending' && report.level !== 'P0' && (
              <button type="button" className="primary" onClick={() => void approve()} disabled={busy}>
                {t('install.approve')}
              </button>
            )}
            {!outcome && result.status === 'exists' && report.level !== 'P0' && (
              <button type="button" className="primary" onClick={() => void update()} disabled={busy}>
                {t('install.update')}
              </button>
            )}
            {!outcome && (result.status === 'pending' || result.status === 'exists') && (
              <button type="button" className="danger" onClick={() => void reject()}>
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
