// A skill's detail view: manifest, permissions, audit findings with file:line, diagnostics, resources and
// its SKILL.md rendered.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText, useClient } from '../api/context';
import type { SkillDetail as Detail } from '../api/types';
import { useView } from '../state/store';
import { Findings, Permissions } from './Findings';
import { Markdown } from './Markdown';

export function SkillDetail() {
  const { t } = useTranslation();
  const client = useClient();
  const ws = useView((s) => s.workspace?.path ?? '');
  const sel = useView((s) => s.selectedSkill);
  const [d, setD] = useState<Detail>();
  const [error, setError] = useState<string>();

  useEffect(() => {
    if (!sel) return;
    let live = true;
    setD(undefined);
    setError(undefined);
    client.showSkill(ws, sel.name, sel.tier).then(
      (x) => live && setD(x),
      (e) => live && setError(errorText(e)),
    );
    return () => {
      live = false;
    };
  }, [client, ws, sel]);

  if (!sel) return <p className="muted">{t('skill.none')}</p>;
  return (
    <section className="detail" aria-label={t('skill.detail', { name: sel.name })}>
      <header className="detail-head">
        <h2>{sel.name}</h2>
        <button type="button" className="small" onClick={() => useView.getState().set({ view: 'chat' })}>
          {t('common.back')}
        </button>
      </header>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {!d && !error && <p className="muted">{t('common.loading')}</p>}
      {d && (
        <>
          <p>{d.description}</p>
          <dl className="facts">
            <dt>{t('skill.tier')}</dt>
            <dd>
              {t(`tier.${d.tier}`)}
              {d.agents ? ` · ${t('skills.agentsFolder')}` : ''}
            </dd>
            <dt>{t('skill.state')}</dt>
            <dd>
              {d.enabled ? t('skill.on') : t('skill.off')}
              {d.disabledReason ? ` — ${d.disabledReason}` : ''}
            </dd>
            {d.shadowedBy && (
              <>
                <dt>{t('skill.shadowed')}</dt>
                <dd>{t('skills.shadowedBy', { tier: t(`tier.${d.shadowedBy}`) })}</dd>
              </>
            )}
            <dt>{t('skill.audit')}</dt>
            <dd>{d.audit ?? '—'}</dd>
            <dt>{t('skill.path')}</dt>
            <dd>
              <code>{d.path}</code>
            </dd>
            {d.triggers.length > 0 && (
              <>
                <dt>{t('skill.triggers')}</dt>
                <dd>{d.triggers.join(' · ')}</dd>
              </>
            )}
          </dl>
          <h3>{t('skill.permissions')}</h3>
          <Permissions p={d.permissions} />
          <h3>{t('skill.findings')}</h3>
          <Findings findings={d.findings} />
          {d.diagnosticList.length > 0 && (
            <>
              <h3>{t('skill.diagnostics')}</h3>
              <ul className="plain">
                {d.diagnosticList.map((x, i) => (
                  <li key={i}>
                    <code>
                      {x.file}
                      {x.line ? `:${x.line}` : ''}
                    </code>{' '}
                    <span className={`badge sev-${x.severity}`}>{x.severity}</span> {x.field ? `${x.field}: ` : ''}
                    {x.message}
                  </li>
                ))}
              </ul>
            </>
          )}
          <h3>{t('skill.resources')}</h3>
          {d.resources.length === 0 ? (
            <p className="muted">{t('common.none')}</p>
          ) : (
            <ul className="plain">
              {d.resources.map((r) => (
                <li key={r}>
                  <code>{r}</code>
                </li>
              ))}
            </ul>
          )}
          <details>
            <summary>{t('skill.manifest')}</summary>
            <pre>{JSON.stringify(d.manifest, null, 2)}</pre>
          </details>
          <h3>SKILL.md</h3>
          <div className="skill-body">
            <Markdown text={d.body} />
          </div>
        </>
      )}
    </section>
  );
}
