// Tools: always-loaded and deferred tools, a ToolSearch box (as the model searches), MCP servers with state and the
// form that adds, edits and removes them (McpServers).
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useClient } from '../api/context';
import { failure, type Shown } from '../i18n/ErrorText';
import type { ToolInfo } from '../../../preload/contract';
import { McpServers } from './McpServers';
import { useView } from '../state/store';
import { ErrorLine } from './DialogFooter';
import { useSay } from '../i18n/say';

function ToolList({ tools }: { tools: ToolInfo[] }) {
  const { t } = useTranslation();
  const say = useSay();
  if (tools.length === 0) return <p className="muted">{t('common.none')}</p>;
  return (
    <ul className="plain tools">
      {tools.map((x) => (
        <li key={x.name}>
          <code>{x.name}</code>{' '}
          {/* A tool without words is an MCP server's: its description in the server's own words, as it gave it. */}
          <span className="muted" {...(x.words ? {} : { 'data-own-words': '' })}>
            {say(x.words, x.summary)}
          </span>
        </li>
      ))}
    </ul>
  );
}

export function Tools() {
  const { t } = useTranslation();
  const client = useClient();
  const ws = useView((s) => s.workspace?.path ?? '');
  const [tools, setTools] = useState<ToolInfo[]>();
  const [query, setQuery] = useState('');
  const [hits, setHits] = useState<ToolInfo[]>();
  const [error, setError] = useState<Shown>();

  // Read again when an MCP server's tools come or go.
  const loadTools = useCallback(() => {
    client.call('tools.list', {}).then(
      (r) => setTools(r.tools),
      (e) => setError(failure(e)),
    );
  }, [client]);
  useEffect(loadTools, [loadTools, ws]);

  async function search(e: FormEvent) {
    e.preventDefault();
    if (!query.trim()) return;
    try {
      setHits((await client.call('tools.search', { query: query.trim() })).hits);
    } catch (err) {
      setError(failure(err));
    }
  }

  return (
    <section className="page" aria-label={t('tools.title')}>
      <h2>{t('tools.title')}</h2>
      <ErrorLine error={error} />
      <form className="row" onSubmit={(e) => void search(e)} role="search">
        <input
          type="search"
          aria-label={t('tools.search')}
          placeholder={t('tools.searchHint')}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
        <button type="submit">{t('tools.searchButton')}</button>
      </form>
      {hits && (
        <>
          <h3>{t('tools.results')}</h3>
          <ToolList tools={hits} />
        </>
      )}
      {!tools && !error && <p className="muted">{t('common.loading')}</p>}
      {tools && (
        <>
          <h3>{t('tools.loaded')}</h3>
          <ToolList tools={tools.filter((x) => !x.deferred)} />
          <h3>{t('tools.deferred')}</h3>
          <ToolList tools={tools.filter((x) => x.deferred)} />
        </>
      )}
      <McpServers onChanged={loadTools} />
    </section>
  );
}
