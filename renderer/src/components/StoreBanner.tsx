// The banner over every view while the database is not sound: each damaged file set aside, with its path, and a
// button that acknowledges exactly those (the files stay where they are); or why the database cannot be opened.
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useClient } from '../api/context';
import { ErrorText, failure, type Shown } from '../i18n/ErrorText';
import type { WorkspaceInfo } from '../../../preload/contract';
import { useView } from '../state/store';
import { SaidText } from '../i18n/SaidText';

/** Stands for the reason inside the banner's sentence until the reason's own element takes its place. */
const REASON = '\u2063';

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
          <Sentence
            text={t('workspace.storeProblem', { problem: REASON })}
            said={<SaidText words={store.problemWords} fallback={store.problem} />}
          />
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
  const { t } = useTranslation();
  return (
    <p>
      <Sentence
        text={t('workspace.storeDamaged', { path: d.movedTo, reason: REASON })}
        said={<SaidText words={d.words} fallback={d.reason} />}
      />
    </p>
  );
}

/** `text` with `said` in place of REASON. */
function Sentence({ text, said }: { text: string; said: ReactNode }) {
  const [before, after = ''] = text.split(REASON);
  return (
    <>
      {before}
      {said}
      {after}
    </>
  );
}
