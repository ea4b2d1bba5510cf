// Settings: provider preset, model, base URL, API key (set / clear — never shown back), the ceiling
// (network, read/write roots), the rules editor (allow / ask / deny with remove), language.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useClient } from '../api/context';
import { ErrorText, failure, type Shown } from '../i18n/ErrorText';
import type { PolicyRule, SettingsView } from '../../../preload/contract';
import { keySource as keyFrom, presetForm, providerForm, type ProviderForm } from '../state/provider';
import { chosenLang, setLang } from '../i18n';
import { useSay } from '../i18n/say';
import { SaidText } from '../i18n/SaidText';
import { useView } from '../state/store';
import { SandboxSettings } from './Sandbox';
import { ErrorLine } from './DialogFooter';
import { providerLabel } from '../i18n/provider';

const lines = (s: string) =>
  s
    .split('\n')
    .map((x) => x.trim())
    .filter(Boolean);

export function Settings() {
  const { t, i18n } = useTranslation();
  const say = useSay();
  const client = useClient();
  const ws = useView((s) => s.workspace?.path ?? '');
  const setupOpen = useView((s) => !!s.setup);
  const [s, setS] = useState<SettingsView>();
  const [rules, setRules] = useState<PolicyRule[]>([]);
  const [provider, setProvider] = useState<ProviderForm>({ preset: '', model: '', baseUrl: '' });
  const [network, setNetwork] = useState(false);
  const [key, setKey] = useState('');
  const [read, setRead] = useState('');
  const [write, setWrite] = useState('');
  const [error, setError] = useState<Shown>();
  const [saved, setSaved] = useState<string>();

  /** The page as the engine last gave it, and the form as it is now: what the user has not touched can follow the files. */
  const given = useRef<SettingsView | undefined>(undefined);
  const form = useRef({ provider, network, read, write });
  form.current = { provider, network, read, write };

  function adopt(v: SettingsView) {
    given.current = v;
    setS(v);
    setProvider(providerForm(v));
    setNetwork(v.ceiling.network);
    setRead(v.ceiling.readRoots.join('\n'));
    setWrite(v.ceiling.writeRoots.join('\n'));
  }
  const readAll = () =>
    Promise.all([client.call('settings.get', {}), client.call('rules.list', {})]).then(([v, r]) => {
      setRules(r.rules);
      return v;
    });

  /**
   * The settings changed outside this page (a file edited by hand, another window): the problems list and rules are
   * replaced; the provider and ceiling fields too unless the user is editing them (their edit is not thrown away).
   */
  function follow(v: SettingsView) {
    const { provider: p, network: n, read: r, write: w } = form.current;
    const was = given.current;
    if (!was) return adopt(v);
    const ceilingUntouched =
      n === was.ceiling.network && r === was.ceiling.readRoots.join('\n') && w === was.ceiling.writeRoots.join('\n');
    const before = providerForm(was);
    const providerUntouched = p.preset === before.preset && p.model === before.model && p.baseUrl === before.baseUrl;
    given.current = v;
    setS(v);
    if (providerUntouched) setProvider(providerForm(v));
    if (ceilingUntouched) {
      setNetwork(v.ceiling.network);
      setRead(v.ceiling.readRoots.join('\n'));
      setWrite(v.ceiling.writeRoots.join('\n'));
    }
  }

  // Read again when the setup flow (opened from here) closes: it may have changed the provider and the key.
  useEffect(() => {
    if (setupOpen) return;
    readAll().then(adopt, (e) => setError(failure(e)));
  }, [client, ws, setupOpen]);
  // `follow` reads the form through refs: the subscription need not change with it.
  useEffect(
    () =>
      client.on('workspace.changed', ({ workspace: w }) => {
        if (w.path === ws) readAll().then(follow, () => {});
      }),
    [client, ws],
  );

  async function act(f: () => Promise<unknown>, msg: string) {
    setError(undefined);
    setSaved(undefined);
    try {
      await f();
      setSaved(msg);
    } catch (e) {
      setError(failure(e));
    }
  }

  if (!s)
    return (
      <section className="page" aria-label={t('settings.title')}>
        <h2>{t('settings.title')}</h2>
        {error ? (
          <p role="alert" className="error">
            <ErrorText error={error} />
          </p>
        ) : (
          <p className="muted">{t('common.loading')}</p>
        )}
      </section>
    );

  function saveProvider(e: FormEvent) {
    e.preventDefault();
    void act(
      async () =>
        adopt(
          await client.call('settings.setProvider', {
            preset: provider.preset,
            ...(provider.model ? { model: provider.model } : {}),
            ...(provider.baseUrl ? { baseUrl: provider.baseUrl } : {}),
          }),
        ),
      t('settings.saved'),
    );
  }
  /** After a key is set or cleared: where each preset's key comes from now, as main says (the rest of the page as it is). */
  async function refreshKeys() {
    const v = await client.call('settings.get', {});
    setS((cur) => (cur ? { ...cur, presets: v.presets, provider: v.provider } : v));
  }
  function pickPreset(id: string) {
    const p = presetForm(s!, id);
    setProvider({ preset: id, model: p.model || provider.model, baseUrl: p.baseUrl || provider.baseUrl });
  }

  // The key of the preset picked (not necessarily the one in use): where it comes from, never the key. Only a key set
  // here can be cleared here; one from the environment or the start command stays until that changes.
  const picked = s.presets.find((p) => p.id === provider.preset);
  const keySource = keyFrom(s, provider.preset);
  const storedIn = ` ${t('settings.keyStorage', { where: t(`settings.storage.${s.keyStorage}`) })}`;
  const keyStatus =
    keySource === 'key-store'
      ? `${t('settings.keyStored')}${storedIn}`
      : keySource === 'env'
        ? t('settings.keyFromEnv', { name: picked?.keyEnv ?? '' })
        : keySource === 'file'
          ? t('settings.keyFromFile')
          : keySource === 'option'
            ? t('settings.keyFromOption')
            : t('settings.noKey');

  return (
    <section className="page settings" aria-label={t('settings.title')}>
      <h2>{t('settings.title')}</h2>
      <ErrorLine error={error} />
      {saved && (
        <p role="status" className="ok">
          {saved}
        </p>
      )}
      {(s.warnings.length > 0 || s.providerProblem || (s.problems?.length ?? 0) > 0) && (
        <div className="warnings">
          <h3>{t('settings.warnings')}</h3>
          <ul>
            {s.warnings.map((w, i) => (
              <li key={w}>
                <SaidText words={s.warningWords?.[i]} fallback={w} />
              </li>
            ))}
            {s.providerProblem && (
              <li>
                <SaidText words={s.providerProblem} />
              </li>
            )}
            {s.problems?.map((d, i) => (
              <li key={`p${i}`}>
                {/* `file:line[:column]: [warning: ]field: message`, as the CLI prints it, the message in words */}
                {d.file}
                {d.line !== undefined ? `:${d.line}${d.column !== undefined ? `:${d.column}` : ''}` : ''}:{' '}
                {d.severity === 'error' ? '' : `${t(`severity.${d.severity}`)}: `}
                {d.field ? `${d.field}: ` : ''}
                <SaidText words={d.words} fallback={d.message} />
              </li>
            ))}
          </ul>
        </div>
      )}

      <div className="row">
        <button type="button" className="primary" onClick={() => useView.getState().set({ setup: 'settings' })}>
          {t('setup.open')}
        </button>
      </div>
      <form onSubmit={saveProvider} className="grid-form">
        <h3>{t('settings.provider')}</h3>
        <label htmlFor="set-preset">{t('settings.preset')}</label>
        <select id="set-preset" value={provider.preset} onChange={(e) => pickPreset(e.target.value)}>
          {s.presets.map((p) => (
            <option key={p.id} value={p.id}>
              {providerLabel(t, p.id, p.label)}
            </option>
          ))}
        </select>
        <label htmlFor="set-model">{t('settings.model')}</label>
        <input
          id="set-model"
          list="set-models"
          value={provider.model}
          onChange={(e) => setProvider({ ...provider, model: e.target.value })}
        />
        <datalist id="set-models">{picked && <option value={picked.defaultModel} />}</datalist>
        <label htmlFor="set-base">{t('settings.baseUrl')}</label>
        <input
          id="set-base"
          value={provider.baseUrl}
          onChange={(e) => setProvider({ ...provider, baseUrl: e.target.value })}
          spellCheck={false}
        />
        <div className="actions">
          <button type="submit" className="primary">
            {t('common.save')}
          </button>
        </div>
      </form>

      <form
        className="grid-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (key)
            void act(async () => {
              await client.call('settings.setKey', { preset: provider.preset, key });
              setKey('');
              await refreshKeys();
            }, t('settings.keySaved'));
        }}
      >
        <h3>{t('settings.apiKey')}</h3>
        <p className="muted" role="status">
          {keyStatus}
        </p>
        <label htmlFor="set-key">{t('settings.newKey')}</label>
        <input id="set-key" type="password" autoComplete="off" value={key} onChange={(e) => setKey(e.target.value)} />
        <div className="actions">
          <button type="submit" disabled={!key}>
            {t('settings.setKey')}
          </button>
          <button
            type="button"
            disabled={keySource !== 'key-store'}
            onClick={() =>
              void act(async () => {
                await client.call('settings.clearKey', { preset: provider.preset });
                await refreshKeys();
              }, t('settings.keyCleared'))
            }
          >
            {t('settings.clearKey')}
          </button>
        </div>
      </form>

      <form
        className="grid-form"
        onSubmit={(e) => {
          e.preventDefault();
          void act(
            async () =>
              adopt(
                await client.call('settings.setCeiling', {
                  network,
                  readRoots: lines(read),
                  writeRoots: lines(write),
                }),
              ),
            t('settings.saved'),
          );
        }}
      >
        <h3>{t('settings.ceiling')}</h3>
        <label className="check">
          <input type="checkbox" checked={network} onChange={(e) => setNetwork(e.target.checked)} />{' '}
          {t('settings.network')}
        </label>
        <label htmlFor="set-read">{t('settings.readRoots')}</label>
        <textarea id="set-read" rows={2} value={read} onChange={(e) => setRead(e.target.value)} />
        <label htmlFor="set-write">{t('settings.writeRoots')}</label>
        <textarea id="set-write" rows={2} value={write} onChange={(e) => setWrite(e.target.value)} />
        <div className="actions">
          <button type="submit">{t('common.save')}</button>
        </div>
      </form>

      <SandboxSettings />

      <section aria-labelledby="rules-h">
        <h3 id="rules-h">{t('settings.rules')}</h3>
        {rules.length === 0 ? (
          <p className="muted">{t('settings.noRules')}</p>
        ) : (
          <table className="rules">
            <thead>
              <tr>
                <th scope="col">{t('settings.action')}</th>
                <th scope="col">{t('settings.pattern')}</th>
                <th scope="col">
                  <span className="sr-only">{t('common.remove')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rules.map((r) => (
                <tr key={r.id}>
                  <td>
                    <span className={`badge decision-${r.effect}`}>{t(`settings.act.${r.effect}`)}</span>
                  </td>
                  <td className="rule-desc">{say(r.words, r.description)}</td>
                  <td>
                    <button
                      type="button"
                      className="small"
                      aria-label={t('settings.removeRule', { pattern: r.description })}
                      onClick={() =>
                        void act(async () => {
                          await client.call('rules.remove', { id: r.id });
                          setRules((await client.call('rules.list', {})).rules);
                        }, t('settings.saved'))
                      }
                    >
                      {t('common.remove')}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      <div className="grid-form">
        <h3>{t('settings.language')}</h3>
        <label htmlFor="set-lang">{t('settings.language')}</label>
        <select
          id="set-lang"
          defaultValue={chosenLang()}
          onChange={(e) => setLang(e.target.value as 'en' | 'zh')}
          key={i18n.language}
        >
          <option value="en">English</option>
          <option value="zh">中文</option>
        </select>
      </div>
    </section>
  );
}
