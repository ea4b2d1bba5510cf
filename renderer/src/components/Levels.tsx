// The audit levels in plain words: a badge carries its meaning (P0 refused, P1 needs your approval, P2 clean) and a
// one-line legend explains all three wherever levels are shown (sidebar, detail page, install and trust reviews).
import { useTranslation } from 'react-i18next';
import type { AuditLevel } from '../state/skills';

export function LevelBadge({ level, big }: { level: AuditLevel; big?: boolean }) {
  const { t } = useTranslation();
  return (
    <span className={`badge${big ? ' big' : ''} level-${level}`} title={t(`levels.${level}`)}>
      {level} · {t(`levels.${level}`)}
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
