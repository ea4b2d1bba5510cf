// The "Loaded skills" region: what this conversation has loaded, why (trigger words, model request, dependency),
// tier, version hash, tokens and resources read; each can be unloaded.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useClient } from '../api/context';
import { failure, type Shown } from '../i18n/ErrorText';
import type { LoadedSkill } from '../../../preload/contract';
import { useView } from '../state/store';
import { SaidText } from '../i18n/SaidText';
import { ErrorLine } from './DialogFooter';

export function LoadedSkills() {
  const { t } = useTranslation();
  const client = useClient();
  const sessionId = useView((s) => s.sessionId);
  const tick = useView((s) => s.loadedTick);
  const [items, setItems] = useState<LoadedSkill[]>([]);
  const [error, setError] = useState<Shown>();

  useEffect(() => {
    if (!sessionId) {
      setItems([]);
      return;
    }
    let live = true;
    client.call('context.get', { sessionId }).then(
      (c) => {
        if (live) {
          setItems(c.loadedSkills);
          setError(undefined);
        }
      },
      (e) => live && setError(failure(e)),
    );
    return () => {
      live = false;
    };
  }, [client, sessionId, tick]);

  async function unload(name: string) {
    if (!sessionId) return;
    try {
      await client.call('chat.unloadSkill', { sessionId, name });
      setItems((l) => l.filter((s) => s.name !== name));
    } catch (e) {
      setError(failure(e));
    }
  }

  return (
    <section className="panel" aria-label={t('loaded.title')}>
      <h2>{t('loaded.title')}</h2>
      <ErrorLine error={error} />
      {items.length === 0 && !error && <p className="muted">{t('loaded.empty')}</p>}
      <ul className="plain loaded">
        {items.map((s) => (
          <li key={s.name}>
            <div className="loaded-head">
              <strong>{s.name}</strong>
              <button
                type="button"
                className="small"
                onClick={() => void unload(s.name)}
                aria-label={t('loaded.unload', { name: s.name })}
              >
                {t('loaded.unloadShort')}
              </button>
            </div>
            <div className="small-text">
              <SaidText words={s.words} fallback={s.reason} />
            </div>
            <dl className="facts">
              <dt>{t('loaded.tier')}</dt>
              <dd>{t(`tier.${s.tier}`)}</dd>
              {s.version && (
                <>
                  <dt>{t('loaded.version')}</dt>
                  <dd>
                    <code>{s.version.slice(0, 12)}</code>
                  </dd>
                </>
              )}
              <dt>{t('loaded.tokens')}</dt>
              <dd>{s.tokens.toLocaleString()}</dd>
            </dl>
            {s.resources.length > 0 && (
              <details>
                <summary>{t('loaded.resources', { count: s.resources.length })}</summary>
                <ul>
                  {s.resources.map((r) => (
                    <li key={r.path}>
                      <code>{r.path}</code>
                    </li>
                  ))}
                </ul>
              </details>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
