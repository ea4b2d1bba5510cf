// Past conversations of this workspace: search them by their words, reopen one into the chat, rename it, export it as
// Markdown, or delete it (after a confirmation). What a search shows of a message is text, escaped, never markup.
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import i18n from 'i18next';
import { useTranslation } from 'react-i18next';
import { displaySafe, type SessionHit, type SessionMeta } from '../../../preload/contract';
import { useClient } from '../api/context';
import { ErrorText, failure, type Shown } from '../i18n/ErrorText';
import { useView } from '../state/store';
import { opened } from '../state/transcript';
import { Modal } from './Modal';
import { ErrorLine } from './DialogFooter';

/** How long typing pauses before the search runs (each keystroke would be a query otherwise). */
const SEARCH_PAUSE_MS = 250;

export function Sessions() {
  const { t } = useTranslation();
  const client = useClient();
  const ws = useView((s) => s.workspace?.path ?? '');
  /** The conversation on screen in the chat: deleting it starts a new one there. */
  const sessionId = useView((s) => s.sessionId);
  const [list, setList] = useState<SessionMeta[]>();
  const [error, setError] = useState<Shown>();
  const [query, setQuery] = useState('');
  /** The last search's results; undefined while the box is empty (the whole list shows). */
  const [hits, setHits] = useState<{ query: string; hits: SessionHit[] }>();
  const [renaming, setRenaming] = useState<{ id: string; draft: string; error?: Shown }>();
  const [confirm, setConfirm] = useState<SessionMeta>();
  const searchSeq = useRef(0);
  const page = useRef<HTMLElement>(null);
  /**
   * Where the focus goes once the list is laid out again (`data-refocus` of a control), as the control pressed is gone:
   * back to Rename after a rename, to the next row's Delete after a delete (the search box after the last).
   */
  const refocus = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (refocus.current === undefined) return;
    const to = page.current?.querySelector<HTMLElement>(`[data-refocus="${refocus.current}"]`);
    refocus.current = undefined;
    (to ?? page.current?.querySelector<HTMLElement>('input[type="search"]'))?.focus();
  });

  useEffect(() => {
    client.call('sessions.list', {}).then(
      (r) => setList(r.sessions),
      (e) => setError(failure(e)),
    );
  }, [client, ws]);

  useEffect(() => {
    const q = query.trim();
    const seq = ++searchSeq.current;
    if (!q) {
      setHits(undefined);
      return;
    }
    const timer = setTimeout(() => {
      client.call('sessions.search', { query: q }).then(
        ({ hits: found }) => {
          // Only the latest search's answer is shown (an earlier one may come back after it).
          if (seq === searchSeq.current) setHits({ query: q, hits: found });
        },
        (e) => {
          if (seq === searchSeq.current) setError(failure(e));
        },
      );
    }, SEARCH_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [client, ws, query]);

  /** A row changed (renamed) or went (deleted): the list and the search results both follow. */
  const patch = useCallback((id: string, next: SessionMeta | undefined) => {
    const keep = <T,>(rows: T[], of: (r: T) => SessionMeta, make: (r: T, s: SessionMeta) => T): T[] =>
      rows.flatMap((r) => (of(r).id !== id ? [r] : next ? [make(r, next)] : []));
    setList(
      (l) =>
        l &&
        keep(
          l,
          (r) => r,
          (_r, s) => s,
        ),
    );
    setHits(
      (h) =>
        h && {
          query: h.query,
          hits: keep(
            h.hits,
            (r) => r.session,
            (r, s) => ({ ...r, session: s }),
          ),
        },
    );
  }, []);

  /** Open a conversation; a search hit's `at` (its message or answer) opens it on the version holding the words. */
  async function open(id: string, at?: number) {
    try {
      const { messages, running } = opened(await client.call('sessions.open', at === undefined ? { id } : { id, at }));
      useView.getState().showSession(id, messages, running);
    } catch (e) {
      setError(failure(e));
    }
  }

  async function exportIt(s: SessionMeta) {
    try {
      const file = await client.call('sessions.export', { id: s.id, format: 'markdown' });
      const url = URL.createObjectURL(new Blob([file.content], { type: file.mime }));
      const a = document.createElement('a');
      a.href = url;
      a.download = file.filename;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } catch (e) {
      setError(failure(e));
    }
  }

  async function rename(e: FormEvent) {
    e.preventDefault();
    if (!renaming) return;
    if (!renaming.draft.trim()) {
      setRenaming({ ...renaming, error: t('sessionsFind.emptyTitle') });
      return;
    }
    try {
      const { session: s } = await client.call('sessions.rename', { id: renaming.id, title: renaming.draft });
      patch(s.id, s);
      stopRenaming();
    } catch (err) {
      setRenaming({ ...renaming, error: failure(err) });
    }
  }

  /** Leave the title as it is (or as just saved); Rename takes the focus back. */
  function stopRenaming() {
    if (renaming) refocus.current = `rename:${renaming.id}`;
    setRenaming(undefined);
  }

  async function remove(s: SessionMeta) {
    try {
      await client.call('sessions.delete', { id: s.id });
      const at = rows.findIndex((r) => r.s.id === s.id);
      const next = rows[at + 1] ?? rows[at - 1];
      refocus.current = next ? `delete:${next.s.id}` : 'search';
      setConfirm(undefined);
      patch(s.id, undefined);
      // The conversation on screen is gone: the chat starts afresh rather than writing into a deleted session, and says
      // so; the window stays on this list (more may be deleted).
      if (useView.getState().sessionId === s.id) {
        useView.getState().newChat();
        useView.getState().set({ view: 'sessions' });
        const title = s.title || i18n.t('sessions.untitled');
        useView.getState().notify({ kind: 'info', text: () => i18n.t('sessionsFind.deletedOpen', { title }) });
      }
    } catch (e) {
      setConfirm(undefined);
      setError(failure(e));
    }
  }

  const rows: { s: SessionMeta; hit?: SessionHit }[] = hits
    ? hits.hits.map((h) => ({ s: h.session, hit: h }))
    : (list ?? []).map((s) => ({ s }));
  const where = {
    title: t('sessionsFind.inTitle'),
    message: t('sessionsFind.inMessage'),
    answer: t('sessionsFind.inAnswer'),
  };

  return (
    <section ref={page} className="page" aria-label={t('sessions.title')}>
      <h2>{t('sessions.title')}</h2>
      <ErrorLine error={error} />
      <div className="session-search">
        <input
          type="search"
          aria-label={t('sessionsFind.search')}
          placeholder={t('sessionsFind.searchHint')}
          value={query}
          maxLength={500}
          onChange={(e) => setQuery(e.target.value)}
        />
        <span className="muted small-text" role="status">
          {hits &&
            (hits.hits.length
              ? t('sessionsFind.hits', { count: hits.hits.length })
              : t('sessionsFind.noHits', { query: displaySafe(hits.query) }))}
        </span>
      </div>
      {!list && !error && <p className="muted">{t('common.loading')}</p>}
      {!hits && list && list.length === 0 && <p className="muted">{t('sessions.empty')}</p>}
      {rows.length > 0 && (
        <ul className="plain sessions">
          {rows.map(({ s, hit }) => {
            const title = s.title || t('sessions.untitled');
            return (
              <li key={s.id}>
                <div className="session-main">
                  {renaming?.id === s.id ? (
                    <form className="session-rename" onSubmit={(e) => void rename(e)}>
                      <input
                        autoFocus
                        aria-label={t('sessionsFind.newTitle', { title })}
                        value={renaming.draft}
                        maxLength={200}
                        aria-invalid={renaming.error ? true : undefined}
                        onChange={(e) => setRenaming({ id: s.id, draft: e.target.value })}
                        onKeyDown={(e) => {
                          if (e.key === 'Escape') stopRenaming();
                        }}
                      />
                      <button type="submit" className="small primary">
                        {t('sessionsFind.save')}
                      </button>
                      <button type="button" className="small" onClick={stopRenaming}>
                        {t('sessionsFind.cancel')}
                      </button>
                      {renaming.error && (
                        <span role="alert" className="error small-text">
                          <ErrorText error={renaming.error} />
                        </span>
                      )}
                    </form>
                  ) : (
                    <strong>{title}</strong>
                  )}{' '}
                  {s.waiting ? (
                    <span className="badge warn">{t('sessions.waiting')}</span>
                  ) : (
                    s.running && <span className="badge">{t('sessions.running')}</span>
                  )}{' '}
                  <span className="muted small-text">
                    {new Date(s.updatedAt).toLocaleString()} · {t('sessions.messages', { count: s.messages })}
                  </span>
                  {hit && (
                    <p className="snippet small-text">
                      <span className="muted">{where[hit.in]}: </span>
                      {hit.snippet.map((p, i) =>
                        p.hit ? <mark key={i}>{displaySafe(p.text)}</mark> : <span key={i}>{displaySafe(p.text)}</span>,
                      )}
                    </p>
                  )}
                </div>
                <div className="actions">
                  <button
                    type="button"
                    className="small"
                    onClick={() => void open(s.id, hit?.seq)}
                    aria-label={t('sessions.openOne', { title })}
                  >
                    {t('sessions.open')}
                  </button>
                  <button
                    type="button"
                    className="small"
                    onClick={() => setRenaming({ id: s.id, draft: s.title })}
                    aria-label={t('sessionsFind.renameOne', { title })}
                    data-refocus={`rename:${s.id}`}
                  >
                    {t('sessionsFind.rename')}
                  </button>
                  <button
                    type="button"
                    className="small"
                    onClick={() => void exportIt(s)}
                    aria-label={t('sessions.exportOne', { title })}
                  >
                    {t('sessions.export')}
                  </button>
                  <button
                    type="button"
                    className="small danger"
                    onClick={() => setConfirm(s)}
                    aria-label={t('sessionsFind.deleteOne', { title })}
                    data-refocus={`delete:${s.id}`}
                  >
                    {t('sessionsFind.delete')}
                  </button>
                </div>
              </li>
            );
          })}
        </ul>
      )}
      {confirm && (
        <Modal title={t('sessionsFind.confirmTitle')} onClose={() => setConfirm(undefined)}>
          <p>
            {t('sessionsFind.confirmText', { title: confirm.title || t('sessions.untitled'), count: confirm.messages })}
          </p>
          {confirm.id === sessionId && <p>{t('sessionsFind.confirmOpen')}</p>}
          <div className="actions">
            <button type="button" onClick={() => setConfirm(undefined)}>
              {t('sessionsFind.cancel')}
            </button>
            <button type="button" className="danger" onClick={() => void remove(confirm)}>
              {t('sessionsFind.confirmDelete')}
            </button>
          </div>
        </Modal>
      )}
    </section>
  );
}
