// The MCP servers of the Tools page: each server of the user's and the folder's mcp.json with its state (live, from
// tools.mcpChanged), turned off or on, edited or removed; and the form that adds or edits one (stdio: command, args,
// env, network; http: URL, headers). Saving is a trust decision: a review shows what will run, what it may reach and
// where it is written before main tries it inside the sandbox. Env and header values never come back from main: a
// secret left empty keeps the value the file holds.
import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useClient } from '../api/context';
import { failure, type Shown } from '../i18n/ErrorText';
import type { McpEntry, McpEntryInput, McpServerStatus } from '../../../preload/contract';
import { useSay } from '../i18n/say';
import { useView } from '../state/store';
import { ErrorLine } from './DialogFooter';

type Scope = McpEntry['scope'];
interface Secret {
  name: string;
  value: string;
  /** The file holds a value under this name: left empty, it is kept. */
  kept: boolean;
}

/** One argument as a shell would need it written, for the review (the server gets the list as it is). */
const shown = (a: string): string => (/^[\w@%+=:,./-]+$/.test(a) ? a : JSON.stringify(a));
const lines = (text: string): string[] =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

function SecretRows({
  label,
  rows,
  onChange,
}: {
  label: 'env' | 'headers';
  rows: Secret[];
  onChange(rows: Secret[]): void;
}) {
  const { t } = useTranslation();
  const set = (i: number, p: Partial<Secret>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...p } : r)));
  return (
    <fieldset className="mcp-secrets">
      <legend>{t(`mcpForm.${label}`)}</legend>
      {rows.map((r, i) => (
        <div className="row" key={i}>
          <input
            aria-label={t('mcpForm.secretName', { n: i + 1 })}
            value={r.name}
            spellCheck={false}
            onChange={(e) => set(i, { name: e.target.value })}
          />
          <input
            type="password"
            autoComplete="off"
            aria-label={t('mcpForm.secretValue', { name: r.name || i + 1 })}
            placeholder={r.kept ? t('mcpForm.kept') : ''}
            value={r.value}
            onChange={(e) => set(i, { value: e.target.value })}
          />
          <button type="button" onClick={() => onChange(rows.filter((_, j) => j !== i))}>
            {t('common.remove')}
          </button>
        </div>
      ))}
      <button type="button" onClick={() => onChange([...rows, { name: '', value: '', kept: false }])}>
        {t(`mcpForm.add_${label}`)}
      </button>
    </fieldset>
  );
}

