// A tool call in the transcript: name, gate decision, duration, arguments; the result collapsed until opened. A call of
// the marketplace tool that proposed an install adds a card whose "Review install" opens the install dialog.
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import type { ToolCallView } from '../api/types';
import { InstallProposal, MARKETPLACE_TOOL } from '../../../preload/contract';
import { useView } from '../state/store';
import { LevelBadge } from './Levels';
import { useSay } from '../i18n/say';
import { displaySafe } from '../../../preload/contract';

const ProposalResult = z.object({ installProposal: InstallProposal });

/** The install a marketplace tool call proposed (called directly or through DeferExecuteTool), from its result. */
export function proposalOf(call: ToolCallView): InstallProposal | undefined {
  const args = call.args as { name?: unknown } | undefined;
  const marketplace =
    call.name === MARKETPLACE_TOOL || (call.name === 'DeferExecuteTool' && args?.name === MARKETPLACE_TOOL);
  if (!marketplace || call.result === undefined) return undefined;
  try {
    const r = ProposalResult.safeParse(JSON.parse(call.result));
    return r.success ? r.data.installProposal : undefined;
  } catch {
    return undefined;
  }
}

function ProposalCard({ p }: { p: InstallProposal }) {
  const { t } = useTranslation();
  const set = useView((s) => s.set);
  const name = p.skill ?? p.plugin;
  return (
    <section className="proposal-card" aria-label={t('proposal.title')}>
      <p>
        <strong>{t('proposal.title')}</strong> {p.level && <LevelBadge level={p.level} />} <strong>{name}</strong> —{' '}
        {p.description}
      </p>
      <p className="muted small-text">{t('proposal.from', { market: p.marketplaceName, source: p.marketplace })}</p>
      <p className="muted small-text">{t('proposal.note')}</p>
      <button
        type="button"
        className="primary small"
        onClick={() =>
          set({
            installOpen: true,
            installSource: { source: p.marketplace, want: [p.plugin], ...(p.skill ? { pick: p.skill } : {}) },
          })
        }
      >
        {t('proposal.review')}
      </button>
    </section>
  );
}

export function ToolCard({ call }: { call: ToolCallView }) {
  const { t } = useTranslation();
  const say = useSay();
  const args = JSON.stringify(call.args, null, 2);
  const proposal = proposalOf(call);
  return (
    <>
      <section className={`tool-card status-${call.status}`} aria-label={t('chat.toolCall', { name: call.name })}>
        <header>
          <span className="tool-name">{call.name}</span>
          {call.decision && (
            <span className={`badge decision-${call.decision}`}>{t(`chat.decision.${call.decision}`)}</span>
          )}
          <span className="muted">{t(`chat.status.${call.status}`)}</span>
          {call.durationMs !== undefined && (
            <span className="muted">{t('chat.duration', { ms: Math.round(call.durationMs) })}</span>
          )}
        </header>
        <pre className="args">{args}</pre>
        {call.errorWords ? (
          // Why it did not run, in the window's language (the model read the same in English).
          <p className="error tool-refusal">{displaySafe(say(call.errorWords, call.error))}</p>
        ) : (
          (call.result !== undefined || call.error !== undefined) && (
            <details>
              <summary>{call.error !== undefined ? t('chat.error') : t('chat.result')}</summary>
              <pre className={call.error !== undefined ? 'error' : undefined}>{call.error ?? call.result}</pre>
            </details>
          )
        )}
      </section>
      {proposal && <ProposalCard p={proposal} />}
    </>
  );
}
