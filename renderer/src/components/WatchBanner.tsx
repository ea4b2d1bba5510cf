// The banner while skill folders of the open workspace are not watched (no file watch left, a watch that ended): one
// line per kind of failure, with how many folders and one of them, and the Reload button that reads the skills again.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useClient } from '../api/context';
import { ErrorText, failure, type Shown } from '../i18n/ErrorText';
import type { WorkspaceInfo } from '../../../preload/contract';
import { useView } from '../state/store';
import { SaidText } from '../i18n/SaidText';

export function WatchBanner({ workspace }: { workspace: WorkspaceInfo }) {
  const { t } = useTranslation();
  const client = useClient();
  const set = useView((s) => s.set);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Shown>();
  const problems = workspace.diagnostics.filter((d) => d.code === 'catalog.watch');
  if (!problems.length) return null;

  async function reload() {
    setBusy(true);
    setError(undefined);
    try {
      set({ workspace: await client.call('workspace.open', { path: workspace.path, reload: true }) });
    } catch (e) {
      setError(failure(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div role="status" className="store-banner watch-banner warn">
      {problems.map((d) => (
        <p key={d.field ?? d.message}>
          <SaidText words={d.words} fallback={d.message} />
        </p>
      ))}
      <button type="button" onClick={() => void reload()} disabled={busy} title={t('workspace.reloadHint')}>
        {t('workspace.reload', { name: workspace.name })}
      </button>
      {error && (
        <p>
          <ErrorText error={error} />
        </p>
      )}
    </div>
  );
}