function McpForm({ entry, onDone }: { entry?: McpEntry; onDone(saved: boolean): void }) {
  const { t } = useTranslation();
  const client = useClient();
  const id = useId();
  const [name, setName] = useState(entry?.name ?? '');
  const [scope, setScope] = useState<Scope>(entry?.scope ?? 'user');
  const [kind, setKind] = useState<McpEntry['kind']>(entry?.kind ?? 'stdio');
  const [command, setCommand] = useState(entry?.command ?? '');
  const [args, setArgs] = useState((entry?.args ?? []).join('\n'));
  const [network, setNetwork] = useState((entry?.network ?? []).join('\n'));
  const [url, setUrl] = useState(entry?.url ?? '');
  const [env, setEnv] = useState<Secret[]>((entry?.envKeys ?? []).map((n) => ({ name: n, value: '', kept: true })));
  const [headers, setHeaders] = useState<Secret[]>(
    (entry?.headerKeys ?? []).map((n) => ({ name: n, value: '', kept: true })),
  );
  const [review, setReview] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Shown>();
  const [failed, setFailed] = useState<string>();

  const secrets = (rows: Secret[]) =>
    rows
      .filter((r) => r.name.trim())
      .map((r) => ({ name: r.name.trim(), ...(r.value || !r.kept ? { value: r.value } : {}) }));
  const server = (): McpEntryInput =>
    kind === 'http'
      ? { kind, url: url.trim(), headers: secrets(headers) }
      : { kind, command: command.trim(), args: lines(args), env: secrets(env), network: lines(network) };

  async function save(force: boolean) {
    setBusy(true);
    setError(undefined);
    setFailed(undefined);
    try {
      const r = await client.call('mcp.save', {
        scope,
        name: name.trim(),
        ...(entry ? { previousName: entry.name } : {}),
        server: server(),
        ...(force ? { force } : {}),
      });
      if (r.saved) onDone(true);
      else setFailed(r.error ?? '');
    } catch (e) {
      setError(failure(e));
      setReview(false);
    } finally {
      setBusy(false);
    }
  }

  function toReview(e: FormEvent) {
    e.preventDefault();
    setError(undefined);
    setReview(true);
  }

  const s = server();
  const hosts = s.network ?? [];
  if (review)
    return (
      <section className="mcp-review" aria-label={t('mcpForm.review')}>
        <h4>{t('mcpForm.review')}</h4>
        <dl className="facts">
          <dt>{t('mcpForm.name')}</dt>
          <dd>
            <code>{name.trim()}</code> · {t(`mcpForm.scope_${scope}`)}
          </dd>
          {kind === 'stdio' ? (
            <>
              <dt>{t('mcpForm.runs')}</dt>
              <dd>
                <code className="mcp-command">{[s.command ?? '', ...(s.args ?? [])].map(shown).join(' ')}</code>
              </dd>
              <dt>{t('mcpForm.network')}</dt>
              <dd>{hosts.length ? hosts.map((h) => <code key={h}>{h} </code>) : t('mcpForm.noNetwork')}</dd>
              <dt>{t('mcpForm.env')}</dt>
              <dd>{s.env?.length ? s.env.map((x) => <code key={x.name}>{x.name}=•••••• </code>) : t('common.none')}</dd>
            </>
          ) : (
            <>
              <dt>{t('mcpForm.url')}</dt>
              <dd>
                <code>{s.url}</code>
              </dd>
              <dt>{t('mcpForm.headers')}</dt>
              <dd>
                {s.headers?.length
                  ? s.headers.map((x) => <code key={x.name}>{x.name}: •••••• </code>)
                  : t('common.none')}
              </dd>
            </>
          )}
        </dl>
        <p className="notice">{kind === 'stdio' ? t('mcpForm.wall') : t('mcpForm.loopback')}</p>
        {scope === 'project' && <p className="notice warning">{t('mcpForm.trustProject')}</p>}
        {failed !== undefined && (
          <div role="alert" className="error">
            <p>{t('mcpForm.notStarted')}</p>
            <pre className="small-text">{failed}</pre>
          </div>
        )}
        <div className="row">
          <button type="button" onClick={() => setReview(false)} disabled={busy}>
            {t('common.back')}
          </button>
          {failed === undefined ? (
            <button type="button" className="primary" onClick={() => void save(false)} disabled={busy}>
              {busy ? t('mcpForm.starting') : t('mcpForm.saveStart')}
            </button>
          ) : (
            <button type="button" onClick={() => void save(true)} disabled={busy}>
              {t('mcpForm.saveAnyway')}
            </button>
          )}
        </div>
      </section>
    );

  return (
    <form
      className="mcp-form"
      aria-label={entry ? t('mcpForm.edit', { name: entry.name }) : t('mcpForm.add')}
      onSubmit={toReview}
    >
      <h4>{entry ? t('mcpForm.edit', { name: entry.name }) : t('mcpForm.add')}</h4>
      <ErrorLine error={error} />
      <label htmlFor={`${id}-name`}>{t('mcpForm.name')}</label>
      <input id={`${id}-name`} value={name} required spellCheck={false} onChange={(e) => setName(e.target.value)} />
      <label htmlFor={`${id}-scope`}>{t('mcpForm.scope')}</label>
      <select id={`${id}-scope`} value={scope} disabled={!!entry} onChange={(e) => setScope(e.target.value as Scope)}>
        <option value="user">{t('mcpForm.scope_user')}</option>
        <option value="project">{t('mcpForm.scope_project')}</option>
      </select>
      <fieldset>
        <legend>{t('mcpForm.kind')}</legend>
        {(['stdio', 'http'] as const).map((k) => (
          <label key={k}>
            <input type="radio" name={`${id}-kind`} checked={kind === k} onChange={() => setKind(k)} />{' '}
            {t(`mcpForm.kind_${k}`)}
          </label>
        ))}
      </fieldset>
      {kind === 'stdio' ? (
        <>
          <label htmlFor={`${id}-command`}>{t('mcpForm.command')}</label>
          <input
            id={`${id}-command`}
            value={command}
            required
            spellCheck={false}
            onChange={(e) => setCommand(e.target.value)}
          />
          <label htmlFor={`${id}-args`}>{t('mcpForm.args')}</label>
          <textarea
            id={`${id}-args`}
            rows={3}
            value={args}
            spellCheck={false}
            onChange={(e) => setArgs(e.target.value)}
          />
          <SecretRows label="env" rows={env} onChange={setEnv} />
          <label htmlFor={`${id}-network`}>{t('mcpForm.networkHosts')}</label>
          <textarea
            id={`${id}-network`}
            rows={2}
            value={network}
            spellCheck={false}
            placeholder="api.example.com"
            onChange={(e) => setNetwork(e.target.value)}
          />
        </>
      ) : (
        <>
          <label htmlFor={`${id}-url`}>{t('mcpForm.url')}</label>
          <input
            id={`${id}-url`}
            value={url}
            required
            spellCheck={false}
            placeholder="http://127.0.0.1:3000/mcp"
            onChange={(e) => setUrl(e.target.value)}
          />
          <SecretRows label="headers" rows={headers} onChange={setHeaders} />
        </>
      )}
      <div className="row">
        <button type="button" onClick={() => onDone(false)}>
          {t('common.cancel')}
        </button>
        <button type="submit" className="primary">
          {t('mcpForm.toReview')}
        </button>
      </div>
    </form>
  );
}

