// The setup flow: open a folder → choose a provider preset → paste the key and Test connection (one real request; the
// provider's own error when it fails) → done. Shown on a first start with no folder open, and from Settings ("Set up a
// model"). It can be skipped at every step. The key lives in this component's input field only until it is stored.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useClient } from '../api/context';
import { failure, type Shown } from '../i18n/ErrorText';
import type { ConnectionCheck, SettingsView } from '../../../preload/contract';
import { configured, keySource, presetForm, providerForm } from '../state/provider';
import { useView } from '../state/store';
import { WorkspaceOpen } from './WorkspaceOpen';
import { ErrorLine } from './DialogFooter';
import { SaidText } from '../i18n/SaidText';
import { providerLabel } from '../i18n/provider';

const STEPS = ['folder', 'provider', 'key', 'done'] as const;
type Step = (typeof STEPS)[number];

/** The failures Test connection words itself; any other kind reads as "the test failed". */
const FAILURES = new Set(['auth', 'model', 'network', 'timeout', 'rate_limit', 'overloaded', 'config', 'server']);

export function Setup() {
  const { t } = useTranslation();
  const client = useClient();
  const workspace = useView((s) => s.workspace);
  const mode = useView((s) => s.setup);
  const [step, setStep] = useState<Step>(workspace ? 'provider' : 'folder');
  const [settings, setSettings] = useState<SettingsView>();
  const [preset, setPreset] = useState('');
  const [model, setModel] = useState('');
  const [baseUrl, setBaseUrl] = useState('');
  const [key, setKey] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Shown>();
  const [result, setResult] = useState<ConnectionCheck>();
  const heading = useRef<HTMLHeadingElement>(null);
  const moved = useRef(false);

  /** Leave the flow: to the chat with the message box focused after a first run, else back where it was opened. */
  const close = (finished: boolean) => {
    const s = useView.getState();
    s.set({
      setup: undefined,
      ...(finished && mode === 'first' ? { view: 'chat' as const, composerFocus: s.composerFocus + 1 } : {}),
    });
  };

  function adopt(s: SettingsView) {
    const p = providerForm(s);
    setSettings(s);
    setPreset(p.preset);
    setModel(p.model);
    setBaseUrl(p.baseUrl);
  }

  // A folder is open (opened here, or the flow was reopened from Settings): read its provider settings. On a first
  // run, a model already set up ends the flow here.
  const path = workspace?.path;
  useEffect(() => {
    if (!path) return;
    let live = true;
    client.call('settings.get', {}).then(
      (s) => {
        if (!live) return;
        adopt(s);
        if (step === 'folder') {
          if (configured(s) && mode === 'first') close(true);
          else go('provider');
        }
      },
      (e: unknown) => live && setError(failure(e)),
    );
    return () => {
      live = false;
    };
    // Read once per folder; `step` and `mode` are read as they are then.
  }, [client, path]);

  // Each new step's heading takes the focus (a screen reader hears where it is); not on first show.
  useEffect(() => {
    if (moved.current) heading.current?.focus();
  }, [step]);

  function go(next: Step) {
    moved.current = true;
    setError(undefined);
    setStep(next);
  }

  function pick(id: string) {
    if (!settings) return;
    const p = presetForm(settings, id);
    setPreset(id);
    setModel(p.model);
    setBaseUrl(p.baseUrl);
  }

  async function saveProvider(e: FormEvent) {
    e.preventDefault();
    if (!path) return;
    setBusy(true);
    setError(undefined);
    try {
      adopt(
        await client.call('settings.setProvider', {
          preset,
          ...(model.trim() ? { model: model.trim() } : {}),
          ...(baseUrl.trim() ? { baseUrl: baseUrl.trim() } : {}),
        }),
      );
      setResult(undefined);
      go('key');
    } catch (err) {
      setError(failure(err));
    } finally {
      setBusy(false);
    }
  }

  async function test(e: FormEvent) {
    e.preventDefault();
    if (!path) return;
    setBusy(true);
    setError(undefined);
    setResult(undefined);
    try {
      if (key) {
        await client.call('settings.setKey', { preset, key });
        setKey('');
      }
      const r = await client.call('settings.testProvider', {});
      // The result shows when the test is over (with the settings it changed), never beside "Testing…".
      try {
        adopt(await client.call('settings.get', {}));
      } finally {
        setResult(r);
      }
    } catch (err) {
      setError(failure(err));
    } finally {
      setBusy(false);
    }
  }

  const chosen = settings?.presets.find((p) => p.id === preset);
  const chosenLabel = chosen ? providerLabel(t, chosen.id, chosen.label) : undefined;
  const source = settings ? keySource(settings, preset) : 'none';
  const hasKey = source !== 'none';
  const keyLine = !chosen
    ? ''
    : source === 'env'
      ? t('setup.keyFromEnv', { name: chosen.keyEnv ?? '' })
      : source !== 'none'
        ? t('setup.keyThere')
        : chosen.keyOptional
          ? t('setup.keyOptional')
          : t('setup.keyNone');
  const kind = result && !result.ok ? (FAILURES.has(result.kind ?? '') ? result.kind! : 'other') : undefined;
  const where = { model: result?.model ?? model, url: result?.baseUrl || chosenLabel || preset };

  return (
    <main className="welcome setup" aria-labelledby="setup-title">
      <h1 id="setup-title">{mode === 'first' ? t('setup.welcome') : t('setup.title')}</h1>
      <ol className="steps" aria-label={t('setup.steps')}>
        {STEPS.map((s, i) => (
          <li key={s} aria-current={s === step ? 'step' : undefined}>
            {i + 1}. {t(`setup.step.${s}`)}
          </li>
        ))}
      </ol>
      <h2 ref={heading} tabIndex={-1}>
        {t(`setup.head.${step}`)}
      </h2>

      {step === 'folder' && <WorkspaceOpen inSetup />}

      {step === 'provider' && !settings && !error && <p className="muted">{t('common.loading')}</p>}
      {step === 'provider' && settings && (
        <form onSubmit={(e) => void saveProvider(e)}>
          <fieldset className="presets">
            <legend>{t('setup.presets')}</legend>
            {settings.presets.map((p) => (
              <label key={p.id} className="preset">
                <input
                  type="radio"
                  name="setup-preset"
                  value={p.id}
                  checked={preset === p.id}
                  onChange={() => pick(p.id)}
                />{' '}
                {providerLabel(t, p.id, p.label)}
              </label>
            ))}
          </fieldset>
          <div className="grid-form">
            <label htmlFor="setup-model">{t('settings.model')}</label>
            <input id="setup-model" value={model} onChange={(e) => setModel(e.target.value)} spellCheck={false} />
            <label htmlFor="setup-base">{t('settings.baseUrl')}</label>
            <input
              id="setup-base"
              value={baseUrl}
              onChange={(e) => setBaseUrl(e.target.value)}
              placeholder={t('setup.baseDefault')}
              spellCheck={false}
            />
          </div>
          <div className="actions">
            <button type="submit" className="primary" disabled={busy || !preset || !model.trim()}>
              {t('setup.next')}
            </button>
          </div>
        </form>
      )}

      {step === 'key' && (
        <>
          <form onSubmit={(e) => void test(e)}>
            <p className="muted" role="status">
              {keyLine}
            </p>
            <div className="row">
              <label htmlFor="setup-key">{t('setup.key', { provider: chosenLabel ?? preset })}</label>
              <input
                id="setup-key"
                type="password"
                autoComplete="off"
                spellCheck={false}
                value={key}
                onChange={(e) => setKey(e.target.value)}
              />
            </div>
            <p className="muted small-text">{t('setup.keyKept')}</p>
            <div className="actions">
              <button type="submit" className="primary" disabled={busy || (!key && !hasKey && !chosen?.keyOptional)}>
                {busy ? t('setup.testing') : t('setup.test')}
              </button>
            </div>
          </form>
          {result?.ok && (
            <p role="status" className="ok">
              {t('setup.connected', { model: where.model, provider: chosenLabel ?? preset })}
            </p>
          )}
          {kind && result && (
            <div role="alert" className="setup-fail">
              <p className="error">
                <strong>{t(`setup.fail.${kind}`, where)}</strong>
                {result.status ? ` (HTTP ${result.status})` : ''}
              </p>
              {result.said ? (
                <p>
                  {t('setup.providerSaid', { provider: chosenLabel ?? preset })} <code>{result.said}</code>
                </p>
              ) : (
                result.message && (
                  <p className="small-text">
                    <SaidText words={result.words} fallback={result.message} />
                  </p>
                )
              )}
            </div>
          )}
          <div className="actions">
            <button type="button" onClick={() => go('provider')} disabled={busy}>
              {t('common.back')}
            </button>
            <button type="button" className="primary" onClick={() => go('done')} disabled={busy || !result?.ok}>
              {t('setup.next')}
            </button>
          </div>
        </>
      )}

      {step === 'done' && (
        <>
          <p>{t('setup.ready', { model: where.model, provider: chosenLabel ?? preset })}</p>
          <p className="muted">{t('setup.reopen')}</p>
          <div className="actions">
            <button type="button" className="primary" onClick={() => close(true)}>
              {mode === 'first' ? t('setup.start') : t('setup.finish')}
            </button>
          </div>
        </>
      )}

      <ErrorLine error={error} />
      {step !== 'done' && (
        <p className="setup-skip">
          <button type="button" className="link" onClick={() => close(false)} disabled={busy}>
            {mode === 'first' ? t('setup.skip') : t('setup.cancel')}
          </button>
        </p>
      )}
    </main>
  );
}
