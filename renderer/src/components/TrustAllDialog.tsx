// "Trust all…": the grouped summary of every pending P1 skill (what they ask for), then one confirmation.
// Nothing is trusted until the user confirms; the summary comes from the main process.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText, useClient } from '../api/context';
import type { TrustSummary } from '../api/types';
import { useView } from '../state/store';
import { Modal } from './Modal';

export function TrustAllDialog({ onClose }: { onClose(): void }) {
  const { t } = useTranslation();
  const client = useClient();
  const ws = useView((s) => s.workspace?.path ?? '');
  const [summary, setSummary] = useState<TrustSummary>();
  const [error, setError] = useState<string>();
  const [done, setDone] = useState<TrustSummary>();

  useEffect(() => {
    client.trustAllSummary(ws).then(setSummary, (e) => setError(errorText(e)));
  }, [client, ws]);

  async function confirm() {
    try {
      setDone(await client.trustAll(ws));
    } catch (e) {
      setError(errorText(e));
    }
  }

  return (
    <Modal title={t('trustAll.title')} onClose={onClose}>
      {error && <p role="alert" className="error">{error}</p>}
      {!summary && !error && <p className="muted">{t('common.loading')}</p>}
      {summary && done === undefined && (
        <>
          <p>{t('trustAll.intro', { count: summary.skills.length })}</p>
          <pre className="summary">{summary.summary}</pre>
          {summary.skills.length > 0 && <p className="small-text">{summary.skills.join(', ')}</p>}
          {summary.refused.length > 0 && (
            <>
              <h3>{t('trustAll.refused')}</h3>
              <ul>{summary.refused.map((r) => <li key={r.name}><strong>{r.name}</strong>: {r.reason}</li>)}</ul>
            </>
          )}
        </>
      )}
      {done !== undefined && <p role="status">{t('trustAll.done', { count: done.skills.length })}</p>}
      <div className="actions">
        {done === undefined && summary && summary.skills.length > 0 && (
          <button type="button" className="primary" onClick={() => void confirm()}>{t('trustAll.confirm', { count: summary.skills.length })}</button>
        )}
        <button type="button" onClick={onClose}>{done === undefined ? t('common.cancel') : t('common.close')}</button>
      </div>
    </Modal>
  );
}
