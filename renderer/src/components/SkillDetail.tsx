// A skill's detail view: its state in plain words with Trust / Enable / Disable, permissions, audit findings with
// file:line, diagnostics, resources and its SKILL.md rendered. Trust opens the same review as the sidebar's.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SaidText } from '../i18n/SaidText';
import { useClient } from '../api/context';
import { failure, type Shown } from '../i18n/ErrorText';
import type { SkillDetail as Detail } from '../../../preload/contract';
import { auditLevel, checking, waitsForTrust } from '../state/skills';
import { useView } from '../state/store';
import { Findings, Permissions } from './Findings';
import { LevelBadge, LevelLegend } from './Levels';
import { Markdown } from './Markdown';
import { SkillOrigin } from './SkillOrigin';
import { ErrorLine } from './DialogFooter';

/** Why the skill is on or off, in the window's words (never the engine's sentence, which names CLI commands). */
function stateKey(d: Detail): string {
  if (auditLevel(d) === 'P0') return 'skill.stateBlocked';
  if (waitsForTrust(d)) return 'skill.stateUntrusted';
  if (checking(d)) return 'skill.stateChecking';
  return d.enabled ? 'skill.stateOn' : 'skill.stateOff';
}

export function SkillDetail() {
  const { t } = useTranslation();
  const client = useClient();
  const ws = useView((s) => s.workspace?.path ?? '');
  const sel = useView((s) => s.selectedSkill);
  const catalogTick = useView((s) => s.catalogTick);
  const set = useView((s) => s.set);
  const [d, setD] = useState<Detail>();
  const [error, setError] = useState<Shown>();
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!sel) return;
    let live = true;
    setError(undefined);
    client.call('skills.show', { name: sel.name }).then(
      (x) => live && setD(x),
      (e) => live && setError(failure(e)),
    );
    return () => {
      live = false;
    };
  }, [client, ws, sel, catalogTick]);

  async function toggle(enabled: boolean) {
    if (!d) return;
    setBusy(true);
    try {
      await client.call('skills.setEnabled', { name: d.name, enabled });
      set({ catalogTick: useView.getState().catalogTick + 1 });
    } catch (e) {
      const text = failure(e, enabled ? 'skills.enableFailed' : 'skills.disableFailed', { name: d.name });
      useView.getState().notify({ kind: 'error', text, retry: () => void toggle(enabled) });
    } finally {
      setBusy(false);
    }
  }

  if (!sel) return <p className="muted">{t('skill.none')}</p>;
  const shown = d && d.name === sel.name && d.tier === sel.tier ? d : undefined;
  const level = shown && auditLevel(shown);
  const held = !!shown && waitsForTrust(shown);
  return (
    <section className="detail" aria-label={t('skill.detail', { name: sel.name })}>
      <header className="detail-head">
        <h2>{sel.name}</h2>
        <button type="button" className="small" onClick={() => set({ view: 'chat' })}>
          {t('common.back')}
        </button>
      </header>
      <ErrorLine error={error} />
      {!shown && !error && <p className="muted">{t('common.loading')}</p>}
      {shown && (
        <>
          <p data-skill-text>{shown.description}</p>
          <p className="skill-state">
            <strong>{t(stateKey(shown))}</strong>
          </p>
          <div className="actions">
            {held && level !== 'P0' && (
              <button
                type="button"
                className="primary"
                onClick={() => set({ trustReview: { name: shown.name, tier: shown.tier } })}
              >
                {t('skill.trustReview')}
              </button>
            )}
            {!shown.enabled && !held && level !== 'P0' && !shown.shadowedBy && (
              <button type="button" onClick={() => void toggle(true)} disabled={busy}>
                {t('skill.enable')}
              </button>
            )}
            {shown.enabled && (
              <button type="button" onClick={() => void toggle(false)} disabled={busy}>
                {t('skill.disable')}
              </button>
            )}
          </div>
          <dl className="facts">
            <dt>{t('skill.tier')}</dt>
            <dd>
              {t(`tier.${shown.tier}`)}
              {shown.source === 'agents' ? ` · ${t('skills.agentsFolder')}` : ''}
            </dd>
            {shown.shadowedBy && (
              <>
                <dt>{t('skill.shadowed')}</dt>
                <dd>{t('skills.shadowedBy', { tier: t(`tier.${shown.shadowedBy.tier}`) })}</dd>
              </>
            )}
            <dt>{t('skill.audit')}</dt>
            <dd>{level ? <LevelBadge level={level} trusted={shown.audit.status === 'trusted'} /> : '—'}</dd>
            <dt>{t('skill.path')}</dt>
            <dd>
              <code>{shown.dir}</code>
            </dd>
            {shown.readWhen.length > 0 && (
              <>
                <dt>{t('skill.triggers')}</dt>
                <dd>{shown.readWhen.join(' · ')}</dd>
              </>
            )}
            {shown.dependsOn.length > 0 && (
              <>
                <dt>{t('skill.dependsOn')}</dt>
                <dd>{shown.dependsOn.join(', ')}</dd>
              </>
            )}
            {shown.allowedTools.length > 0 && (
              <>
                <dt>{t('skill.allowedTools')}</dt>
                <dd>{shown.allowedTools.join(', ')}</dd>
              </>
            )}
          </dl>
          <SkillOrigin origin={shown.origin} />
          <LevelLegend />
          <h3>{t('skill.permissions')}</h3>
          <Permissions p={shown.permissions} />
          <h3>{t('skill.findings')}</h3>
          <Findings findings={shown.report?.findings ?? []} />
          {shown.diagnostics.length > 0 && (
            <>
              <h3>{t('skill.diagnostics')}</h3>
              <ul className="plain">
                {shown.diagnostics.map((x, i) => (
                  <li key={i}>
                    <code>
                      {x.file}
                      {x.line ? `:${x.line}` : ''}
                    </code>{' '}
                    <span className={`badge sev-${x.severity}`}>{t(`severity.${x.severity}`)}</span>{' '}
                    {x.field ? `${x.field}: ` : ''}
                    <SaidText words={x.words} fallback={x.message} />
                  </li>
                ))}
              </ul>
            </>
          )}
          <h3>{t('skill.resources')}</h3>
          {shown.resources.length === 0 ? (
            <p className="muted">{t('common.none')}</p>
          ) : (
            <ul className="plain">
              {shown.resources.map((r) => (
                <li key={r}>
                  <code>{r}</code>
                </li>
              ))}
            </ul>
          )}
          <h3>SKILL.md</h3>
          <div className="skill-body">
            <Markdown text={shown.body} />
          </div>
        </>
      )}
    </section>
  );
}
