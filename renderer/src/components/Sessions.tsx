// Past conversations of this workspace: reopen one into the chat, or export it as Markdown.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText, useClient } from '../api/context';
import type { SessionSummary } from '../api/types';
import { useView } from '../state/store';

export function Sessions() {
  const { t } = useTranslation();
  const client = useClient();
  const ws = useView((s) => s.workspace?.path ?? '');
  const [list, setList] = useState<SessionSummary[]>();
  const [error, setError] = useState<string>();

  useEffect(() => {
    client.listSessions(ws).then(setList, (e) => setError(errorText(e)));
  }, [client, ws]);

  async function open(id: string) {
    try {
      const { messages, running } = await client.openSession(id);
      useView.getState().showSession(id, messages, running);
    } catch (e) {
      setError(errorText(e));
    }
  }

  async function exportIt(s: SessionSummary) {
    try {
      const file = await client.exportSession(s.id);
      const url = URL.createObjectURL(new Blob([file.content], { type: file.mime }));
      const a = document.createElement('a');
      a.href = url;
      a.download = file.filename;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } catch (e) {
      setError(errorText(e));
    }
  }

  return (
    <section className="page" aria-label={t('sessions.title')}>
      <h2>{t('sessions.title')}</h2>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {!list && !error && <p className="muted">{t('common.loading')}</p>}
      {list && list.length === 0 && <p className="muted">{t('sessions.empty')}</p>}
      {list && list.length > 0 && (
        <ul className="plain sessions">
          {list.map((s) => (
            <li key={s.id}>
              <div>
                <strong>{s.title || t('sessions.untitled')}</strong>{' '}
                {s.waiting ? (
                  <span className="badge warn">{t('sessions.waiting')}</span>
                ) : (
                  s.running && <span className="badge">{t('sessions.running')}</span>
                )}{' '}
                <span className="muted small-text">
                  {new Date(s.updatedAt).toLocaleString()} · {t('sessions.messages', { count: s.messages })}
                </span>
              </div>
              <div className="actions">
                <button
                  type="button"
                  className="small"
                  onClick={() => void open(s.id)}
                  aria-label={t('sessions.openOne', { title: s.title })}
                >
                  {t('sessions.open')}
                </button>
                <button
                  type="button"
                  className="small"
                  onClick={() => void exportIt(s)}
                  aria-label={t('sessions.exportOne', { title: s.title })}
                >
                  {t('sessions.export')}
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
