// A tool call in the transcript: name, gate decision, duration, arguments; the result collapsed until opened. A call of
// the marketplace tool that proposed an install adds a card whose "Review install" opens the install dialog.
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { InstallProposal, MARKETPLACE_TOOL, type ToolCallCard } from '../../../preload/contract';
import { useView } from '../state/store';
import { LevelBadge } from './Levels';
import { SaidText } from '../i18n/SaidText';

const ProposalResult = z.object({ installProposal: InstallProposal });

/** The install a marketplace tool call proposed (called directly or through DeferExecuteTool), from its result. */
function proposalOf(card: ToolCallCard): InstallProposal | undefined {
  const marketplace =
    card.tool === MARKETPLACE_TOOL || (card.tool === 'DeferExecuteTool' && card.args.name === MARKETPLACE_TOOL);
  if (!marketplace || card.status !== 'ok' || card.output === undefined) return undefined;
  try {
    const r = ProposalResult.safeParse(JSON.parse(card.output));
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

/** A card's state as the transcript says and styles it, and the gate's decision when it asked or refused. */
const shown: Record<ToolCallCard['status'], ['running' | 'waiting' | 'done' | 'error', ('ask' | 'deny')?]> = {
  pending: ['running'],
  'awaiting-approval': ['waiting', 'ask'],
  running: ['running'],
  ok: ['done'],
  error: ['error'],
  denied: ['error', 'deny'],
};

/**
 * `asked`: an approval card for this call is up below it, showing the input; the tool card keeps its name and state
 * line and leaves the input to that card until the decision.
 */
export function ToolCard({ card, asked = false }: { card: ToolCallCard; asked?: boolean }) {
  const { t } = useTranslation();
  const args = JSON.stringify(card.args, null, 2);
  const proposal = proposalOf(card);
  const [status, decision] = shown[card.status];
  const failed = status === 'error';
  return (
    <>
      <section className={`tool-card status-${status}`} aria-label={t('chat.toolCall', { name: card.tool })}>
        <header>
          <span className="tool-name">{card.tool}</span>
          {decision && <span className={`badge decision-${decision}`}>{t(`chat.decision.${decision}`)}</span>}
          <span className="muted">{t(`chat.status.${status}`)}</span>
          {card.durationMs !== undefined && (
            <span className="muted">{t('chat.duration', { ms: Math.round(card.durationMs) })}</span>
          )}
        </header>
        {!(asked && card.status === 'awaiting-approval') && <pre className="args">{args}</pre>}
        {failed && card.words && (
          // Why it did not run, or what the sandbox blocked, in the window's language (the model read it in English).
          <p className="error tool-refusal">
            <SaidText words={card.words} fallback={card.output} safe />
          </p>
        )}
        {/*
          A command the sandbox blocked ran: the result the model read (its output, what was blocked, the sandbox's own
          text) stays one click away, under Details since its error is said above. A refusal's error is only its words.
        */}
        {(!failed || !card.words || card.words.code === 'wall.blocked') && card.output !== undefined && (
          <details>
            <summary>{failed ? t(card.words ? 'chat.resultDetails' : 'chat.error') : t('chat.result')}</summary>
            <pre className={failed ? 'error' : undefined}>{card.output}</pre>
          </details>
        )}
      </section>
      {proposal && <ProposalCard p={proposal} />}
    </>
  );
}
