// The context meter: tokens by section (system, the folder's own instructions, catalog, skills, tools, history)
// against the model's window, which skills the catalog budget left out, and the tokens and cost used so far.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useClient } from '../api/context';
import { failure, type Shown } from '../i18n/ErrorText';
import { SaidText } from '../i18n/SaidText';
import type { ContextView } from '../../../preload/contract';
import { useView } from '../state/store';
import { ErrorLine } from './DialogFooter';

/** USD as the CLI shows it: cents under a dollar need four places to be seen at all. */
function formatUsd(usd: number): string {
  return usd >= 1 ? `$${usd.toFixed(2)}` : `$${usd.toFixed(4)}`;
}

/** One line of tokens and cost; `lead` names what it counts (the branch on screen, or every branch). */
function Spent({ spent, label, lead }: { spent: NonNullable<ContextView['spent']>; label: string; lead?: string }) {
  const { t } = useTranslation();
  const cached = (spent.cacheReadTokens ?? 0) + (spent.cacheWriteTokens ?? 0);
  return (
    <p className="small-text spent" aria-label={label}>
      {lead && <strong>{lead}</strong>}
      {t('spend.tokens', {
        input: spent.inputTokens.toLocaleString(),
        output: spent.outputTokens.toLocaleString(),
      })}
      {cached > 0 && <> · {t('spend.cached', { cached: cached.toLocaleString() })}</>}
      {' · '}
      {spent.costUsd !== undefined ? (
        t('spend.cost', { cost: formatUsd(spent.costUsd) })
      ) : (
        <span className="muted">{t('spend.noPrice')}</span>
      )}
    </p>
  );
}

type Section = ContextView['sections'][number];

/** The instructions are part of the system prompt: they share its colour. */
const segOf = (s: Section) => `seg-${s.section === 'instructions' ? 'system' : s.section}`;

/**
 * A section's line in the legend. The folder's instructions are named by their file and say when they were cut or why
 * they could not be read (then as a warning, with no count); without a file there is no line.
 */
function LegendLine({ s }: { s: Section }) {
  const { t } = useTranslation();
  if (s.section !== 'instructions')
    return (
      <li>
        <span className={`dot ${segOf(s)}`} aria-hidden="true" />
        {t(`context.section.${s.section}`)}: {s.tokens.toLocaleString()}
      </li>
    );
  const item = s.items[0];
  if (!item) return null;
  const label = <SaidText words={item.words} fallback={item.label} />;
  if (item.words?.code === 'instructionsUnreadable' || item.words?.code === 'instructionsImportUnreadable')
    return (
      <li className="warn-text">
        <span className={`dot ${segOf(s)}`} aria-hidden="true" />
        {label}
      </li>
    );
  return (
    <li>
      <span className={`dot ${segOf(s)}`} aria-hidden="true" />
      {label}: {s.tokens.toLocaleString()}
    </li>
  );
}

export function ContextMeter() {
  const { t } = useTranslation();
  const client = useClient();
  const ws = useView((s) => s.workspace?.path ?? '');
  const sessionId = useView((s) => s.sessionId);
  const tick = useView((s) => s.loadedTick);
  const [usage, setUsage] = useState<ContextView>();
  const [error, setError] = useState<Shown>();

  useEffect(() => {
    if (!ws || !sessionId) {
      setUsage(undefined);
      return;
    }
    let live = true;
    client.call('context.get', { sessionId }).then(
      (u) => {
        if (live) {
          setUsage(u);
          setError(undefined);
        }
      },
      (e) => live && setError(failure(e)),
    );
    return () => {
      live = false;
    };
  }, [client, ws, sessionId, tick]);

  const used = usage?.sections.reduce((a, s) => a + s.tokens, 0) ?? 0;
  return (
    <section className="panel" aria-label={t('context.title')}>
      <h2>{t('context.title')}</h2>
      <ErrorLine error={error} />
      {!usage && !error && <p className="muted">{t('context.empty')}</p>}
      {usage && (
        <>
          <div
            className="meter"
            role="meter"
            aria-valuemin={0}
            aria-valuemax={usage.contextWindow}
            aria-valuenow={used}
            aria-label={t('context.used', {
              used: used.toLocaleString(),
              window: usage.contextWindow.toLocaleString(),
            })}
          >
            {usage.sections.map((s) => (
              <span
                key={s.section}
                className={`seg ${segOf(s)}`}
                style={{ width: `${Math.max(0.5, (100 * s.tokens) / usage.contextWindow)}%` }}
              />
            ))}
          </div>
          <p className="small-text">
            {t('context.used', { used: used.toLocaleString(), window: usage.contextWindow.toLocaleString() })}
          </p>
          <ul className="plain legend">
            {usage.sections.map((s) => (
              <LegendLine key={s.section} s={s} />
            ))}
          </ul>
          {usage.spentAll ? (
            <>
              {usage.spent && <Spent spent={usage.spent} label={t('spend.branchLabel')} lead={t('spend.branch')} />}
              <Spent spent={usage.spentAll} label={t('spend.allLabel')} lead={t('spend.all')} />
            </>
          ) : (
            usage.spent && <Spent spent={usage.spent} label={t('spend.label')} />
          )}
          {usage.leftOut.length > 0 && (
            <details>
              <summary>{t('context.leftOut', { count: usage.leftOut.length })}</summary>
              <p className="small-text">{usage.leftOut.join(', ')}</p>
            </details>
          )}
        </>
      )}
    </section>
  );
}