/** The MCP section of the Tools page; `onChanged` runs when a server's tools may have come or gone. */
export function McpServers({ onChanged }: { onChanged(): void }) {
  const { t } = useTranslation();
  const say = useSay();
  const client = useClient();
  const ws = useView((s) => s.workspace?.path ?? '');
  const [servers, setServers] = useState<McpEntry[]>();
  const [status, setStatus] = useState<McpServerStatus[]>([]);
  const [fileErrors, setFileErrors] = useState<string[]>([]);
  const [editing, setEditing] = useState<McpEntry | 'new'>();
  const [removing, setRemoving] = useState<McpEntry>();
  const [error, setError] = useState<Shown>();

  const load = useCallback(() => {
    client.call('mcp.list', {}).then(
      (r) => {
        setServers(r.servers);
        setStatus(r.status);
        setFileErrors(r.errors);
      },
      (e) => setError(failure(e)),
    );
  }, [client]);

  useEffect(load, [load, ws]);
  useEffect(
    () =>
      client.on('tools.mcpChanged', (p) => {
        setStatus(p.servers);
        onChanged();
      }),
    [client, onChanged],
  );

  async function act(f: () => Promise<unknown>) {
    setError(undefined);
    try {
      await f();
    } catch (e) {
      setError(failure(e));
    }
    load();
    onChanged();
  }

  const stateOf = (s: McpEntry): { key: string; st?: McpServerStatus } => {
    if (!s.enabled) return { key: 'disabled' };
    if (s.held) return { key: 'held' };
    const st = status.find((x) => x.name === s.name);
    return { key: st?.state ?? 'disconnected', ...(st ? { st } : {}) };
  };

  return (
    <section aria-label={t('tools.mcp')}>
      <div className="row section-head">
        <h3>{t('tools.mcp')}</h3>
        {!editing && (
          <button type="button" onClick={() => setEditing('new')}>
            {t('mcpForm.add')}
          </button>
        )}
      </div>
      <ErrorLine error={error} />
      {fileErrors.map((e) => (
        <p key={e} className="error small-text">
          {e}
        </p>
      ))}
      {editing && (
        <McpForm
          key={editing === 'new' ? 'new' : editing.name}
          {...(editing === 'new' ? {} : { entry: editing })}
          onDone={(saved) => {
            setEditing(undefined);
            if (saved) {
              load();
              onChanged();
            }
          }}
        />
      )}
      {servers && servers.length === 0 && !editing && <p className="muted">{t('tools.noMcp')}</p>}
      {servers && servers.length > 0 && (
        <ul className="plain mcp-servers">
          {servers.map((s) => {
            const { key, st } = stateOf(s);
            return (
              <li key={`${s.scope}:${s.name}`}>
                <strong>{s.name}</strong> <span className="badge">{t(`tier.${s.scope}`)}</span>{' '}
                <span className={`badge mcp-${key}`}>{t(`tools.state.${key}`)}</span>{' '}
                {st?.tryWords && <span className="muted">{say(st.tryWords)} </span>}
                {/* Its tools are counted once it is connected: "0 tools" beside connecting or failed says nothing. */}
                {st && key === 'connected' && <span className="muted">{t('tools.count', { count: st.tools })}</span>}
                <div className="small-text muted">
                  <code>{s.kind === 'http' ? s.url : [s.command ?? '', ...s.args].map(shown).join(' ')}</code>
                </div>
                {s.held && <div className="small-text">{t('mcpForm.heldHint')}</div>}
                {st?.error && (
                  // The error as the MCP SDK or the server's program said it (often its stderr): shown as it is, after
                  // a lead in the window's language.
                  <div className="error small-text">
                    {t('tools.lastError')} <code>{st.error}</code>
                  </div>
                )}
                <div className="row">
                  <label>
                    <input
                      type="checkbox"
                      checked={s.enabled}
                      onChange={(e) => {
                        const enabled = e.target.checked;
                        // Shown at once; the list read again after the call says what the file holds.
                        setServers((all) => all?.map((x) => (x === s ? { ...x, enabled } : x)));
                        void act(() => client.call('mcp.setEnabled', { scope: s.scope, name: s.name, enabled }));
                      }}
                    />{' '}
                    {t('mcpForm.enabled', { name: s.name })}
                  </label>
                  <button type="button" onClick={() => setEditing(s)} aria-label={t('mcpForm.edit', { name: s.name })}>
                    {t('mcpForm.editShort')}
                  </button>
                  <button
                    type="button"
                    onClick={() => setRemoving(s)}
                    aria-label={t('mcpForm.remove', { name: s.name })}
                  >
                    {t('common.remove')}
                  </button>
                </div>
                {removing === s && (
                  <div role="group" aria-label={t('mcpForm.remove', { name: s.name })} className="notice warning">
                    <p>{t('mcpForm.confirmRemove', { name: s.name, file: s.file })}</p>
                    <button type="button" onClick={() => setRemoving(undefined)}>
                      {t('common.cancel')}
                    </button>{' '}
                    <button
                      type="button"
                      className="danger"
                      onClick={() => {
                        setRemoving(undefined);
                        void act(() => client.call('mcp.remove', { scope: s.scope, name: s.name }));
                      }}
                    >
                      {t('mcpForm.removeNow', { name: s.name })}
                    </button>
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
