// The audit levels in plain words: a badge carries its meaning (P0 refused, P1 needs your approval, P2 clean) and a
// one-line legend explains all three wherever levels are shown (sidebar, detail page, install and trust reviews).
import { useTranslation } from 'react-i18next';
import type { AuditLevel } from '../state/skills';

/**
 * `trusted`: the user approved this content (a P1 they trusted), so the badge says so instead of asking again: a P1
 * that is on must not read as one still waiting.
 */
export function LevelBadge({ level, big, trusted }: { level: AuditLevel; big?: boolean; trusted?: boolean }) {
  const { t } = useTranslation();
  const words = t(trusted && level === 'P1' ? 'levels.P1trusted' : `levels.${level}`);
  return (
    <span className={`badge${big ? ' big' : ''} level-${level}`} title={words}>
      {level} · {words}
    </span>
  );
}

export function LevelLegend() {
  const { t } = useTranslation();
  return (
    <p className="muted small-text level-legend">
      {(['P0', 'P1', 'P2'] as const).map((l, i) => (
        <span key={l}>
          {i > 0 ? ' · ' : ''}
          <strong>{l}</strong> {t(`levels.${l}`)}
        </span>
      ))}
    </p>
  );
}
