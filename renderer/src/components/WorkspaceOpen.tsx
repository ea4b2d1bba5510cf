// The first screen: open a workspace folder (native dialog in Electron, a path field in serve mode) or a recent one.
// On success the store holds the workspace and the window title names the folder. Shown over an open workspace (the
// header's workspace button), it goes back to it as it was: Back, Escape, or opening the same folder again.
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useClient } from '../api/context';
import { ErrorText, failure, type Failure, type Shown } from '../i18n/ErrorText';
import { useView } from '../state/store';
import { ErrorLine } from './DialogFooter';

/** `inSetup`: the folder step of the setup flow (its page and heading are the flow's). */
export function WorkspaceOpen({ inSetup = false }: { inSetup?: boolean } = {}) {
  const { t } = useTranslation();
  const client = useClient();
  const setWorkspace = useView((s) => s.setWorkspace);
  const current = useView((s) => s.workspace);
  const [path, setPath] = useState('');
  /** The recent folders; undefined while they are asked for (nothing is said yet), or why they could not be read. */
  const [recent, setRecent] = useState<string[] | { failed: Failure }>();
  const [error, setError] = useState<Shown>();
  const [busy, setBusy] = useState(false);
  /** Back to the open workspace, focus on the header button that opened the picker. */
  const back = () => {
    useView.getState().set({ picking: false });
    setTimeout(() => document.querySelector<HTMLElement>('.ws-name')?.focus(), 0);
  };

  useEffect(() => {
    // While a folder opens, the picker stays: its result (or its error) is shown here.
    if (!current || busy) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') back();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [current, busy]);

  useEffect(() => {
    client.call('workspace.recent', {}).then(
      (r) => setRecent(r.items.filter((i) => i.exists).map((i) => i.path)),
      (e: unknown) => setRecent({ failed: failure(e, 'workspace.recentFailed') }),
    );
  }, [client]);

  async function open(p: string, reload = false) {
    if (!p.trim()) {
      setError(t('workspace.empty'));
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      const opened = await client.call('workspace.open', { path: p.trim(), ...(reload ? { reload } : {}) });
      // The folder already open: its conversations and the one on screen go on as they were (unless reloaded).
      if (!reload && opened.path === useView.getState().workspace?.path) back();
      else setWorkspace(opened);
    } catch (e) {
      setError(failure(e));
    } finally {
      setBusy(false);
    }
  }

  async function choose() {
    const { path: p } = await client.call('dialog.pickWorkspace', {});
    if (p) await open(p);
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    void open(path);
  }

  const body = (
    <>
      <p className="muted">{t('workspace.intro')}</p>
      {current && (
        <div className="row">
          <button type="button" onClick={back} disabled={busy}>
            {t('workspace.back', { name: current.name })}
          </button>
          <button
            type="button"
            onClick={() => void open(current.path, true)}
            disabled={busy}
            title={t('workspace.reloadHint')}
          >
            {t('workspace.reload', { name: current.name })}
          </button>
        </div>
      )}
      {client.nativeDialogs && (
        <button type="button" className="primary" onClick={() => void choose()} disabled={busy}>
          {t('workspace.choose')}
        </button>
      )}
      <form onSubmit={submit} className="row">
        <label htmlFor="ws-path">{t('workspace.path')}</label>
        <input
          id="ws-path"
          value={path}
          onChange={(e) => setPath(e.target.value)}
          placeholder="/home/me/project"
          autoFocus
          spellCheck={false}
        />
        <button type="submit" className="primary" disabled={busy}>
          {t('workspace.open')}
        </button>
      </form>
      <ErrorLine error={error} />
      <section aria-labelledby="recent-h">
        <h2 id="recent-h">{t('workspace.recent')}</h2>
        {recent === undefined ? null : 'failed' in recent ? (
          <p role="alert">
            <ErrorText error={recent.failed} />
          </p>
        ) : recent.length === 0 ? (
          <p className="muted">{t('workspace.noRecent')}</p>
        ) : (
          <ul className="plain">
            {recent.map((r) => (
              <li key={r}>
                <button type="button" className="link" onClick={() => void open(r)}>
                  {r}
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
  if (inSetup) return <div className="setup-folder">{body}</div>;
  return (
    <main className="welcome">
      <h1>{t('app.name')}</h1>
      {body}
    </main>
  );
}
