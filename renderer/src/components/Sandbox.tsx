// The OS sandbox as the window shows it: the header badge (Sandboxed / Not sandboxed), the banner when commands are
// not contained (auto: every command asks; required: commands are refused; off), and the Settings line with the
// reason and the install hint. One read of `sandbox.status` per folder (and after a settings change), kept in the store.
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useClient } from '../api/context';
import { ErrorText, failure, shownText, type Failure } from '../i18n/ErrorText';
import type { SandboxStatus } from '../../../preload/contract';
import { useView } from '../state/store';
import { useSay } from '../i18n/say';
import { SaidText, Sentence } from '../i18n/SaidText';

/** Reads the open folder's sandbox status into the store; again when its settings change (sandbox.mode edited). */
export function useSandboxStatus(): void {
  const client = useClient();
  const path = useView((s) => s.workspace?.path);
  useEffect(() => {
    if (!path) return;
    let live = true;
    const read = () =>
      client.call('sandbox.status', {}).then(
        (s) => live && useView.getState().set({ sandbox: s }),
        (e: unknown) => live && useView.getState().set({ sandbox: { error: failure(e, 'sandbox.unknownWhy') } }),
      );
    void read();
    const off = client.on('workspace.changed', ({ workspace: w }) => {
      if (w.path === path) void read();
    });
    return () => {
      live = false;
      off();
    };
  }, [client, path]);
}

/** Set by the badge when the Sandbox section is not on the page yet (Settings still loading): it scrolls to itself. */
let scrollOnShow = false;

const known = (s: SandboxStatus | { error: Failure } | undefined): s is SandboxStatus => !!s && !('error' in s);

/** Contained: the sandbox is there and the settings do not turn it off. */
const contained = (s: SandboxStatus): boolean => s.available && s.mode !== 'off';

export function SandboxBadge() {
  const { t } = useTranslation();
  const say = useSay();
  const s = useView((v) => v.sandbox);
  const set = useView((v) => v.set);
  if (!s) return <span className="badge checking">{t('sandbox.checking')}</span>;
  const on = known(s) && contained(s);
  const label = !known(s) ? t('sandbox.unknown') : on ? t('sandbox.on') : t('sandbox.off');
  return (
    <button
      type="button"
      className={`small badge sandbox-badge ${on ? 'ok' : 'warn'}`}
      onClick={() => {
        // Settings, at its Sandbox section: what the badge is about, not the page's top.
        set({ view: 'settings' });
        const shown = document.getElementById('sandbox-h');
        if (shown) shown.scrollIntoView({ block: 'start' });
        else scrollOnShow = true;
      }}
      title={
        known(s)
          ? on
            ? t('sandbox.onTitle', { backend: s.backend })
            : say(s.reasonWords, s.reason) || t('sandbox.offInSettings')
          : shownText(s.error)
      }
    >
      {label}
    </button>
  );
}

/** Why the sandbox is not there, in the window's sentence; what the sandbox itself said stays in code. */
function Why({ s }: { s: SandboxStatus }) {
  return (
    <Sentence k="sandbox.why" slot="reason">
      <SaidText words={s.reasonWords} fallback={s.reason} />
    </Sentence>
  );
}

/** What to do about it, in the window's sentence; the sandbox's own hint in it. */
function Fix({ s }: { s: SandboxStatus }) {
  return (
    <Sentence k="sandbox.fix" slot="hint">
      <SaidText words={s.hintWords} fallback={s.hint} />
    </Sentence>
  );
}

/** Shown under the header while commands are not contained: what happens to them now, why, and the fix. */
export function SandboxBanner() {
  const { t } = useTranslation();
  const s = useView((v) => v.sandbox);
  if (!known(s) || contained(s)) return null;
  return (
    <div role="status" className="store-banner sandbox-banner warn">
      <p>
        <strong>{t(`sandbox.banner.${s.mode}`)}</strong>
        {s.mode !== 'off' && s.reason && (
          <>
            {' '}
            <Why s={s} />
          </>
        )}
      </p>
      {s.mode !== 'off' && s.hint && (
        <p>
          <Fix s={s} />
        </p>
      )}
    </div>
  );
}

/** The Settings page's Sandbox section: state, backend and mode; the reason and the install hint when it is not there. */
export function SandboxSettings() {
  const { t } = useTranslation();
  const s = useView((v) => v.sandbox);
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    if (!scrollOnShow) return;
    scrollOnShow = false;
    ref.current?.scrollIntoView({ block: 'start' });
  }, []);
  return (
    <section aria-labelledby="sandbox-h" className="sandbox-settings" ref={ref}>
      <h3 id="sandbox-h">{t('sandbox.title')}</h3>
      {!s ? (
        <p className="muted">{t('sandbox.checking')}</p>
      ) : !known(s) ? (
        <p role="alert" className="error">
          <ErrorText error={s.error} />
        </p>
      ) : contained(s) ? (
        <p className="ok">{t('sandbox.onLine', { backend: s.backend, mode: s.mode })}</p>
      ) : (
        <>
          <p className="warn-text">
            {s.mode === 'off' ? t('sandbox.offLine') : t('sandbox.unavailableLine', { backend: s.backend })}{' '}
            {t(`sandbox.then.${s.mode}`)}
          </p>
          {s.mode !== 'off' && s.reason && (
            <p>
              <Why s={s} />
            </p>
          )}
          {s.mode !== 'off' && s.hint && (
            <p>
              <Fix s={s} />
            </p>
          )}
        </>
      )}
      <p className="muted small-text">{t('sandbox.modeHint')}</p>
    </section>
  );
}
