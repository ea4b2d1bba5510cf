// Settings: provider preset, model, base URL, API key (set / clear — never shown back), the ceiling
// (network, read/write roots), the rules editor (allow / ask / deny with remove), language.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText, useClient } from '../api/context';
import type { KeySource, SettingsView } from '../api/types';
import { chosenLang, setLang } from '../i18n';
import { useSay } from '../i18n/say';
import { useView } from '../state/store';
import { SandboxSettings } from './Sandbox';
import { ErrorLine } from './DialogFooter';

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
  const [key, setKey] = useState('');
  const [read, setRead] = useState('');
  const [write, setWrite] = useState('');
  const [error, setError] = useState<string>();
  const [saved, setSaved] = useState<string>();

  /** The page as the engine last gave it, and the form as it is now: what the user has not touched can follow the files. */
  const given = useRef<SettingsView | undefined>(undefined);
  const form = useRef({ s, read, write });
  form.current = { s, read, write };

  function adopt(v: SettingsView) {
    given.current = v;
    setS(v);
    setRead(v.ceiling.readRoots.join('\n'));
    setWrite(v.ceiling.writeRoots.join('\n'));
  }

  /**
   * The settings changed outside this page (a file edited by hand, another window): the problems list and rules are
   * replaced; the provider and ceiling fields too unless the user is editing them (their edit is not thrown away).
   */
  function follow(v: SettingsView) {
    const { s: cur, read: r, write: w } = form.current;
    const was = given.current;
    if (!cur || !was) return adopt(v);
    const ceilingUntouched =
      cur.ceiling.network === was.ceiling.network &&
      r === was.ceiling.readRoots.join('\n') &&
      w === was.ceiling.writeRoots.join('\n');
    const providerUntouched = cur.provider === was.provider && cur.model === was.model && cur.baseUrl === was.baseUrl;
    given.current = v;
    setS({
      ...cur,
      warnings: v.warnings,
      rules: v.rules,
      presets: v.presets,
      hasApiKey: v.hasApiKey,
      keyStorage: v.keyStorage,
      ...(ceilingUntouched ? { ceiling: v.ceiling } : {}),
      ...(providerUntouched ? { provider: v.provider, model: v.model, baseUrl: v.baseUrl } : {}),
    });
    if (ceilingUntouched) {
      setRead(v.ceiling.readRoots.join('\n'));
      setWrite(v.ceiling.writeRoots.join('\n'));
    }
  }

  // Read again when the setup flow (opened from here) closes: it may have changed the provider and the key.
  useEffect(() => {
    if (setupOpen) return;
    client.getSettings(ws).then(adopt, (e) => setError(errorText(e)));
  }, [client, ws, setupOpen]);
  // `follow` reads the form through refs: the subscription need not change with it.
  useEffect(
    () =>
      client.onWorkspaceChanged?.((w) => {
        if (w.path === ws) client.getSettings(ws).then(follow, () => {});
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
      setError(errorText(e));
    }
  }

  if (!s)
    return (
      <section className="page" aria-label={t('settings.title')}>
        <h2>{t('settings.title')}</h2>
        {error ? (
          <p role="alert" className="error">
            {error}
          </p>
        ) : (
          <p className="muted">{t('common.loading')}</p>
        )}
      </section>
    );

  function saveProvider(e: FormEvent) {
    e.preventDefault();
    void act(
      async () => adopt(await client.saveProvider(ws, { provider: s!.provider, model: s!.model, baseUrl: s!.baseUrl })),
      t('settings.saved'),
    );
  }
  /** After a key is set or cleared: where each preset's key comes from now, as main says (the rest of the page as it is). */
  async function refreshKeys() {
    const v = await client.getSettings(ws);
    setS((cur) => (cur ? { ...cur, presets: v.presets, hasApiKey: v.hasApiKey } : v));
  }
  function pickPreset(id: string) {
    const p = s!.presets.find((x) => x.id === id);
    setS({ ...s!, provider: id, model: p?.models[0] ?? s!.model, baseUrl: p?.baseUrl ?? s!.baseUrl });
  }

  // The key of the preset picked (not necessarily the one in use): where it comes from, never the key. Only a key set
  // here can be cleared here; one from the environment or the start command stays until that changes.
  const picked = s.presets.find((p) => p.id === s.provider);
  const keySource: KeySource = picked?.keySource ?? (s.hasApiKey ? 'key-store' : 'none');
  const storedIn = s.keyStorage
    ? ` ${t('settings.keyStorage', { where: t(`settings.storage.${s.keyStorage}`, { defaultValue: s.keyStorage }) })}`
    : '';
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
      {s.warnings && s.warnings.length > 0 && (
        <div className="warnings">
          <h3>{t('settings.warnings')}</h3>
          <ul>
            {s.warnings.map((w) => (
              <li key={w}>{w}</li>
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
        <select id="set-preset" value={s.provider} onChange={(e) => pickPreset(e.target.value)}>
          {s.presets.map((p) => (
            <option key={p.id} value={p.id}>
              {p.label}
            </option>
          ))}
        </select>
        <label htmlFor="set-model">{t('settings.model')}</label>
        <input
          id="set-model"
          list="set-models"
          value={s.model}
          onChange={(e) => setS({ ...s, model: e.target.value })}
        />
        <datalist id="set-models">
          {s.presets
            .find((p) => p.id === s.provider)
            ?.models.map((m) => (
              <option key={m} value={m} />
            ))}
        </datalist>
        <label htmlFor="set-base">{t('settings.baseUrl')}</label>
        <input
          id="set-base"
          value={s.baseUrl}
          onChange={(e) => setS({ ...s, baseUrl: e.target.value })}
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
              await client.setApiKey(s.provider, key);
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
                await client.clearApiKey(s.provider);
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
                await client.saveCeiling(ws, {
                  network: s.ceiling.network,
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
          <input
            type="checkbox"
            checked={s.ceiling.network}
            onChange={(e) => setS({ ...s, ceiling: { ...s.ceiling, network: e.target.checked } })}
          />{' '}
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
        {s.rules.length === 0 ? (
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
              {s.rules.map((r) => (
                <tr key={r.id}>
                  <td>
                    <span className={`badge decision-${r.action}`}>{t(`settings.act.${r.action}`)}</span>
                  </td>
                  <td className="rule-desc">{say(r.words, r.pattern)}</td>
                  <td>
                    <button
                      type="button"
                      className="small"
                      aria-label={t('settings.removeRule', { pattern: r.pattern })}
                      onClick={() =>
                        void act(
                          async () => setS({ ...s, rules: await client.removeRule(ws, r.id) }),
                          t('settings.saved'),
                        )
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
