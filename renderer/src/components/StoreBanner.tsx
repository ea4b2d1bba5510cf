// The banner over every view while the database is not sound: each damaged file set aside, with its path, and a
// button that acknowledges exactly those (the files stay where they are); or why the database cannot be opened.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useClient } from '../api/context';
import { ErrorText, failure, type Shown } from '../i18n/ErrorText';
import type { WorkspaceInfo } from '../../../preload/contract';
import { useView } from '../state/store';
import { SaidText, Sentence } from '../i18n/SaidText';

export function StoreBanner({ store }: { store: NonNullable<WorkspaceInfo['store']> }) {
  const { t } = useTranslation();
  const client = useClient();
  const set = useView((s) => s.set);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Shown>();

  async function acknowledge() {
    setBusy(true);
    setError(undefined);
    try {
      const movedTo = store.damaged.map((d) => d.movedTo);
      set({ workspace: (await client.call('store.acknowledge', { movedTo })).workspace });
    } catch (e) {
      setError(failure(e, 'workspace.storeAcknowledgeFailed'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div role="alert" className="store-banner error">
      {store.damaged.map((d) => (
        <DamagedLine key={d.movedTo} d={d} />
      ))}
      {store.problem && (
        <p>
          <Sentence k="workspace.storeProblem" slot="problem">
            <SaidText words={store.problemWords} fallback={store.problem} />
          </Sentence>
        </p>
      )}
      {store.damaged.length > 0 && (
        <button type="button" onClick={() => void acknowledge()} disabled={busy}>
          {busy ? t('workspace.storeAcknowledging') : t('workspace.storeAcknowledge')}
        </button>
      )}
      {error && (
        <p>
          <ErrorText error={error} />
        </p>
      )}
    </div>
  );
}

/** One damaged file: the sentence in the window's language, its reason as words (SQLite's own message in code). */
function DamagedLine({ d }: { d: NonNullable<WorkspaceInfo['store']>['damaged'][number] }) {
  return (
    <p>
      <Sentence k="workspace.storeDamaged" slot="reason" params={{ path: d.movedTo }}>
        <SaidText words={d.words} fallback={d.reason} />
      </Sentence>
    </p>
  );
}
